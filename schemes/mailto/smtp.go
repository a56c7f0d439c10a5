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

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/urlget/urlget/schemes"
)

// send submits msg through srv, on an SMTP connection traced in a scope
// of its own of tr.
//
// go-smtp (v0.24) can only start TLS in a client created for that purpose
// (NewClientStartTLS, which fails when STARTTLS is not offered), and does
// the handshake itself. So urlget reads the greeting and EHLO reply on
// its own, sends STARTTLS when offered, upgrades the connection with the
// Dialer's StartTLS (certificate policy, --cacert, -k, error kinds), and
// then hands the connection to smtp.NewClient behind a synthetic 220
// greeting; go-smtp's own EHLO is the one RFC 3207 requires after TLS (or
// a harmless repeat without it).
func (h *Handler) send(ctx context.Context, req *schemes.Request, m *URL, srv server, msg *message, tr schemes.Trace) error {
	if req.Dialer == nil {
		return &schemes.Error{Scheme: "mailto", Phase: "dial", Kind: schemes.KindOther, URL: m.Redacted(), Msg: "no Dialer in the request"}
	}
	fail := func(phase string, err error) error { return smtpError(m, phase, err) }
	tr = schemes.NewScope(tr)
	ctx = schemes.WithTrace(ctx, tr) // the Dialer's notes (connecting, TLS) go to the scope too
	var user, pass string
	auth := false
	if req.Credentials != nil {
		user, pass, auth = req.Credentials("mailto", srv.host, srv.port)
		if auth {
			tr.Secret(pass)
		}
	}
	raw, err := req.Dialer.Dial(ctx, "mailto", srv.host, srv.port)
	if err != nil {
		return fail("dial", err)
	}
	defer raw.Close()
	stop := context.AfterFunc(ctx, func() { raw.Close() }) // unblock go-smtp on cancel
	defer stop()

	tc := &traceConn{Conn: raw, tr: tr}
	text := textproto.NewConn(bounded(tc))
	if _, _, err := text.ReadResponse(220); err != nil {
		return fail("greeting", err)
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
		return fail("ehlo", err)
	}
	_, offered := ext["STARTTLS"]
	var conn net.Conn = tc
	secure := false
	switch {
	case offered:
		id, err := text.Cmd("STARTTLS")
		if err != nil {
			return fail("starttls", err)
		}
		text.StartResponse(id)
		_, _, err = text.ReadResponse(220)
		text.EndResponse(id)
		if err != nil {
			return fail("starttls", err)
		}
		tlsConn, err := req.Dialer.StartTLS(ctx, raw, "mailto", srv.host, req.TLS)
		if err != nil {
			return smtpError(m, "tls", err)
		}
		conn, secure = &traceConn{Conn: tlsConn, tr: tr}, true
	case h.RequireTLS:
		return &schemes.Error{Scheme: "mailto", Phase: "starttls", Kind: schemes.KindSafety, URL: m.Redacted(), Part: "smtp-server",
			Msg: fmt.Sprintf("%s does not offer STARTTLS and --ssl-reqd requires it", srv.host)}
	default:
		tr.Info("the server does not offer STARTTLS: sending in clear")
	}
	c := smtp.NewClient(&greetConn{Conn: bounded(conn), greeting: []byte("220 urlget: session continues\r\n")})
	defer c.Close()
	if err := c.Hello(local); err != nil {
		return fail("ehlo", err)
	}
	if auth {
		if err := authenticate(c, m, srv, user, pass, secure, tr); err != nil {
			return err
		}
	}
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
		tc.quiet.Store(q)
		if cq, ok := conn.(*traceConn); ok {
			cq.quiet.Store(q)
		}
	}
	setQuiet(true)
	tr.Info(fmt.Sprintf("(message of %d bytes, Message-ID %s)", len(msg.text), msg.id))
	_, err = w.Write(msg.text)
	if err == nil {
		err = w.Close()
	}
	setQuiet(false)
	if err != nil {
		return fail("data", err)
	}
	if err := c.Quit(); err != nil {
		tr.Info("QUIT: " + err.Error()) // the message is accepted already
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
		return &schemes.Error{Scheme: "mailto", Phase: "auth", Kind: schemes.KindSafety, URL: m.Redacted(), Part: "user",
			Msg: fmt.Sprintf("refusing to send the password for %s in clear: %s offers no STARTTLS", user, srv.host)}
	}
	var a sasl.Client
	switch {
	case c.SupportsAuth("PLAIN"):
		a = sasl.NewPlainClient("", user, pass)
	case c.SupportsAuth("LOGIN"):
		a = sasl.NewLoginClient(user, pass)
	default:
		return &schemes.Error{Scheme: "mailto", Phase: "auth", Kind: schemes.KindUnsupported, URL: m.Redacted(),
			Msg: srv.host + " offers neither AUTH PLAIN nor AUTH LOGIN"}
	}
	if err := c.Auth(a); err != nil {
		return smtpError(m, "auth", err)
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
func smtpError(m *URL, phase string, err error) error {
	var se *schemes.Error
	if errors.As(err, &se) {
		if se.URL != "" {
			return err
		}
		c := *se // a Dialer's error (a refused certificate) knows no URL
		c.URL = m.Redacted()
		return &c
	}
	e := &schemes.Error{Scheme: "mailto", Phase: phase, Kind: schemes.KindProtocol, URL: m.Redacted(), Err: err}
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
			se.URL = m.Redacted()
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
