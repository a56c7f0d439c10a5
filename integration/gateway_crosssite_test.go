//go:build integration

package integration

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/gateway"
	"github.com/urlget/urlget/integration/browser"
	"github.com/urlget/urlget/integration/hostile"
	"github.com/urlget/urlget/integration/testbed"
)

// gatewayHit is one request as the gateway saw it: its target, Fetch
// Metadata and the status it answered.
type gatewayHit struct {
	target, site, mode, dest string
	status                   int
}

// hitRecorder is a ResponseWriter that keeps the status written.
type hitRecorder struct {
	http.ResponseWriter
	status int
}

func (w *hitRecorder) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *hitRecorder) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(p)
}

// Unwrap lets the gateway's ResponseController flush through it.
func (w *hitRecorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// loggedGateway runs the gateway in this process with its own
// http.Server (HTTPServer) and a request log: every request it answers
// goes to the channel returned, once answered.
func loggedGateway(t *testing.T, opt gateway.Options) (string, <-chan gatewayHit) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	opt.Hosts = gateway.HostsFor(ln.Addr())
	srv := gateway.New(opt).HTTPServer()
	hits := make(chan gatewayHit, 100)
	gw := srv.Handler
	srv.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &hitRecorder{ResponseWriter: w}
		gw.ServeHTTP(rec, r)
		hits <- gatewayHit{r.RequestURI, r.Header.Get("Sec-Fetch-Site"), r.Header.Get("Sec-Fetch-Mode"), r.Header.Get("Sec-Fetch-Dest"), rec.status}
	})
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String(), hits
}

// TestBrowserGatewayCrossSite: a page on another origin (a server on
// another port of 127.0.0.1: the same site, another origin) embeds
// gateway addresses as an <img>, a fetch() in no-cors mode and an
// <iframe>, each for a gopher server that logs every connection and for
// gophernicus's menu, which the gateway would otherwise serve. Chromium
// sends them all, and the gateway refuses each (403) without connecting
// anywhere: the logging server gets no connection. A link on that page to
// the same gophernicus menu, clicked, is a top-level navigation a person
// started and is served; a script's own navigation to the logging
// server is refused.
func TestBrowserGatewayCrossSite(t *testing.T) {
	testbed.Require(t, testbed.Gophernicus)
	// Counts and records connections; reads a request and closes, so that
	// a retrieval that did reach it would end at once.
	target, err := hostile.Start(func(c *hostile.Conn) { bufio.NewReader(c).ReadString('\n') })
	if err != nil {
		t.Fatal(err)
	}
	defer target.Close()
	base, hits := loggedGateway(t, gateway.Options{Timeout: time.Minute})
	menu := base + gateway.Address("gopher://"+testbed.Addr(testbed.GophernicusPort)+"/")
	logged := func(what string) string { return base + gateway.Address("gopher://"+target.HostPort()+"/1/"+what) }
	// Each embedded address and the Sec-Fetch-Dest Chromium gives it; the
	// menu is embedded as it is, the address a link leads to below.
	embedded := map[string]bool{
		logged("img") + " image": true, logged("fetch") + " empty": true, logged("iframe") + " iframe": true,
		menu + " image": true, menu + " empty": true, menu + " iframe": true,
	}
	page := fmt.Sprintf(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>another site</title></head><body>
<p><a id="menu" href="%[1]s">the gophernicus menu</a></p>
<img src="%[2]s"><img src="%[1]s">
<iframe src="%[3]s"></iframe><iframe src="%[1]s"></iframe>
<script>
for (const u of [%[4]q, %[1]q]) fetch(u, {mode: "no-cors"}).catch(() => {});
</script>
</body></html>`, menu, logged("img"), logged("iframe"), logged("fetch"))
	// A page whose script navigates to the gateway by itself, with no
	// person behind it.
	auto := fmt.Sprintf(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>moves on</title></head><body>
<script>location.href = %q;</script></body></html>`, logged("nav"))
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/":
			w.Write([]byte(page))
		case "/auto":
			w.Write([]byte(auto))
		default:
			http.NotFound(w, r)
		}
	}))
	defer other.Close()

	b := browser.Start(t)
	if st := b.Open(other.URL + "/"); st != http.StatusOK {
		t.Fatalf("the other site's page: status %d", st)
	}
	// The gateway's log, until every embedded address has been asked for
	// (the page's load waits for images and frames, not for fetch()).
	seen := map[string]gatewayHit{}
	deadline := time.After(browser.Timeout)
	for len(seen) < len(embedded) {
		select {
		case h := <-hits:
			key := base + h.target + " " + h.dest
			if !embedded[key] || seen[key] != (gatewayHit{}) {
				t.Errorf("the gateway was asked for %s as %q (%+v), which the page does not embed so", h.target, h.dest, h)
				continue
			}
			seen[key] = h
		case <-deadline:
			t.Fatalf("the gateway saw %d of the %d embedded requests: %+v", len(seen), len(embedded), seen)
		}
	}
	for _, h := range seen {
		t.Logf("%s: Sec-Fetch-Site %s, Mode %s, Dest %s: %d", h.target, h.site, h.mode, h.dest, h.status)
		if h.status != http.StatusForbidden {
			t.Errorf("%s embedded as %s by another origin: %d, want 403", h.target, h.dest, h.status)
		}
		if h.site != "same-site" {
			t.Errorf("%s: Chromium sent Sec-Fetch-Site %q; the test expects same-site (another port of 127.0.0.1)", h.target, h.site)
		}
	}
	if n := target.Conns(); n != 0 {
		t.Errorf("the logging server got %d connections (received %q), want none", n, target.Received())
	}

	// A person following the page's link: a top-level navigation.
	if st := b.Click("#menu"); st != http.StatusOK {
		t.Fatalf("the link to the gophernicus menu from the other site: status %d: %s", st, b.Text("body"))
	}
	if got := b.Text("#entries"); !strings.Contains(got, "Welcome to the urlget Gopher test server") {
		t.Errorf("the link from the other site shows %q, want gophernicus's menu", got)
	}
	select {
	case h := <-hits:
		t.Logf("%s: Sec-Fetch-Site %s, Mode %s, Dest %s: %d", h.target, h.site, h.mode, h.dest, h.status)
		if base+h.target != menu || h.status != http.StatusOK || h.mode != "navigate" || h.dest != "document" {
			t.Errorf("the navigation as the gateway saw it: %+v", h)
		}
	case <-time.After(browser.Timeout):
		t.Error("the gateway logged no navigation")
	}
	if n := target.Conns(); n != 0 {
		t.Errorf("the logging server got %d connections, want none", n)
	}

	// A script's navigation of the top-level page: no Sec-Fetch-User,
	// refused.
	b.Open(other.URL + "/auto")
	select {
	case h := <-hits:
		t.Logf("%s: Sec-Fetch-Site %s, Mode %s, Dest %s: %d", h.target, h.site, h.mode, h.dest, h.status)
		if base+h.target != logged("nav") || h.status != http.StatusForbidden || h.mode != "navigate" || h.dest != "document" {
			t.Errorf("the script's navigation as the gateway saw it: %+v, want 403", h)
		}
	case <-time.After(browser.Timeout):
		t.Error("the gateway logged no navigation by script")
	}
	if n := target.Conns(); n != 0 {
		t.Errorf("the logging server got %d connections after a script's navigation, want none", n)
	}
}
