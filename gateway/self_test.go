package gateway

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// TestRedirectToItself: a server that redirects to the gateway's own
// address is refused (508) before the gateway asks itself, and the
// caller's own redirect check still runs for other redirects, on a
// Client the gateway left as it was given.
func TestRedirectToItself(t *testing.T) {
	var base string
	var checked atomic.Int32
	c := &fetch.Client{CheckRedirect: func(from, to schemes.Locator, hops int) error {
		checked.Add(1)
		return nil
	}}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/self":
			http.Redirect(w, r, base+"/", http.StatusFound)
		case "/self-localhost":
			http.Redirect(w, r, strings.Replace(base, "127.0.0.1", "localhost", 1)+"/go?url=x", http.StatusFound)
		case "/elsewhere":
			http.Redirect(w, r, "/doc", http.StatusFound)
		default:
			w.Write([]byte("the document\n"))
		}
	}))
	defer up.Close()
	base = gateway(t, Options{Client: c})
	for _, path := range []string{"/self", "/self-localhost"} {
		resp, body := get(t, newRequest(t, "GET", base+Address(up.URL+path)))
		if resp.StatusCode != http.StatusLoopDetected || !strings.Contains(body, "refused a redirect") {
			t.Errorf("%s: %d %q, want 508 and the refusal", path, resp.StatusCode, body)
		}
	}
	if n := checked.Load(); n != 0 {
		t.Errorf("the caller's CheckRedirect was asked %d times about redirects to the gateway", n)
	}
	resp, body := get(t, newRequest(t, "GET", base+Address(up.URL+"/elsewhere")))
	if resp.StatusCode != 200 || body != "the document\n" {
		t.Errorf("an ordinary redirect: %d %q", resp.StatusCode, body)
	}
	if n := checked.Load(); n != 1 {
		t.Errorf("the caller's CheckRedirect was asked %d times, want 1", n)
	}
	if c.Conns != nil {
		t.Error("New changed the caller's Client")
	}
}
