package nntp

import (
	"context"
	"errors"
	"io"
	"net"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// Fetch retrieves req.URL: an article streams from the server as
// Response.Body; a group overview or the group list comes back as a
// Listing that streams its entries as the server's lines arrive. See
// Handler for what each URL means.
func (h *Handler) Fetch(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	p, err := h.start(req)
	if err != nil {
		return nil, err
	}
	return h.run(ctx, req, p)
}

// List returns the Listing of a group (its overview) or, for news:*, of
// all groups. An article URL is a usage error.
func (h *Handler) List(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	p, err := h.start(req)
	if err != nil {
		return nil, err
	}
	if p.op == opArticle {
		return nil, &schemes.Error{Scheme: p.scheme, Phase: "request", Kind: schemes.KindUsage,
			Part: "article", Msg: "an article is not a group: nothing to list"}
	}
	return h.run(ctx, req, p)
}

// start resolves the plan and checks the request can go ahead.
func (h *Handler) start(req *schemes.Request) (*plan, error) {
	p, err := h.resolve(req)
	if err != nil {
		return nil, err
	}
	if !p.haveCred && req.Credentials != nil {
		// netrc or --user: sent only if the server asks (480).
		if u, pw, ok := req.Credentials(p.scheme, p.host, p.port); ok && (u != "" || pw != "") {
			p.user, p.pass, p.haveCred = u, pw, true
		}
	}
	// AUTHINFO USER/PASS carry them on a command line: no line breaks.
	for _, c := range []struct{ part, v string }{{"user", p.user}, {"password", p.pass}} {
		if err := transport.CheckLine(p.scheme, c.part, c.v); err != nil {
			return nil, err
		}
	}
	if req.Dialer == nil {
		return nil, &schemes.Error{Scheme: p.scheme, Phase: "request", Kind: schemes.KindOther,
			Msg: "no Dialer in the request"}
	}
	return p, nil
}

// run carries out p on a session: one parked with p's command already
// sent, else one from req.Conns (schemes.UseSession), else a new one. A
// reused session that turns out to be dead (the server closed it while
// idle) is replaced once by a new one: by the pool for a pooled session,
// here for a parked one.
func (h *Handler) run(ctx context.Context, req *schemes.Request, p *plan) (*schemes.Response, error) {
	tr := req.Trace
	if tr == nil {
		tr = schemes.NopTrace{}
	}
	tr.Secret(p.pass)
	if err := ctx.Err(); err != nil {
		return nil, schemes.IOError(p.scheme, "request", err)
	}
	// news: and nntp: URLs of one server are one protocol: their sessions
	// are interchangeable (the port policy, which depends on the scheme,
	// applied when each was dialed).
	key, _ := schemes.NewConnKey(req, "nntp", p.host, p.port, p.tls || p.starttls, p.user, p.pass)
	h.ahead(ctx, req, p, key)
	dial := func(ctx context.Context) (schemes.Session, error) {
		c, err := h.dial(ctx, req, p, key, tr)
		if err != nil {
			return nil, err
		}
		return c.s, nil
	}
	var resp *schemes.Response
	use := func(v schemes.Session, leased bool) (stale bool, err error) {
		c := &conn{s: v.(*session), key: key, conns: req.Conns, h: h}
		if leased {
			c.s.resume(req, tr, "reusing connection to "+net.JoinHostPort(p.host, strconv.Itoa(p.port)))
		}
		resp, stale, err = h.attempt(ctx, c, p, leased, tr)
		return stale, err
	}
	if p.op == opArticle && req.Conns != nil {
		if s := h.claim(ctx, req, p, key, h.pipedCmd(p), tr); s != nil {
			r, stale, err := h.attempt(ctx, &conn{s: s, key: key, conns: req.Conns, h: h}, p, true, tr)
			if !stale {
				return r, err
			}
			err = schemes.UseSession(ctx, nil, key, nil, dial, use) // a new session, once
			return resp, err
		}
	}
	err := schemes.UseSession(ctx, req.Conns, key, nil, dial, use)
	return resp, err
}

// attempt does p on c, and reports a failure stale when c was reused
// (leased) and no reply came before its connection failed: the server
// closed it while it was idle, and nothing of the request happened.
func (h *Handler) attempt(ctx context.Context, c *conn, p *plan, leased bool, tr schemes.Trace) (*schemes.Response, bool, error) {
	c.s.heard = false
	resp, err := h.do(ctx, c, p)
	if err == nil {
		return resp, false, nil
	}
	stale := leased && !c.s.heard && ctx.Err() == nil && !isReplyError(err)
	c.finish(isReplyError(err)) // after a 4xx reply the session is in a known state
	if stale {
		tr.Info("idle connection was closed by the server; connecting again")
	}
	return nil, stale, err
}

// isReplyError says err came from a server reply (the connection works).
func isReplyError(err error) bool {
	var se *schemes.Error
	return errors.As(err, &se) && se.Code != 0
}

// conn is a session lent to one request, with where it goes back.
type conn struct {
	s     *session
	key   schemes.ConnKey
	conns schemes.Conns // nil: the session is closed after the request
	h     *Handler      // parks the session while pipelined replies wait
	once  sync.Once
}

// finish ends the request's use of the session: kept in the request's
// Conns when ok and the protocol state is known, or parked in the Handler
// when replies to commands sent ahead wait on it; closed otherwise.
func (c *conn) finish(ok bool) {
	c.once.Do(func() {
		if !ok {
			c.s.broken = true
		}
		if c.s.broken || c.conns == nil || !c.key.Pooled() {
			c.s.close()
			return
		}
		if len(c.s.pending) > 0 {
			c.h.park(c.key, c.s)
			return
		}
		c.conns.Keep(c.key, c.s)
	})
}

// dial returns a new session, dialed, greeted, told CAPABILITIES and
// MODE READER, and authenticated when the URL carries credentials. It
// traces into a scope of tr of its own (the Dialer's notes included); a
// pooled session keeps its scope while the request traces to the same tr.
func (h *Handler) dial(ctx context.Context, req *schemes.Request, p *plan, key schemes.ConnKey, tr schemes.Trace) (*conn, error) {
	scope := schemes.NewScope(tr)
	tctx := schemes.WithTrace(ctx, scope)
	nc, err := req.Dialer.Dial(tctx, p.scheme, p.host, p.port)
	if err != nil {
		return nil, err
	}
	nc, _ = transport.Bound(ctx, nc)
	if req.Timeout > 0 {
		nc.SetDeadline(time.Now().Add(req.Timeout))
	}
	if p.tls {
		tc, err := req.Dialer.StartTLS(tctx, nc, p.scheme, p.host)
		if err != nil {
			nc.Close()
			return nil, err
		}
		nc = tc
	}
	s := newSession(nc, p.scheme, scope, tr)
	c := &conn{s: s, key: key, conns: req.Conns, h: h}
	if err := h.setup(ctx, req, c, p); err != nil {
		c.finish(false)
		return nil, err
	}
	return c, nil
}

// resume readies a session taken back for req (from the pool, or parked):
// it traces into a scope of tr of its own unless tr is the Trace it
// traced to, says note there, and gets req.Timeout for its first reply.
func (s *session) resume(req *schemes.Request, tr schemes.Trace, note string) {
	if !same(s.root, tr) {
		s.tr, s.root = schemes.NewScope(tr), tr
	}
	s.tr.Info(note)
	if req.Timeout > 0 {
		s.conn.SetDeadline(time.Now().Add(req.Timeout))
	}
}

// same reports whether a and b are the same value: a Trace, a Locator
// (false for one of a type that cannot be compared).
func same(a, b any) bool {
	t := reflect.TypeOf(a)
	return t != nil && t == reflect.TypeOf(b) && t.Comparable() && a == b
}

// startTLS upgrades the session with STARTTLS (RFC 4642) and asks
// CAPABILITIES again, as the server's may change. A server that does not
// announce STARTTLS, or refuses it, fails with KindSafety: --ssl-reqd
// promised the user no clear-text exchange.
func (h *Handler) startTLS(ctx context.Context, req *schemes.Request, c *conn, p *plan) error {
	s := c.s
	refused := func(why string) *schemes.Error {
		return &schemes.Error{Scheme: p.scheme, Phase: "starttls", Kind: schemes.KindSafety, Part: "host",
			Msg: p.host + " " + why + " and " + p.words.Setting(schemes.SettingRequireTLS) + " requires TLS"}
	}
	if has, known := s.has("STARTTLS"); known && !has {
		return refused("does not offer STARTTLS")
	}
	r, err := s.cmd("STARTTLS")
	if err != nil {
		return h.connError(ctx, p, "starttls", err)
	}
	if r.Code != 382 {
		e := refused("refused STARTTLS (" + clip(r.String()) + ")")
		e.Code = r.Code
		return e
	}
	if s.r.Buffered() > 0 {
		// Bytes after 382 would be read as if they came over TLS.
		s.broken = true
		return &schemes.Error{Scheme: p.scheme, Phase: "starttls", Kind: schemes.KindProtocol,
			Msg: "server sent data after 382 before the TLS handshake"}
	}
	tc, err := req.Dialer.StartTLS(schemes.WithTrace(ctx, s.tr), s.conn, p.scheme, p.host)
	if err != nil {
		s.broken = true
		return err
	}
	s.upgrade(tc)
	s.tr.Info("STARTTLS: connection encrypted")
	if err := s.capabilities(); err != nil {
		return h.connError(ctx, p, "starttls", err)
	}
	return nil
}

// setup reads the greeting and prepares the session.
func (h *Handler) setup(ctx context.Context, req *schemes.Request, c *conn, p *plan) error {
	s := c.s
	r, err := s.greet()
	if err == errUnexpected {
		return p.replyError("greeting", r)
	}
	if err == nil {
		err = s.capabilities()
	}
	if err == nil && p.starttls {
		if err = h.startTLS(ctx, req, c, p); err != nil {
			return err
		}
	}
	if err == nil {
		err = s.modeReader()
	}
	if err == nil && p.eager {
		if r, err = s.authinfo(p.user, p.pass); err == errUnexpected {
			return p.replyError("authinfo", r)
		}
	}
	if err != nil {
		return h.connError(ctx, p, "greeting", err)
	}
	return nil
}

// connError classifies an I/O error, preferring the context's reason.
func (h *Handler) connError(ctx context.Context, p *plan, phase string, err error) error {
	if ctx.Err() != nil {
		return schemes.IOError(p.scheme, phase, ctx.Err())
	}
	return ioError(p.scheme, phase, err)
}

// command sends line and returns the reply; on 480 (authentication
// required, RFC 4643 §2.1) it authenticates with the known credentials and
// sends line again. Without credentials the 480 is returned as it is.
func (h *Handler) command(ctx context.Context, c *conn, p *plan, phase, line string) (reply, error) {
	s := c.s
	r, err := s.cmd(line)
	if err != nil {
		return r, h.connError(ctx, p, phase, err)
	}
	if r.Code != 480 || s.authed || !p.haveCred {
		return r, nil
	}
	ar, err := s.authinfo(p.user, p.pass)
	if err == errUnexpected {
		return ar, p.replyError("authinfo", ar)
	}
	if err != nil {
		return ar, h.connError(ctx, p, "authinfo", err)
	}
	r, err = s.cmd(line)
	if err != nil {
		return r, h.connError(ctx, p, phase, err)
	}
	return r, nil
}

// do carries out the plan's operation on a ready session.
func (h *Handler) do(ctx context.Context, c *conn, p *plan) (*schemes.Response, error) {
	switch p.op {
	case opArticle:
		return h.article(ctx, c, p)
	case opOverview:
		return h.groupOverview(ctx, c, p)
	}
	return h.listGroups(ctx, c, p)
}

// article sends GROUP (for a number) and ARTICLE/HEAD/BODY, and returns
// the article streaming; on a session whose next reply is the article's
// (its command was sent ahead) it only reads that reply. A reply about
// another article closes the session (match.go). Once the status line is
// read, the commands of the articles asked for next go out (sendAhead).
func (h *Handler) article(ctx context.Context, c *conn, p *plan) (*schemes.Response, error) {
	word, want := h.partCommand()
	phase := strings.ToLower(word)
	var r reply
	var err error
	if cmd := h.pipedCmd(p); len(c.s.pending) > 0 && c.s.pending[0] == cmd {
		r, err = h.piped(ctx, c, p, phase)
	} else {
		if p.article != nil {
			if r, err = h.command(ctx, c, p, "group", "GROUP "+p.group); err != nil {
				return nil, err
			}
			if r.Code != 211 {
				return nil, p.replyError("group", r)
			}
			c.s.group = p.group
		}
		r, err = h.command(ctx, c, p, phase, cmd.line)
	}
	if err != nil {
		return nil, err
	}
	if r.Code == want && !p.ref().matches(r) {
		return nil, c.s.mismatch(p.scheme, phase, p.ref(), r)
	}
	if r.Code == want || (r.Code/100 == 4 && r.Code != 480) {
		h.sendAhead(c, p)
	}
	if r.Code != want {
		if r.Code/100 != 4 {
			c.s.broken = true // a 2xx of another kind may be followed by data
		}
		return nil, p.replyError(phase, r)
	}
	c.s.conn.SetDeadline(time.Time{}) // req.Timeout covers the wait for the reply only
	typ := "message/rfc822"
	if h.Part != PartArticle {
		typ = "text/plain"
	}
	name := p.messageID
	if p.article != nil {
		name = strconv.FormatInt(*p.article, 10)
	}
	return &schemes.Response{
		Body: &articleBody{c: c, ctx: ctx, p: p, h: h, d: newDotReader(c.s.r, h.maxBytes())},
		Kind: schemes.EntryFile, Size: -1, Type: typ, Name: strings.NewReplacer("/", "_", "\\", "_").Replace(name), Status: r.Code,
	}, nil
}

// articleBody streams an article; at its end the session goes back to the
// pool.
type articleBody struct {
	c   *conn
	ctx context.Context
	p   *plan
	h   *Handler
	d   *dotReader
}

// Read returns the article's bytes; errors are *schemes.Error.
// Once the request's context is done it fails even while buffered data
// remains, so a canceled transfer never looks complete.
func (b *articleBody) Read(buf []byte) (int, error) {
	if err := b.ctx.Err(); err != nil && !b.d.done() {
		b.c.finish(false)
		return 0, schemes.IOError(b.p.scheme, "article", err)
	}
	n, err := b.d.Read(buf)
	switch {
	case err == nil:
		return n, nil
	case err == io.EOF:
		b.c.finish(true)
		return n, io.EOF
	case errors.Is(err, errTooBig):
		b.c.finish(false)
		return n, &schemes.Error{Scheme: b.p.scheme, Phase: "article", Kind: schemes.KindProtocol,
			Msg: err.Error()}
	}
	b.c.finish(false)
	return n, b.h.connError(b.ctx, b.p, "article", err)
}

// Close ends the transfer; before the end of the article the connection
// cannot be reused and is closed.
func (b *articleBody) Close() error {
	b.c.finish(b.d.done())
	return nil
}
