package http

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
)

// TestTraceScopeReused: a connection is dialed in a scope of its own, and
// every request it carries (its TLS handshake included) is traced there.
func TestTraceScopeReused(t *testing.T) {
	e := newEnv(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, r.URL.Path) }, true)
	tr := schemestest.NewScopeTrace()
	for _, p := range []string{"/a", "/b"} {
		r, _ := e.req(p)
		r.Trace = tr
		resp, err := e.h.Fetch(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		readAll(t, resp)
	}
	for prefix, want := range map[string]string{
		"* Connecting to ":         "[1]",
		"* TLS ":                   "[1]",
		"> GET /a ":                "[1]",
		"> GET /b ":                "[1]",
		"* reusing connection to ": "[1]",
		"< HTTP/1.1 200 OK":        "[1 1]",
	} {
		if got := fmt.Sprint(tr.ScopesOf(prefix)); got != want {
			t.Errorf("%q in scopes %s, want %s; trace:\n%s", prefix, got, want, tr)
		}
	}
}

// TestTraceScopeParallel: two requests in flight at once use two
// connections, and their lines go to two scopes.
func TestTraceScopeParallel(t *testing.T) {
	var arrived sync.WaitGroup
	arrived.Add(2)
	e := newEnv(t, func(w http.ResponseWriter, r *http.Request) {
		arrived.Done()
		arrived.Wait() // both requests are on the wire: two connections
		io.WriteString(w, r.URL.Path)
	}, false)
	tr := schemestest.NewScopeTrace()
	var wg sync.WaitGroup
	for _, p := range []string{"/x", "/y"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, _ := e.req(p)
			r.Trace = tr
			resp, err := e.h.Fetch(context.Background(), r)
			if err != nil {
				t.Error(err)
				return
			}
			readAll(t, resp)
		}()
	}
	wg.Wait()
	x, y := tr.ScopesOf("> GET /x "), tr.ScopesOf("> GET /y ")
	if len(x) != 1 || len(y) != 1 || x[0] == y[0] || x[0] == 0 || y[0] == 0 {
		t.Errorf("GET /x in scopes %v, GET /y in %v: want one scope each, not the same; trace:\n%s", x, y, tr)
	}
	if got := tr.ScopesOf("* Connecting to "); len(got) != 2 || got[0] == got[1] {
		t.Errorf("Connecting notes in scopes %v, want two; trace:\n%s", got, tr)
	}
	if got := tr.ScopesOf("< HTTP/1.1 200 OK"); len(got) != 2 || got[0] == got[1] {
		t.Errorf("responses in scopes %v, want two; trace:\n%s", got, tr)
	}
}
