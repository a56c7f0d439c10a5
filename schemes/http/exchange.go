package http

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"reflect"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/urlget/urlget/schemes"
)

// exchange is one request sent and the response headers received: what
// Fetch and Stat build their answers from.
type exchange struct {
	resp *http.Response
	// tr is where this exchange's lines go: the scope of the connection
	// that carried it.
	tr     *reqTrace
	cancel context.CancelCauseFunc
	done   func() // closes an uncached transport's connections
	head   string // the answer's head as sent (Response.Head)
	// sent is the request's method and body: a body that breaks off is
	// retried only where the request may be sent again (sentOnce).
	sent sending
	// piped says the response was read from a pipelined connection,
	// whose buffer may hold the responses after it: its body is never
	// spliced from the socket.
	piped bool
}

// close discards the response body and releases the request.
func (x *exchange) close() {
	discard(x.resp.Body)
	x.cancel(nil)
	x.done()
}

// body hands the response body to the caller, who releases the request
// by closing it.
func (x *exchange) body(ctx context.Context, loc *URL) io.ReadCloser {
	b := &body{rc: x.resp.Body, ctx: ctx, loc: loc, cancel: x.cancel, done: x.done, length: x.resp.ContentLength,
		framing: framingOf(x.resp), sent: x.sent}
	if x.piped {
		return b
	}
	if b.raw = spliceConn(x.resp, x.tr.connection()); b.raw != nil {
		b.size = x.resp.ContentLength
	}
	return b
}

// roundTrip sends the request s says (its method and body) for c.loc
// with the extra header fields hdr and returns the response headers.
// req.Timeout, when set, bounds the wait for them (connect and TLS
// included); ctx bounds everything, including reading the body later.
// A failure once a request that is not idempotent was written is not
// retryable (sentOnce).
func (h *Handler) roundTrip(ctx context.Context, c *call, s sending, hdr http.Header) (*exchange, error) {
	if x, err, ok := h.pipelined(ctx, c, s, hdr); ok {
		return x, err
	}
	hreq := h.newRequest(c, s, hdr)
	t, cached := h.cache.get(c.req, c.loc.g.Scheme)
	done := func() {}
	if !cached {
		done = t.CloseIdleConnections
	}
	rctx, cancel := context.WithCancelCause(ctx)
	stop := func() bool { return true }
	if c.req.Timeout > 0 {
		stop = time.AfterFunc(c.req.Timeout, func() { cancel(errHeaderTimeout) }).Stop
	}
	if c.proxy != nil {
		rctx = context.WithValue(rctx, forwardKey{}, c.proxy)
	}
	rt := &reqTrace{root: c.tr}
	rctx = withRootTrace(rctx, c.tr)
	// A request nobody traces (no -v) gets no lines built: the fields
	// formatted and sorted were a few percent of a small file's time
	// (issue 36).
	_, quiet := c.tr.(schemes.NopTrace)
	hreq = hreq.WithContext(httptrace.WithClientTrace(rctx, clientTrace(rt, hreq, quiet)))
	client := &http.Client{
		Transport:     t,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	resp, err := client.Do(hreq)
	stop() // the timeout covers the wait for headers only, not the body
	if err != nil {
		timedOut := context.Cause(rctx) == errHeaderTimeout
		cancel(nil)
		done()
		err = requestError(ctx, timedOut, c.req.Timeout, c.loc, err, connEnded(rt.connection()))
		if rt.wroteRequest() {
			err = sentOnce(err, s)
		}
		return nil, err
	}
	if !quiet {
		traceResponse(rt, resp)
	}
	// The head is taken before the caller reads a byte of the body, so
	// that the recorder stops with the head (and what of the body came
	// in the same read).
	x := &exchange{resp: resp, tr: rt, cancel: cancel, done: done, head: rawHead(rt.connection(), resp),
		sent: s}
	return x, nil
}

// rawHead is resp's head as the server sent it, which the connection
// recorded (see headRecorder), plain or TLS; where it could not (a
// connection this package did not dial, a head past maxHead), the head is
// written from resp: its status line, then the fields in net/http's
// spelling, sorted by name.
func rawHead(c net.Conn, resp *http.Response) string {
	if rec := headOf(c); rec != nil {
		if h := rec.take(); h != "" {
			return h
		}
	}
	var b strings.Builder
	b.WriteString(resp.Proto + " " + resp.Status + "\r\n")
	for _, f := range fieldLines(resp.Header) {
		b.WriteString(f + "\r\n")
	}
	b.WriteString("\r\n")
	return b.String()
}

// fieldLines are h's fields as "Name: value" lines, sorted by name.
func fieldLines(h http.Header) []string {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var lines []string
	for _, k := range keys {
		for _, v := range h[k] {
			lines = append(lines, k+": "+v)
		}
	}
	return lines
}

// reqTrace is the Trace of one request: it writes to the scope of the
// connection that carries the request once net/http has chosen one
// (GotConn), and to the request's own Trace before that. A connection
// dialed for a request with another Trace (two fetches with different
// Traces sharing a Handler and Dialer) is not that request's to write
// in, so its lines stay in the request's Trace. It also keeps that
// connection, from which the body may be spliced (spliceConn).
type reqTrace struct {
	root schemes.Trace

	mu    sync.Mutex
	scope schemes.Trace
	conn  net.Conn
	// wrote says the request was written whole on the connection that
	// carries it: a failure after that may follow a server's action.
	wrote bool
}

// wroteRequest reports whether the request was written whole.
func (t *reqTrace) wroteRequest() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.wrote
}

var _ schemes.Trace = (*reqTrace)(nil)

// carriedBy records that c carries the request, and makes c's scope the
// request's when c was dialed in a scope of its Trace.
func (t *reqTrace) carriedBy(c net.Conn) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.conn, t.wrote = c, false // net/http may send it again on another
	if sc, ok := scopeOf(c); ok && sameTrace(sc.root, t.root) {
		t.scope = sc.tr
	}
}

// connection is the connection that carries the request, nil before
// net/http chose one.
func (t *reqTrace) connection() net.Conn {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.conn
}

func (t *reqTrace) cur() schemes.Trace {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.scope != nil {
		return t.scope
	}
	return t.root
}

// Sent traces a line sent.
func (t *reqTrace) Sent(line string) { t.cur().Sent(line) }

// Received traces a line received.
func (t *reqTrace) Received(line string) { t.cur().Received(line) }

// Info traces a note.
func (t *reqTrace) Info(msg string) { t.cur().Info(msg) }

// Secret registers a secret (every scope shares them).
func (t *reqTrace) Secret(s string) { t.cur().Secret(s) }

// sameTrace reports whether a and b are the same Trace, without the panic
// == would cause on a Trace whose dynamic type is not comparable.
func sameTrace(a, b schemes.Trace) bool {
	return reflect.ValueOf(a).Comparable() && reflect.ValueOf(b).Comparable() && a == b
}

// clientTrace reports the exchange: the request line and each header as
// net/http writes it (Authorization and Proxy-Authorization redacted: their
// base64 would show the password; Cookie too: a cookie given with -H may be
// a session), in the scope of the connection that carries the request. New connections and their TLS handshakes are noted
// by the Dialer; only reuse is noted here. net/http may call these from
// its own goroutines; schemes.Trace implementations are safe for that.
// Quiet leaves out the request's lines, for a Trace that discards them
// (the connection and the request's writing are still noted).
func clientTrace(tr *reqTrace, r *http.Request, quiet bool) *httptrace.ClientTrace {
	line := ""
	if !quiet {
		line = r.Method + " " + r.URL.RequestURI() + " " + r.Proto
	}
	ct := &httptrace.ClientTrace{
		GotConn: func(ci httptrace.GotConnInfo) {
			tr.carriedBy(ci.Conn)
			if rec := headOf(ci.Conn); rec != nil {
				// Before the request is written, so before any byte of
				// its answer can be read.
				rec.arm()
			}
			if quiet {
				return
			}
			if ci.Reused {
				tr.Info("reusing connection to " + ci.Conn.RemoteAddr().String())
			}
			tr.Sent(line)
		},
		WroteRequest: func(info httptrace.WroteRequestInfo) {
			tr.mu.Lock()
			tr.wrote = info.Err == nil
			tr.mu.Unlock()
			if n := r.ContentLength; n > 0 && info.Err == nil && !quiet {
				tr.Info(fmt.Sprintf("request body sent: %d bytes", n))
			}
		},
		WroteHeaderField: func(key string, values []string) {
			for _, v := range values {
				if strings.EqualFold(key, "Authorization") || strings.EqualFold(key, "Proxy-Authorization") {
					scheme, _, _ := strings.Cut(v, " ")
					v = scheme + " " + schemes.Redacted
				}
				if strings.EqualFold(key, "Cookie") {
					v = schemes.Redacted // a session cookie is a login (-H "Cookie: ...")
				}
				tr.Sent(key + ": " + v)
			}
		},
	}
	if quiet {
		ct.WroteHeaderField = nil
	}
	return ct
}

// traceResponse reports the status line and the headers, sorted by name.
func traceResponse(tr schemes.Trace, resp *http.Response) {
	tr.Received(resp.Proto + " " + resp.Status)
	for _, f := range fieldLines(resp.Header) {
		tr.Received(f)
	}
}

// discard closes a body that is not returned, after reading a little of it
// so that the connection can be reused.
func discard(b io.ReadCloser) {
	io.CopyN(io.Discard, b, 64<<10)
	b.Close()
}
