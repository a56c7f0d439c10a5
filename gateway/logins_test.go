package gateway

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestPasswordNeverInPages: a URL typed with a password is sent back to
// the browser without it (303), and following a link below it still logs
// in with it, which the gateway put back from memory. (Listings' links:
// TestGatewayFTPLoginNotInPages, against vsftpd.)
func TestPasswordNeverInPages(t *testing.T) {
	const pw = "s3cret-pw"
	var unauthorized atomic.Int32
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != "alice" || p != pw {
			unauthorized.Add(1)
			w.Header().Set("WWW-Authenticate", `Basic realm="x"`)
			http.Error(w, "who are you", http.StatusUnauthorized)
			return
		}
		switch r.URL.Path {
		case "/dir/":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<html><body><a href="a.txt">a.txt</a> <a href="sub/">sub/</a></body></html>`))
		case "/dir/a.txt":
			w.Write([]byte("alice's file\n"))
		default:
			http.NotFound(w, r)
		}
	}))
	defer up.Close()
	base := gateway(t, Options{})
	host := strings.TrimPrefix(up.URL, "http://")
	with := "http://alice:" + pw + "@" + host + "/dir/"
	without := "http://alice@" + host + "/dir/"

	for _, first := range []string{base + Address(with), base + "/go?url=" + strings.ReplaceAll(with, ":", "%3A")} {
		resp, body := get(t, newRequest(t, "GET", first))
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != Address(without) || strings.Contains(body, pw) {
			t.Fatalf("%s: %d to %q, want 303 to %q", first, resp.StatusCode, resp.Header.Get("Location"), Address(without))
		}
	}
	resp, body := get(t, newRequest(t, "GET", base+Address(without)))
	if resp.StatusCode != 200 || strings.Contains(body, pw) {
		t.Fatalf("the listing: %d, password in page: %v\n%s", resp.StatusCode, strings.Contains(body, pw), body)
	}
	// The page is the server's own, sandboxed; its relative links lead
	// back under the address without the password.
	link := Address("http://alice@" + host + "/dir/a.txt")
	resp, body = get(t, newRequest(t, "GET", base+link))
	if resp.StatusCode != 200 || body != "alice's file\n" {
		t.Errorf("following the link: %d %q", resp.StatusCode, body)
	}
	if n := unauthorized.Load(); n != 0 {
		t.Errorf("the server saw %d requests without alice's login", n)
	}
}
