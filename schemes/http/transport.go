package http

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// maxTransports bounds the Handler's cache: a long-lived Handler used with
// a new Dialer per fetch run must not keep every run's idle connections.
const maxTransports = 8

// transports caches one http.Transport per key of the rules every
// scheme's idle connections live by (schemes.ConnKey): the Dialer (its
// proxy and port policy, and its TLS settings: a connection made without
// certificate checks never carries a verifying request) and the scheme (the port policy
// depends on it, and DialContext is not told the scheme). net/http keys
// its own idle connections within a Transport by host and port; HTTP
// connections carry no login (credentials go with each request), so the
// login is not part of the key. The requests of one fetch run
// (redirects, retries, recursive retrievals) reuse connections.
//
// The idle limits are part of the key too: a Transport's cannot change
// once it is in use, and a request whose Conns keeps more idle sessions
// (schemes.IdleLimiter: a Client sized for many requests at once) must
// find as many keep-alive connections kept.
type transports struct {
	mu    sync.Mutex
	m     map[transportKey]*http.Transport
	order []transportKey // oldest first, for eviction
}

// transportKey is what the Transport of a request depends on.
type transportKey struct {
	conn   schemes.ConnKey
	limits schemes.IdleLimits
}

// get returns the transport for req's Dialer, scheme and idle limits,
// making it if needed. A Dialer whose dynamic value cannot be a map key (a
// struct holding a func, say) gets a fresh transport each time, closed by
// the caller.
func (c *transports) get(req *schemes.Request, scheme string) (t *http.Transport, cached bool) {
	d := req.Dialer
	lim := idleLimits(req.Conns)
	ck, ok := schemes.NewConnKey(req, scheme, "", 0, scheme == "https", "", "")
	if !ok {
		return newTransport(d, scheme, lim), false
	}
	k := transportKey{conn: ck, limits: lim}
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
	t = newTransport(d, scheme, lim)
	c.m[k] = t
	c.order = append(c.order, k)
	return t, true
}

// idleLimits are the limits conns states (schemes.IdleLimiter), each
// that it leaves at 0 or less the default of a transport.Pool; a request
// without Conns gets the defaults too, as it always has: net/http keeps
// connections whatever the request.
func idleLimits(conns schemes.Conns) schemes.IdleLimits {
	var lim schemes.IdleLimits
	if l, ok := conns.(schemes.IdleLimiter); ok {
		lim = l.IdleLimits()
	}
	if lim.PerKey <= 0 {
		lim.PerKey = transport.DefaultMaxIdlePerKey
	}
	if lim.Total <= 0 {
		lim.Total = transport.DefaultMaxIdle
	}
	if lim.Timeout <= 0 {
		lim.Timeout = transport.DefaultIdleTimeout
	}
	return lim
}

// closeIdle closes every cached transport's idle connections.
func (c *transports) closeIdle() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range c.m {
		t.CloseIdleConnections()
	}
}

// newTransport makes an http.Transport that dials only through d and
// starts TLS only through d.StartTLS, so that https gets the port policy,
// timeouts, certificate policy (--cacert, -k, KindSafety) and tracing of
// every other TLS scheme. Its only proxy is one that forwards plain http
// (schemes.Forwarder, chosen per request by Fetch); the Dialer tunnels
// through any other. There is no transparent decompression (the body is
// the resource as served, so sizes, offsets and digests match), and
// HTTP/1.1 only, whose exchange the trace can show: with DialTLSContext
// set net/http never attempts HTTP/2, and the config offers only
// "http/1.1" by ALPN, which is all this Transport ever spoke, so handing
// TLS to the Dialer loses nothing.
//
// It keeps idle connections within lim, as the request's Conns keeps its
// sessions. Each connection is dialed in a trace scope of its own (see
// dialer).
func newTransport(d schemes.Dialer, scheme string, lim schemes.IdleLimits) *http.Transport {
	dl := &dialer{d: d, scheme: scheme}
	return &http.Transport{
		// A proxy only for the requests Fetch found a forwarding proxy
		// for; every other connection is the Dialer's business.
		Proxy: func(r *http.Request) (*url.URL, error) { return forwardingProxy(r.Context()), nil },
		DialContext: func(ctx context.Context, _, addr string) (net.Conn, error) {
			c, _, err := dl.dial(ctx, addr)
			return c, err
		},
		DialTLSContext: func(ctx context.Context, _, addr string) (net.Conn, error) {
			return dl.dialTLS(ctx, addr)
		},
		DisableCompression:     true,
		ForceAttemptHTTP2:      false,
		ReadBufferSize:         readBuffer, // the size splice.go relies on
		MaxIdleConnsPerHost:    lim.PerKey,
		MaxIdleConns:           lim.Total,
		IdleConnTimeout:        lim.Timeout,
		MaxResponseHeaderBytes: 1 << 20,
	}
}

// dialer opens the connections of one Transport.
//
// net/http pools connections, so a connection outlives the request that
// had it dialed and carries others. Each one therefore gets its trace scope
// when it is dialed: a scope of the Trace of the request that caused the
// dial (which net/http keeps in the dial's context), into which the
// Dialer writes its notes. The connection carries the scope (scopedConn),
// and every request it carries traces its lines there (see reqTrace).
type dialer struct {
	d      schemes.Dialer
	scheme string
}

// dial connects to addr, the origin server or the forwarding proxy, in a
// new trace scope. It returns the connection and the context carrying
// that scope, for a TLS handshake to note in it too.
func (dl *dialer) dial(ctx context.Context, addr string) (net.Conn, context.Context, error) {
	root := rootTrace(ctx)
	tr := schemes.NewScope(root)
	ctx = schemes.WithTrace(ctx, tr)
	var c net.Conn
	var err error
	fw, isFw := dl.d.(schemes.Forwarder)
	if p := forwardingProxy(ctx); isFw && p != nil && addr == p.Host {
		c, err = fw.DialProxy(ctx, dl.scheme, p)
	} else {
		host, port, serr := splitAddr(addr)
		if serr != nil {
			return nil, nil, serr
		}
		c, err = dl.d.Dial(ctx, dl.scheme, host, port)
	}
	if err != nil {
		return nil, nil, err
	}
	return &scopedConn{Conn: c, tr: tr, root: root}, ctx, nil
}

// dialTLS connects to addr and performs the TLS handshake through the
// Dialer's StartTLS. net/http calls it for https only: a forwarding proxy
// is always plain http (schemes.Forwarder), so addr is the origin server.
func (dl *dialer) dialTLS(ctx context.Context, addr string) (net.Conn, error) {
	c, sctx, err := dl.dial(ctx, addr)
	if err != nil {
		return nil, err
	}
	host, _, _ := splitAddr(addr) // dial parsed it already
	// Offer only HTTP/1.1 by ALPN: offering "h2" too would let the server
	// pick a protocol this Transport does not speak.
	tc, err := dl.d.StartTLS(sctx, c, dl.scheme, host, schemes.TLSProtocols("http/1.1"))
	if err != nil {
		c.Close()
		return nil, err
	}
	return &tlsConn{Conn: tc}, nil
}

// tlsConn is a TLS connection as net/http reads it: the decrypted
// bytes, which its headRecorder keeps for a HEAD request (the scopedConn
// under it sees only records). net/http then has no *tls.Conn to take the
// connection state from (Response.TLS stays nil), which nothing here reads.
type tlsConn struct {
	net.Conn
	head headRecorder
}

func (c *tlsConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.head.record(p[:n])
	return n, err
}

// NetConn returns the TLS connection, so that scopeOf and
// transport.ConnOf still find the layers under it.
func (c *tlsConn) NetConn() net.Conn { return c.Conn }

// headOf is the recorder of a connection this package dialed, nil for
// another.
func headOf(c net.Conn) *headRecorder {
	switch c := c.(type) {
	case *scopedConn:
		return &c.head
	case *tlsConn:
		return &c.head
	}
	return nil
}

// splitAddr splits net/http's "host:port".
func splitAddr(addr string) (string, int, error) {
	host, p, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, err
	}
	port, err := strconv.Atoi(p)
	if err != nil {
		return "", 0, err
	}
	return host, port, nil
}

// scopedConn is a pooled connection with the trace scope it was dialed in
// and the Trace that scope belongs to.
type scopedConn struct {
	net.Conn
	tr   schemes.Trace
	root schemes.Trace
	end  atomic.Bool // a Read failed: see ended
	head headRecorder
}

// Read reads from the connection, noting a failure (its end, a reset),
// and keeping what it read while a HEAD request waits for its answer.
func (c *scopedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if err != nil {
		c.end.Store(true)
	}
	c.head.record(p[:n])
	return n, err
}

// headRecorder keeps the bytes a connection reads between arm and take:
// the head of the answer, as the server wrote it (Response.Head), which
// net/http parses into a map that keeps neither the order nor the
// spelling of the fields. Each request arms it before it is written, and
// takes the head as soon as net/http has parsed it, before the caller
// reads the body: what it keeps of a body is what came in the reads that
// brought the head (net/http's buffer, 4 KiB), which take drops.
type headRecorder struct {
	mu  sync.Mutex
	on  bool
	buf []byte
}

// maxHead bounds what a recorder keeps: net/http's own limit on a
// response head (MaxResponseHeaderBytes).
const maxHead = 1 << 20

func (r *headRecorder) arm() {
	r.mu.Lock()
	r.on, r.buf = true, nil
	r.mu.Unlock()
}

func (r *headRecorder) record(p []byte) {
	r.mu.Lock()
	if r.on && len(p) > 0 {
		if len(r.buf)+len(p) > maxHead {
			r.on, r.buf = false, nil
		} else {
			r.buf = append(r.buf, p...)
		}
	}
	r.mu.Unlock()
}

// take stops recording and returns the final head among what was read
// (after any 1xx interim answers), "" when there is none whole.
func (r *headRecorder) take() string {
	r.mu.Lock()
	b := r.buf
	r.on, r.buf = false, nil
	r.mu.Unlock()
	for len(b) > 0 {
		end := headEnd(b)
		if end < 0 {
			return ""
		}
		head := b[:end]
		if !bytes.HasPrefix(head, []byte("HTTP/1.1 1")) && !bytes.HasPrefix(head, []byte("HTTP/1.0 1")) {
			return string(head)
		}
		b = b[end:]
	}
	return ""
}

// headEnd is the length of the head at the start of b, through the empty
// line that ends it (CRLF CRLF, or a bare LF LF, which net/http accepts
// too), or -1.
func headEnd(b []byte) int {
	for i := 0; i < len(b); i++ {
		if b[i] != '\n' {
			continue
		}
		switch {
		case i+1 < len(b) && b[i+1] == '\n':
			return i + 2
		case i+2 < len(b) && b[i+1] == '\r' && b[i+2] == '\n':
			return i + 3
		}
	}
	return -1
}

// ended reports whether a Read on c failed (the peer closed or reset it).
// net/http reads a response head line by line and asks for more bytes
// only to complete a line, so a head it could not parse on a connection
// that ended was cut inside its last line (see requestError).
func (c *scopedConn) ended() bool { return c.end.Load() }

// connEnded is ended for the connection under c (a *tls.Conn over one, say),
// false for one this package did not dial or for nil.
func connEnded(c net.Conn) bool {
	if c == nil {
		return false
	}
	sc, ok := scopeOf(c)
	return ok && sc.ended()
}

// NetConn returns the connection underneath, as tls.Conn's does, so that
// transport.ConnOf still finds the Dialer's connection.
func (c *scopedConn) NetConn() net.Conn { return c.Conn }

// scopeOf finds the scope c was dialed in, looking under TLS; ok is false
// for a connection this package did not dial.
func scopeOf(c net.Conn) (sc *scopedConn, ok bool) { return transport.Under[*scopedConn](c) }

// rootTraceKey is the context key under which a request carries its
// Trace to the dial it may cause.
type rootTraceKey struct{}

// withRootTrace returns ctx carrying the request's Trace, of which a
// connection dialed for the request gets a scope.
func withRootTrace(ctx context.Context, tr schemes.Trace) context.Context {
	return context.WithValue(ctx, rootTraceKey{}, tr)
}

// rootTrace returns the Trace ctx carries, or nil.
func rootTrace(ctx context.Context) schemes.Trace {
	tr, _ := ctx.Value(rootTraceKey{}).(schemes.Trace)
	return tr
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
// connection or a tunnel the Dialer makes. Only a plain http request can
// be forwarded: an https one is tunnelled, so that the proxy never sees
// it in the clear.
func forwardProxy(d schemes.Dialer, loc *URL) (*url.URL, error) {
	fw, ok := d.(schemes.Forwarder)
	if !ok || loc.TLS() {
		return nil, nil
	}
	return fw.ForwardProxy(loc.g.Scheme, loc.g.Host, loc.g.EffectivePort())
}
