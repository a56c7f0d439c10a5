package http

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"sync"
	"time"

	"github.com/urlget/urlget/schemes"
)

// maxTransports bounds the Handler's cache: a long-lived Handler used with
// a new Dialer per fetch run must not keep every run's idle connections.
const maxTransports = 8

// transportKey identifies a cached http.Transport. The scheme is part of
// the key because the Dialer's port policy depends on it, and DialContext
// is not told the scheme.
type transportKey struct {
	dialer schemes.Dialer
	tls    *tls.Config
	scheme string
}

// transports caches one http.Transport per Dialer, TLS config and scheme,
// so the requests of one fetch run (redirects, retries, recursive
// retrievals) reuse connections.
type transports struct {
	mu    sync.Mutex
	m     map[transportKey]*http.Transport
	order []transportKey // oldest first, for eviction
}

// get returns the transport for d, cfg and scheme, making it if needed.
// A Dialer whose dynamic value cannot be a map key (a struct holding a
// func, say) gets a fresh transport each time, closed by the caller.
func (c *transports) get(d schemes.Dialer, cfg *tls.Config, scheme string) (t *http.Transport, cached bool) {
	if !reflect.ValueOf(d).Comparable() {
		return newTransport(d, cfg, scheme), false
	}
	k := transportKey{d, cfg, scheme}
	c.mu.Lock()
	defer c.mu.Unlock()
	if t := c.m[k]; t != nil {
		return t, true
	}
	if c.m == nil {
		c.m = map[transportKey]*http.Transport{}
	}
	if len(c.order) >= maxTransports {
		old := c.order[0]
		c.order = c.order[1:]
		c.m[old].CloseIdleConnections()
		delete(c.m, old)
	}
	t = newTransport(d, cfg, scheme)
	c.m[k] = t
	c.order = append(c.order, k)
	return t, true
}

// closeIdle closes every cached transport's idle connections.
func (c *transports) closeIdle() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range c.m {
		t.CloseIdleConnections()
	}
}

// newTransport makes an http.Transport that dials only through d. Its only
// proxy is one that forwards plain http (schemes.Forwarder, chosen per
// request by Fetch); the Dialer tunnels through any other. There is no
// transparent decompression (the body is the resource as served, so
// sizes, offsets and digests match), and HTTP/1.1 only, whose exchange the
// trace can show.
// TLS for https is done by http.Transport over the Dialer's connection.
func newTransport(d schemes.Dialer, cfg *tls.Config, scheme string) *http.Transport {
	if cfg != nil {
		cfg = cfg.Clone()
	} else {
		cfg = &tls.Config{}
	}
	// Offer only HTTP/1.1: a config that also offers "h2" would let the
	// server pick a protocol this Transport does not speak.
	cfg.NextProtos = []string{"http/1.1"}
	return &http.Transport{
		// A proxy only for the requests Fetch found a forwarding proxy
		// for; every other connection is the Dialer's business.
		Proxy: func(r *http.Request) (*url.URL, error) { return forwardingProxy(r.Context()), nil },
		DialContext: func(ctx context.Context, _, addr string) (net.Conn, error) {
			if p := forwardingProxy(ctx); p != nil && addr == p.Host {
				if fw, ok := d.(schemes.Forwarder); ok {
					return fw.DialProxy(ctx, scheme, p)
				}
			}
			host, p, err := net.SplitHostPort(addr)
			if err != nil {
				return nil, err
			}
			port, err := strconv.Atoi(p)
			if err != nil {
				return nil, err
			}
			return d.Dial(ctx, scheme, host, port)
		},
		TLSClientConfig:        cfg,
		DisableCompression:     true,
		ForceAttemptHTTP2:      false,
		MaxIdleConnsPerHost:    4,
		IdleConnTimeout:        90 * time.Second,
		MaxResponseHeaderBytes: 1 << 20,
	}
}

// forwardKey is the context key under which Fetch puts the proxy that
// forwards its request (see forwardProxy).
type forwardKey struct{}

// forwardingProxy returns the forwarding proxy ctx carries, or nil.
func forwardingProxy(ctx context.Context) *url.URL {
	p, _ := ctx.Value(forwardKey{}).(*url.URL)
	return p
}

// forwardProxy asks d, when it is a schemes.Forwarder, which proxy should
// forward the request for loc in absolute form; nil means a direct
// connection or a tunnel the Dialer makes.
func forwardProxy(d schemes.Dialer, loc *URL) (*url.URL, error) {
	fw, ok := d.(schemes.Forwarder)
	if !ok {
		return nil, nil
	}
	return fw.ForwardProxy(loc.g.Scheme, loc.g.Host, loc.g.EffectivePort())
}
