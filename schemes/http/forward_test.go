package http

import (
	"context"
	"encoding/base64"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/urlget/urlget/schemes"
)

// forwardDialer is a Dialer and schemes.Forwarder whose forwarding proxy
// is proxy; refuse makes ForwardProxy fail as a port policy would.
type forwardDialer struct {
	testDialer
	proxy  *url.URL
	refuse error

	mu           sync.Mutex
	proxyDials   int
	forwardAsked []string
}

func (d *forwardDialer) ForwardProxy(scheme, host string, port int) (*url.URL, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.forwardAsked = append(d.forwardAsked, net.JoinHostPort(host, strconv.Itoa(port)))
	if d.refuse != nil {
		return nil, d.refuse
	}
	return d.proxy, nil
}

func (d *forwardDialer) DialProxy(ctx context.Context, scheme string, proxy *url.URL) (net.Conn, error) {
	d.mu.Lock()
	d.proxyDials++
	d.mu.Unlock()
	var nd net.Dialer
	return nd.DialContext(ctx, "tcp", proxy.Host)
}

// forwardProxyServer answers like an HTTP proxy that forwards: it records
// the request target and Proxy-Authorization of every request and
// answers with the target.
type forwardProxyServer struct {
	mu      sync.Mutex
	targets []string
	auth    []string
}

func (p *forwardProxyServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	p.targets = append(p.targets, r.Method+" "+r.RequestURI)
	p.auth = append(p.auth, r.Header.Get("Proxy-Authorization"))
	p.mu.Unlock()
	if r.Method == http.MethodConnect {
		http.Error(w, "CONNECT refused", http.StatusForbidden)
		return
	}
	io.WriteString(w, "forwarded "+r.RequestURI)
}

func TestForwardedThroughProxy(t *testing.T) {
	ps := &forwardProxyServer{}
	proxy := httptest.NewServer(ps)
	defer proxy.Close()
	d := &forwardDialer{proxy: &url.URL{Scheme: "http", User: url.UserPassword("pu", "ppw"), Host: proxy.Listener.Addr().String()}}
	h := &Handler{}
	defer h.CloseIdleConnections()
	for range 2 {
		loc, err := parse("http://origin.example:8080/dir/x?q=1")
		if err != nil {
			t.Fatal(err)
		}
		tr := &recTrace{}
		resp, err := h.Fetch(context.Background(), &schemes.Request{URL: loc, Dialer: d, Trace: tr})
		if err != nil {
			t.Fatal(err)
		}
		if got := readAll(t, resp); got != "forwarded http://origin.example:8080/dir/x?q=1" {
			t.Errorf("body %q", got)
		}
		if !tr.has("> GET http://origin.example:8080/dir/x?q=1 HTTP/1.1") || !tr.has("> Proxy-Authorization: Basic ****") {
			t.Errorf("trace lacks the absolute-form request line or the redacted Proxy-Authorization:\n%s", tr)
		}
		if creds := base64.StdEncoding.EncodeToString([]byte("pu:ppw")); strings.Contains(tr.String(), creds) {
			t.Errorf("proxy credentials in the trace:\n%s", tr)
		}
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	want := "GET http://origin.example:8080/dir/x?q=1"
	if len(ps.targets) != 2 || ps.targets[0] != want || ps.targets[1] != want {
		t.Errorf("proxy saw %q, want two %q (absolute form, no CONNECT)", ps.targets, want)
	}
	if ps.auth[0] != "Basic "+base64.StdEncoding.EncodeToString([]byte("pu:ppw")) {
		t.Errorf("Proxy-Authorization %q", ps.auth[0])
	}
	if d.proxyDials != 1 || d.count() != 0 {
		t.Errorf("%d proxy dials and %d direct dials; want 1 (reused) and 0", d.proxyDials, d.count())
	}
	if d.forwardAsked[0] != "origin.example:8080" {
		t.Errorf("ForwardProxy asked for %q", d.forwardAsked)
	}
}

// TestForwardOnlyPlainHTTP: the Dialer is asked for a forwarding proxy
// for an http request only; an https one is tunnelled, so that the proxy
// never reads it.
func TestForwardOnlyPlainHTTP(t *testing.T) {
	proxy := &url.URL{Scheme: "http", Host: "proxy.example:3128"}
	for _, tt := range []struct {
		raw  string
		want *url.URL
	}{
		{"http://origin.example/", proxy},
		{"https://origin.example/", nil},
	} {
		d := &forwardDialer{proxy: proxy}
		loc, err := parse(tt.raw)
		if err != nil {
			t.Fatal(err)
		}
		got, err := forwardProxy(d, loc)
		if err != nil || got != tt.want {
			t.Errorf("%s: forwarding proxy %v, %v; want %v", tt.raw, got, err, tt.want)
		}
		if asked := len(d.forwardAsked); (asked > 0) != (tt.want != nil) {
			t.Errorf("%s: Dialer asked %d times", tt.raw, asked)
		}
	}
}

func TestForwardRefused(t *testing.T) {
	refusal := &schemes.Error{Scheme: "http", Phase: "dial", Kind: schemes.KindSafety, Part: "port", Msg: "port 25 refused"}
	d := &forwardDialer{refuse: refusal}
	loc, err := parse("http://origin.example:25/")
	if err != nil {
		t.Fatal(err)
	}
	_, err = (&Handler{}).Fetch(context.Background(), &schemes.Request{URL: loc, Dialer: d})
	var se *schemes.Error
	if !errors.As(err, &se) || se.Kind != schemes.KindSafety || se.Part != "port" {
		t.Fatalf("err %#v: want the refusal", err)
	}
	if d.proxyDials != 0 || d.count() != 0 {
		t.Errorf("dialed after a refusal")
	}
}

// TestNotForwardedWithoutProxy: a Forwarder that names no proxy leaves the
// connection to Dial, with an origin-form request.
func TestNotForwardedWithoutProxy(t *testing.T) {
	e := newEnv(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, r.RequestURI) }, false)
	d := &forwardDialer{}
	r, tr := e.req("/a?b")
	r.Dialer = d
	resp, err := e.h.Fetch(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, resp); got != "/a?b" || d.count() != 1 || d.proxyDials != 0 || !tr.has("> GET /a?b HTTP/1.1") {
		t.Errorf("body %q, %d dials, %d proxy dials; trace:\n%s", got, d.count(), d.proxyDials, tr)
	}
}
