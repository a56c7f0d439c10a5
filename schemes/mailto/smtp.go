package mailto

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// send submits msg through srv: on an idle session from req.Conns that
// served an earlier message to the same server, login and TLS settings
// (reset with RSET), else on a new one traced in a scope of its own of
// tr. After the message is accepted the session is reset and kept for
// the next. An idle session the server closed meanwhile (the first
// command, go-smtp's EHLO or MAIL FROM, meets the close before any reply:
// no message went) is replaced once, by the pool (schemes.Conns.Use).
func (h *Handler) send(ctx context.Context, req *schemes.Request, m *URL, srv server, msg *message, tr schemes.Trace) error {
	if req.Dialer == nil {
		return &schemes.Error{Scheme: "mailto", Phase: "dial", Kind: schemes.KindOther, Msg: "no Dialer in the request"}
	}
	var user, pass string
	auth := false
	if req.Credentials != nil {
		user, pass, auth = req.Credentials("mailto", srv.host, srv.port)
		if auth {
			tr.Secret(pass)
		}
	}
	key, _ := schemes.NewConnKey(req, "mailto", srv.host, srv.port, true, user, pass)
	dial := func(ctx context.Context) (schemes.Session, error) {
		s, err := h.openSMTP(ctx, req, m, srv, tr, user, pass, auth)
		if err != nil {
			return nil, err
		}
		return s, nil
	}
	return schemes.UseSession(ctx, req.Conns, key, nil, dial, func(v schemes.Session, leased bool) (bool, error) {
		s := v.(*smtpSession)
		if leased {
			if err := s.resume(req, tr); err != nil {
				s.Close()
				return true, err // unfit before anything was sent: as good as stale
			}
		}
		before := s.replies.total
		if err := s.deliver(m, msg); err != nil {
			// The first command met the close or a reset before any
			// reply: the server dropped the idle session, and no message
			// went.
			stale := leased && ctx.Err() == nil && s.replies.total == before && schemes.KindOf(err) == schemes.KindConnect
			if stale {
				tr.Info("the server closed the idle connection: connecting again")
			}
			s.Close()
			return stale, err
		}
		if req.Conns == nil || !key.Pooled() || s.c.Reset() != nil {
			s.Close()
			return false, nil // the message is accepted already
		}
		req.Conns.Keep(key, s)
		return false, nil
	})
}

// smtpSession is an SMTP connection past its greeting, EHLO, STARTTLS
// and AUTH: ready for MAIL FROM.
type smtpSession struct {
	c      *smtp.Client
	conn   net.Conn // the connection c speaks on: TLS over the dialed one after STARTTLS
	secure bool
	traced []*traceConn // the layers that report lines, retargeted when leased
	// replies is the layer under go-smtp's reader, which knows what came
	// after the last reply (Unread).
	replies *boundedReplies
}

var _ schemes.Session = (*smtpSession)(nil)

// Conn is the connection the session speaks on, for the pool.
func (s *smtpSession) Conn() net.Conn { return s.conn }

// Unread is what the server sent after the reply to the session's last
// command, waiting in go-smtp's reader, for the pool: a reply nobody
// asked for.
func (s *smtpSession) Unread() int { return s.replies.unread }

// Close sends QUIT (waiting a second at most for the reply) and closes
// the connection.
func (s *smtpSession) Close() error {
	s.conn.SetDeadline(time.Now().Add(time.Second))
	s.c.Quit()
	return s.c.Close()
}

// resume readies a session leased for req, its lines traced in a new
// scope of tr. A session that did not upgrade to TLS never serves a
// request that requires TLS: that fails, before anything is sent.
func (s *smtpSession) resume(req *schemes.Request, tr schemes.Trace) error {
	if req.RequireTLS && !s.secure {
		return &schemes.Error{Scheme: "mailto", Phase: "starttls", Kind: schemes.KindSafety,
			Msg: "the idle session is not protected by TLS, which the request requires"}
	}
	scope := schemes.NewScope(tr)
	for _, t := range s.traced {
		t.tr = scope
	}
	scope.Info("reusing the connection to " + s.conn.RemoteAddr().String())
	return nil
}

// openSMTP connects to srv and makes a session ready for MAIL FROM.
//
// go-smtp (v0.24) can only start TLS in a client created for that purpose
// (NewClientStartTLS, which fails when STARTTLS is not offered), and does
// the handshake itself. So urlget reads the greeting and EHLO reply on
// its own, sends STARTTLS when offered, upgrades the connection with the
// Dialer's StartTLS (certificate policy, --cacert, -k, error kinds), and
// then hands the connection to smtp.NewClient behind a synthetic 220
// greeting; go-smtp's own EHLO is the one RFC 3207 requires after TLS (or
// a harmless repeat without it).
func (h *Handler) openSMTP(ctx context.Context, req *schemes.Request, m *URL, srv server, tr schemes.Trace, user, pass string, auth bool) (s *smtpSession, err error) {
	fail := func(phase string, err error) error { return smtpError(phase, err) }
	tr = schemes.NewScope(tr)
	ctx = schemes.WithTrace(ctx, tr) // the Dialer's notes (connecting, TLS) go to the scope too
	raw, err := req.Dialer.Dial(ctx, "mailto", srv.host, srv.port)
	if err != nil {
		return nil, fail("dial", err)
	}
	raw, _ = transport.Bound(ctx, raw) // canceling ctx unblocks go-smtp
	defer func() {
		if s == nil {
			raw.Close()
		}
	}()
	tc := &traceConn{Conn: raw, tr: tr}
	text := textproto.NewConn(bounded(tc))
	if _, _, err := text.ReadResponse(220); err != nil {
		return nil, fail("greeting", err)
	}
	local := localName(raw)
	ext, err := ehlo(text, local)
	var terr *textproto.Error
	if errors.As(err, &terr) && terr.Code >= 500 {
		// An old server without ESMTP: no extensions, so no STARTTLS;
		// go-smtp falls back to HELO itself.
		ext, err = map[string]string{}, nil
	}
	if err != nil {
		return nil, fail("ehlo", err)
	}
	_, offered := ext["STARTTLS"]
	sess := &smtpSession{conn: raw, traced: []*traceConn{tc}}
	var conn net.Conn = tc
	switch {
	case offered:
		id, err := text.Cmd("STARTTLS")
		if err != nil {
			return nil, fail("starttls", err)
		}
		text.StartResponse(id)
		_, _, err = text.ReadResponse(220)
		text.EndResponse(id)
		if err != nil {
			return nil, fail("starttls", err)
		}
		tlsConn, err := req.Dialer.StartTLS(ctx, raw, "mailto", srv.host)
		if err != nil {
			return nil, smtpError("tls", err)
		}
		upper := &traceConn{Conn: tlsConn, tr: tr}
		conn, sess.conn, sess.secure = upper, tlsConn, true
		sess.traced = append(sess.traced, upper)
	case req.RequireTLS:
		return nil, &schemes.Error{Scheme: "mailto", Phase: "starttls", Kind: schemes.KindSafety, Part: "smtp-server",
			Msg: fmt.Sprintf("%s does not offer STARTTLS and %s requires it", srv.host, h.words.Setting(schemes.SettingRequireTLS))}
	default:
		tr.Info("the server does not offer STARTTLS: sending in clear")
	}
	sess.replies = bounded(conn)
	sess.c = smtp.NewClient(&greetConn{Conn: sess.replies, greeting: []byte("220 urlget: session continues\r\n")})
	if err := sess.c.Hello(local); err != nil {
		sess.c.Close()
		return nil, fail("ehlo", err)
	}
	if auth {
		if err := authenticate(sess.c, m, srv, user, pass, sess.secure, tr); err != nil {
			sess.c.Close()
			return nil, err
		}
	}
	return sess, nil
}

// deliver sends msg on s: MAIL FROM, RCPT TO for each recipient, DATA.
func (s *smtpSession) deliver(m *URL, msg *message) error {
	fail := func(phase string, err error) error { return smtpError(phase, err) }
	c := s.c
	if err := c.Mail(msg.from, nil); err != nil {
		return fail("mail", err)
	}
	for _, r := range msg.recipients {
		if err := c.Rcpt(r, nil); err != nil {
			return fail("rcpt", fmt.Errorf("<%s>: %w", r, err))
		}
	}
	w, err := c.Data()
	if err != nil {
		return fail("data", err)
	}
	// The message text is not traced (go-smtp buffers it and writes it
	// out on Close): only the replies are.
	setQuiet := func(q bool) {
		for _, t := range s.traced {
			t.quiet.Store(q)
		}
	}
	setQuiet(true)
	s.traced[0].tr.Info(fmt.Sprintf("(message of %d bytes, Message-ID %s)", len(msg.text), msg.id))
	_, err = w.Write(msg.text)
	if err == nil {
		err = w.Close()
	}
	setQuiet(false)
	if err != nil {
		return fail("data", err)
	}
	return nil
}

// ehlo sends EHLO and returns the extensions offered (keyword → params).
func ehlo(text *textproto.Conn, local string) (map[string]string, error) {
	id, err := text.Cmd("EHLO %s", local)
	if err != nil {
		return nil, err
	}
	text.StartResponse(id)
	defer text.EndResponse(id)
	_, msg, err := text.ReadResponse(250)
	if err != nil {
		return nil, err
	}
	ext := map[string]string{}
	lines := strings.Split(msg, "\n")
	for _, l := range lines[1:] {
		k, v, _ := strings.Cut(l, " ")
		ext[strings.ToUpper(k)] = v
	}
	return ext, nil
}

// authenticate logs in with AUTH PLAIN, else LOGIN. A password is only
// sent over TLS or to a server on this machine.
func authenticate(c *smtp.Client, m *URL, srv server, user, pass string, secure bool, tr schemes.Trace) error {
	if ok, _ := c.Extension("AUTH"); !ok {
		tr.Info("the server offers no AUTH: sending without logging in")
		return nil
	}
	if !secure && !isLoopback(srv.host) {
		return &schemes.Error{Scheme: "mailto", Phase: "auth", Kind: schemes.KindSafety, Part: "user",
			Msg: fmt.Sprintf("refusing to send the password for %s in clear: %s offers no STARTTLS", user, srv.host)}
	}
	var a sasl.Client
	switch {
	case c.SupportsAuth("PLAIN"):
		a = sasl.NewPlainClient("", user, pass)
	case c.SupportsAuth("LOGIN"):
		a = sasl.NewLoginClient(user, pass)
	default:
		return &schemes.Error{Scheme: "mailto", Phase: "auth", Kind: schemes.KindUnsupported,
			Msg: srv.host + " offers neither AUTH PLAIN nor AUTH LOGIN"}
	}
	if err := c.Auth(a); err != nil {
		return smtpError("auth", err)
	}
	return nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// localName is the EHLO argument: this host's name when it is a domain
// name, else the address literal of the connection's local end.
func localName(c net.Conn) string {
	if h, err := os.Hostname(); err == nil && strings.Contains(h, ".") && !strings.ContainsAny(h, " \r\n") {
		return h
	}
	if a, ok := c.LocalAddr().(*net.TCPAddr); ok {
		if a.IP.To4() != nil {
			return "[" + a.IP.String() + "]"
		}
		return "[IPv6:" + a.IP.String() + "]"
	}
	return "localhost"
}

// smtpError turns a failure into a *schemes.Error with the reply code.
func smtpError(phase string, err error) error {
	var se *schemes.Error
	if errors.As(err, &se) {
		return err // a Dialer's (a refused certificate)
	}
	e := &schemes.Error{Scheme: "mailto", Phase: phase, Kind: schemes.KindProtocol, Err: err}
	var serr *smtp.SMTPError
	var terr *textproto.Error
	var long *longReply
	code := 0
	switch {
	case errors.As(err, &long):
		what := "the reply to " + strings.ToUpper(phase)
		if phase == "greeting" {
			what = "the greeting"
		}
		e.Msg, e.Err = fmt.Sprintf("%s is %v", what, long), nil
		return e
	case errors.As(err, &serr):
		code = serr.Code
	case errors.As(err, &terr):
		code = terr.Code
	default:
		ioe := schemes.IOError("mailto", phase, err)
		if errors.As(ioe, &se) {
			se.Retryable = se.Retryable && phase != "data"
		}
		return ioe
	}
	e.Code = code
	e.Msg = fmt.Sprintf("server refused %s", strings.ToUpper(phase))
	switch {
	case code == 530 || code == 534 || code == 535 || code == 538:
		e.Kind = schemes.KindPermission
	case phase == "rcpt" && (code == 550 || code == 551 || code == 553):
		e.Kind = schemes.KindNotFound
	case code >= 400 && code < 500:
		e.Retryable = true // transient; nothing was accepted
	}
	return e
}

// traceConn reports the SMTP lines it carries to a Trace. While quiet (the
// message text during DATA) nothing is reported.
type traceConn struct {
	net.Conn
	tr    schemes.Trace
	quiet atomic.Bool

	mu   sync.Mutex
	rbuf []byte
	wbuf []byte
}

func (t *traceConn) Read(p []byte) (int, error) {
	n, err := t.Conn.Read(p)
	t.mu.Lock()
	t.rbuf = emitLines(t.rbuf, p[:n], t.tr.Received)
	t.mu.Unlock()
	return n, err
}

func (t *traceConn) Write(p []byte) (int, error) {
	n, err := t.Conn.Write(p)
	if !t.quiet.Load() {
		t.mu.Lock()
		t.wbuf = emitLines(t.wbuf, p[:n], t.tr.Sent)
		t.mu.Unlock()
	}
	return n, err
}

// emitLines appends p to buf and reports each complete line.
func emitLines(buf, p []byte, report func(string)) []byte {
	buf = append(buf, p...)
	for {
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			if len(buf) > 4096 {
				buf = buf[:0] // not a line protocol any more; do not grow
			}
			return buf
		}
		report(strings.TrimRight(string(buf[:i]), "\r"))
		buf = buf[i+1:]
	}
}

// greetConn returns greeting before the connection's data, standing in
// for the server greeting smtp.NewClient expects on a fresh connection.
type greetConn struct {
	net.Conn
	greeting []byte
}

func (g *greetConn) Read(p []byte) (int, error) {
	if len(g.greeting) > 0 {
		n := copy(p, g.greeting)
		g.greeting = g.greeting[n:]
		return n, nil
	}
	return g.Conn.Read(p)
}

var _ io.Reader = (*greetConn)(nil)
