// Package httpfake has in-process HTTP servers on 127.0.0.1 for the unit
// tests of more than one package (a server of one package's tests stays in
// its _test.go files). It lives under integration/ because it listens:
// only transport/ and test infrastructure may open sockets.
package httpfake

import (
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
)

// Redirects is an HTTP server on 127.0.0.1 whose redirects lead to
// failures, for tests of what is reported about the request that failed:
//
//	/to-404      → /missing, which answers 404
//	/to-refused  → Refused, a port nothing listens on
//	/to-secret   → the same host with user u, password hunter2, /to-404
//
// Any other path answers 404.
type Redirects struct {
	URL     string // the server's base URL, http://127.0.0.1:port
	Refused string // the URL /to-refused leads to
}

// NewRedirects starts a Redirects server, stopped when t ends.
func NewRedirects(t testing.TB) *Redirects {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &Redirects{Refused: "http://" + ln.Addr().String() + "/gone"}
	ln.Close() // the port is free again: connecting to it is refused
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		switch req.URL.Path {
		case "/to-404":
			http.Redirect(w, req, "/missing", http.StatusFound)
		case "/to-refused":
			http.Redirect(w, req, r.Refused, http.StatusFound)
		case "/to-secret":
			http.Redirect(w, req, "http://u:hunter2@"+req.Host+"/to-404", http.StatusMovedPermanently)
		default:
			http.NotFound(w, req)
		}
	}))
	t.Cleanup(srv.Close)
	r.URL = srv.URL
	return r
}
