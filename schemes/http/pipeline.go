package http

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// Pipelining (RFC 9112 §9.3.2): a client may send requests with safe
// methods on a persistent connection before the responses to the ones
// before have come, and the server answers them in order. When a plain
// GET (no range, no condition, no proxy, no redirect behind it) comes
// with the URLs the caller will ask for next (schemes.NextOf), the
// Handler sends it on a connection of its own, and once the response's
// head says it succeeded (2xx) and the connection persists (HTTP/1.1, no
// "Connection: close", a framed body), writes the GETs of the next URLs
// of the same origin, up to Window requests outstanding. The connection then holds responses
// nobody has read: it cannot go back to net/http's pool. It is parked in
// the Handler under the URL whose response comes next, and the Fetch of
// that URL takes it and, when it builds the same request byte for byte,
// reads that response without sending anything. A Fetch whose request
// differs (a resume, a condition) closes it and goes its own way; one
// parked for a URL the caller skips is closed after parkTimeout.
//
// Servers that do not pipeline are met three ways: nothing goes ahead
// before a response on the connection says it persists; a response sent
// ahead that does not start within aheadStall, or a connection that ends
// before it, sends that request again through net/http (a GET may be
// sent twice) and no pipeline to that origin starts again; and what goes
// ahead is bounded in bytes (maxAhead), so that writing it never waits
// on a server that is busy sending.

// DefaultWindow is how many requests the Handler keeps outstanding on a
// pipelined connection when Handler.Window is 0.
const DefaultWindow = 32

// maxAhead bounds the bytes of the requests outstanding on a connection:
// below the smallest send buffer a socket starts with (16 KiB on Linux),
// so that writing them never blocks while the server, itself blocked on
// a full receive buffer of responses nobody reads yet, reads nothing.
const maxAhead = 12 << 10

// pipeBuffer is the read buffer of a pipelined connection: a response
// head must fit in it whole (else the request goes through net/http,
// which allows 1 MiB), and small responses sent ahead are read many at a
// time.
const pipeBuffer = 64 << 10

// maxDrain is the most of an unread body Close reads to keep the
// responses after it: a larger rest closes the connection instead.
const maxDrain = 64 << 10

// aheadStall is how long the response to a request sent ahead may take
// to start before the server is taken for one that dropped it.
var aheadStall = 10 * time.Second

// parkTimeout is how long a connection with responses waiting stays
// parked for the request of the next one.
var parkTimeout = 5 * time.Second

// window is Handler.Window with its default; 1 or less is no pipelining.
func (h *Handler) window() int {
	if h.Window == 0 {
		return DefaultWindow
	}
	return h.Window
}

// origin is what a pipelined connection serves: the pool key of the
// Dialer and scheme (schemes.ConnKey, which holds host and port).
type origin = schemes.ConnKey

// pipeKey is where a connection with responses waiting is parked: its
// origin and the URL of the next response (its request as written is
// pipedReq.wire).
type pipeKey struct {
	origin origin
	next   string
}

// pipedReq is a request written on a pipelined connection whose response
// is not read yet.
type pipedReq struct {
	wire string          // the request as written
	loc  schemes.Locator // the URL it asks for
}

// pipeConn is a connection that carries pipelined requests.
type pipeConn struct {
	conn    net.Conn // a *scopedConn, or a *tlsConn over one
	br      *bufio.Reader
	bw      *bufio.Writer
	origin  origin
	pending []pipedReq // written, unanswered, in order: [0] is being read
	ahead   int        // bytes of pending's requests
	// last says no response comes after the current one (its head said
	// the connection ends, or its body runs to the close).
	last bool
}

// Close closes the connection, responses waiting or not.
func (p *pipeConn) Close() error { return p.conn.Close() }

// pipes holds the Handler's parked connections (each under the URL of
// the next response it carries) and the origins that proved not to
// pipeline.
type pipes struct {
	parked transport.Parking[pipeKey, *pipeConn]

	mu  sync.Mutex
	off map[origin]bool
}

// pipelinable says c's request may be pipelined: a plain GET with no
// extra field (no range, no condition), to the URL the caller named (no
// redirect behind it), over a direct or tunnelled connection (a
// forwarding proxy may not pipeline).
func pipelinable(c *call, s sending, hdr http.Header) bool {
	return s.plain() && len(hdr) == 0 && c.proxy == nil && !c.req.OtherOrigin && len(c.req.Redirects) == 0
}

// originOf is the origin of c's URL, when the Handler pipelines and its
// Dialer can key connections.
func (h *Handler) originOf(c *call) (origin, bool) {
	if h.window() <= 1 {
		return origin{}, false
	}
	k, ok := schemes.NewConnKey(c.req, c.loc.g.Scheme, c.loc.g.Host, c.loc.g.EffectivePort(), c.loc.TLS(), "", "")
	return k, ok && k.Pooled()
}

// pipelined sends c's request on a pipelined connection, or reads its
// response there when the request went ahead; ok is false when it did
// neither, and the request goes through net/http. A request sent ahead
// whose response does not come (aheadStall, the connection's end) is
// left to net/http too, and the origin pipelines no more. A connection
// parked for c's URL whose request differs from c's (the caller resumes
// or sets a condition after all) is closed: neither that response nor
// those after it will be read.
func (h *Handler) pipelined(ctx context.Context, c *call, s sending, hdr http.Header) (x *exchange, err error, ok bool) {
	o, ok := h.originOf(c)
	if !ok {
		return nil, nil, false
	}
	p := h.pipes.claim(o, c.loc.String())
	if !pipelinable(c, s, hdr) {
		if p != nil {
			p.Close()
		}
		return nil, nil, false
	}
	hreq := h.newRequest(c, s, hdr)
	wire, ok := wireOf(hreq)
	if p != nil && (!ok || p.pending[0].wire != wire) {
		p.Close()
		p = nil
	}
	if !ok {
		return nil, nil, false
	}
	next := schemes.NextOf(ctx)
	claimed := p != nil
	_, quiet := c.tr.(schemes.NopTrace)
	rt := &reqTrace{root: c.tr}
	rctx := withRootTrace(ctx, c.tr)
	if claimed {
		bindConn(ctx, p.conn)
		rt.carriedBy(p.conn)
		if !quiet {
			rt.Info("reading the pipelined response on the connection to " + p.conn.RemoteAddr().String())
		}
	} else {
		if len(next) == 0 || schemes.NextShared(ctx) || h.pipes.isOff(o) {
			return nil, nil, false
		}
		if _, ok := h.aheadCall(c, next[0]); !ok {
			return nil, nil, false
		}
		if p, err = h.dialPipe(rctx, c, o); err != nil {
			return nil, requestError(ctx, false, 0, c.loc, err, false), true
		}
		bindConn(ctx, p.conn)
		if err = p.send(hreq, wire, rt, quiet, false, c.loc); err != nil {
			p.conn.Close()
			return nil, requestError(ctx, false, 0, c.loc, err, connEnded(p.conn)), true
		}
	}
	resp, head, err := p.read(ctx, c, hreq, claimed)
	if err != nil {
		p.conn.Close()
		var stalled stallError
		var se *schemes.Error
		switch {
		case ctx.Err() != nil || errors.As(err, &se):
			// canceled, or the header timeout: read said which
		case errors.As(err, &stalled) || claimed && p.br.Buffered() == 0:
			// The request went ahead and nothing of its answer came:
			// the server dropped it, or ended the connection before.
			h.pipes.turnOff(o)
			if !quiet {
				rt.Info("no response to the request sent ahead; sending it again on its own")
			}
			return nil, nil, false
		case err == errHeadTooLong:
			return nil, nil, false // net/http reads heads up to 1 MiB
		}
		return nil, requestError(ctx, false, c.req.Timeout, c.loc, err, connEnded(p.conn)), true
	}
	if !quiet {
		traceResponse(rt, resp)
	}
	switch {
	case !persists(resp):
		p.last = true
	case resp.StatusCode/100 == 2:
		// Only after a success: the caller may stop at a failure
		// (--fail-early) or follow a redirect, and a request sent after
		// either would be one it never made.
		h.sendAhead(p, c, next, quiet)
	}
	resp.Body = &pipeBody{rc: resp.Body, release: func(whole bool) { h.release(p, whole) }}
	return &exchange{resp: resp, tr: rt, cancel: func(error) {}, done: func() {}, head: head, sent: s, piped: true}, nil, true
}

// persists reports whether resp leaves its connection open for the next
// response: HTTP/1.1, no "Connection: close", and a body whose end is
// known before the connection's (a length, or chunks).
func persists(resp *http.Response) bool {
	framed := resp.ContentLength >= 0 || len(resp.TransferEncoding) > 0
	return resp.ProtoAtLeast(1, 1) && !resp.Close && framed
}

// wireOf is r as it goes on the wire (net/http's Transport writes the
// same bytes for it: no compression is asked for, and no field added).
func wireOf(r *http.Request) (string, bool) {
	var b strings.Builder
	if err := r.Write(&b); err != nil {
		return "", false
	}
	return b.String(), true
}

// bindConn binds the connection under c, a transport.Conn, to ctx:
// canceling ctx fails its reads.
func bindConn(ctx context.Context, c net.Conn) {
	if tc, ok := transport.ConnOf(c); ok {
		tc.Bind(ctx)
	}
}

// dialPipe opens a connection for a pipeline to o, through the Dialer as
// net/http's are (dialer), in a trace scope of its own.
func (h *Handler) dialPipe(ctx context.Context, c *call, o origin) (*pipeConn, error) {
	dl := &dialer{d: c.req.Dialer, scheme: c.loc.g.Scheme}
	addr := net.JoinHostPort(c.loc.g.Host, strconv.Itoa(c.loc.g.EffectivePort()))
	var conn net.Conn
	var err error
	if c.loc.TLS() {
		conn, err = dl.dialTLS(ctx, addr)
	} else {
		conn, _, err = dl.dial(ctx, addr)
	}
	if err != nil {
		return nil, err
	}
	return &pipeConn{conn: conn, br: bufio.NewReaderSize(conn, pipeBuffer), bw: bufio.NewWriterSize(conn, 4<<10), origin: o}, nil
}

// send writes r, whose bytes are wire, on p and notes it pending for
// loc, tracing its lines in the connection's scope as net/http's writing
// does (rt); ahead says r goes before the responses to those already
// pending on p have been read. The connection's head recorder stays
// off: the head is read from the buffer (peekHead).
func (p *pipeConn) send(r *http.Request, wire string, rt *reqTrace, quiet, ahead bool, loc schemes.Locator) error {
	rt.carriedBy(p.conn)
	if !quiet {
		if ahead {
			rt.Info("sending ahead (pipelined) on the connection to " + p.conn.RemoteAddr().String())
		}
		rt.Sent(r.Method + " " + r.URL.RequestURI() + " " + r.Proto)
	}
	if quiet {
		// The bytes are known: no need to have net/http write them
		// again for its trace hooks.
		if _, err := p.bw.WriteString(wire); err != nil {
			return err
		}
		rt.mu.Lock()
		rt.wrote = true
		rt.mu.Unlock()
	} else {
		ct := clientTrace(rt, r, quiet)
		ct.GotConn = nil
		r = r.WithContext(httptrace.WithClientTrace(context.Background(), ct))
		if err := r.Write(p.bw); err != nil {
			return err
		}
	}
	p.pending = append(p.pending, pipedReq{wire: wire, loc: loc})
	p.ahead += len(wire)
	return nil
}

// stallError is a response sent ahead that did not start in time.
type stallError struct{ after time.Duration }

func (e stallError) Error() string {
	return "no response to a pipelined request within " + e.after.String()
}

// read reads the response to hreq, the first pending request on p,
// skipping interim (1xx) ones, and the head as the server wrote it.
// c.req.Timeout bounds the wait for the head; for a request that went
// ahead (ahead) aheadStall bounds the wait for its first byte.
func (p *pipeConn) read(ctx context.Context, c *call, hreq *http.Request, ahead bool) (*http.Response, string, error) {
	if err := p.bw.Flush(); err != nil {
		return nil, "", err
	}
	var timedOut, stalled bool
	var mu sync.Mutex
	if ahead {
		t := time.AfterFunc(aheadStall, func() { mu.Lock(); stalled = true; mu.Unlock(); p.conn.Close() })
		_, err := p.br.Peek(1)
		t.Stop()
		mu.Lock()
		s := stalled
		mu.Unlock()
		if s {
			return nil, "", stallError{after: aheadStall}
		}
		if err != nil {
			return nil, "", err
		}
	}
	if c.req.Timeout > 0 {
		t := time.AfterFunc(c.req.Timeout, func() { mu.Lock(); timedOut = true; mu.Unlock(); p.conn.Close() })
		defer t.Stop()
	}
	for {
		head, err := peekHead(p.br)
		if err == nil {
			var resp *http.Response
			if resp, err = http.ReadResponse(p.br, hreq); err == nil {
				if resp.StatusCode >= 100 && resp.StatusCode < 200 && resp.StatusCode != http.StatusSwitchingProtocols {
					continue // an interim response: the final one follows
				}
				return resp, head, nil
			}
		}
		mu.Lock()
		t := timedOut
		mu.Unlock()
		if t {
			err = requestError(ctx, true, c.req.Timeout, c.loc, err, false)
		}
		return nil, "", err
	}
}

// errHeadTooLong is a response head that does not fit the read buffer.
var errHeadTooLong = errors.New("response head longer than the pipeline's buffer")

// peekHead waits until the head of the next response is in br whole, and
// returns it, without consuming it.
func peekHead(br *bufio.Reader) (string, error) {
	for {
		b, _ := br.Peek(br.Buffered())
		if end := headEnd(b); end >= 0 {
			return string(b[:end]), nil
		}
		if br.Buffered() == br.Size() {
			return "", errHeadTooLong
		}
		if _, err := br.Peek(br.Buffered() + 1); err != nil {
			return "", err
		}
	}
}

// aheadCall is the call of a GET for loc sent ahead of its turn with the
// settings of c: loc on c's origin (scheme, host and port), neither URL
// with credentials in it, so that the login c carries, if any, is the
// one the caller's (-u, netrc) gives every URL of the origin, and loc's
// request carries what it will carry in its turn.
func (h *Handler) aheadCall(c *call, loc schemes.Locator) (*call, bool) {
	u, ok := loc.(*URL)
	if !ok || u.g.User != nil || c.loc.g.User != nil || u.g.Scheme != c.loc.g.Scheme || u.g.Host != c.loc.g.Host ||
		u.g.EffectivePort() != c.loc.g.EffectivePort() {
		return nil, false
	}
	r := *c.req
	r.URL = loc
	return &call{loc: u, req: &r, tr: c.tr, user: c.user, pass: c.pass, auth: c.auth}, true
}

// sendAhead writes the GETs of the URLs of next not sent yet on p, after
// the one whose response was just read, keeping at most Window requests
// and maxAhead bytes outstanding; once the first are out, it waits until
// half the window was answered, so that one write carries many requests
// (and one wake of the server many answers). Those sent before must be
// the first of next: otherwise the caller's plan changed, and nothing
// more is sent. It stops at the first URL of another origin. A write
// that fails ends the pipeline after the current response.
func (h *Handler) sendAhead(p *pipeConn, c *call, next []schemes.Locator, quiet bool) {
	sent := p.pending[1:]
	if len(sent) > len(next) {
		return
	}
	for i, r := range sent {
		// The same Locator, as a caller passing its list again gives
		// it, else the same URL.
		if r.loc != next[i] && r.loc.String() != next[i].String() {
			return
		}
	}
	if len(sent) > h.window()/2 {
		return // more goes when half the window is read: one write for many
	}
	wrote := false
	for _, loc := range next[len(sent):] {
		if len(p.pending) >= h.window() || p.ahead >= maxAhead {
			break
		}
		ac, ok := h.aheadCall(c, loc)
		if !ok {
			break
		}
		r := h.newRequest(ac, sending{method: http.MethodGet}, nil)
		wire, ok := wireOf(r)
		if !ok {
			break
		}
		if err := p.send(r, wire, &reqTrace{root: c.tr}, quiet, true, loc); err != nil {
			p.last = true
			return
		}
		wrote = true
	}
	if wrote && p.bw.Flush() != nil {
		p.last = true
	}
}

// release takes the answered request off p once its body was closed:
// whole says the body was read to its end, and p may go on. p is parked
// for the next pending request's Fetch (closed if none comes within
// parkTimeout), or closed when none is pending or the connection cannot
// go on.
func (h *Handler) release(p *pipeConn, whole bool) {
	p.ahead -= len(p.pending[0].wire)
	p.pending = p.pending[1:]
	if !whole || p.last || len(p.pending) == 0 {
		p.conn.Close()
		return
	}
	if tc, ok := transport.ConnOf(p.conn); ok {
		tc.Stop()
	}
	h.pipes.parked.Park(pipeKey{origin: p.origin, next: p.pending[0].loc.String()}, p, parkTimeout)
}

// claim takes the connection parked for the URL loc of o, nil when there
// is none.
func (ps *pipes) claim(o origin, loc string) *pipeConn {
	p, _ := ps.parked.Claim(pipeKey{origin: o, next: loc})
	return p
}

// turnOff records that o does not pipeline: no pipeline to it starts
// again.
func (ps *pipes) turnOff(o origin) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if ps.off == nil {
		ps.off = map[origin]bool{}
	}
	ps.off[o] = true
}

func (ps *pipes) isOff(o origin) bool {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return ps.off[o]
}

// pipeBody is the body of a pipelined response. Close reads what is left
// of it, up to maxDrain, so that the responses after it can be read;
// a longer rest, or a failure, ends the connection instead.
type pipeBody struct {
	rc      io.ReadCloser
	eof     bool
	release func(whole bool)
	once    sync.Once
}

func (b *pipeBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if err == io.EOF {
		b.eof = true
	}
	return n, err
}

// Close releases the connection (see Handler.release). net/http's body
// would read the rest however long it is: it is closed only at its end.
func (b *pipeBody) Close() error {
	b.once.Do(func() {
		if !b.eof {
			n, err := io.CopyN(io.Discard, b.rc, maxDrain+1)
			b.eof = err == io.EOF && n <= maxDrain
		}
		if b.eof {
			b.rc.Close()
		}
		b.release(b.eof)
	})
	return nil
}
