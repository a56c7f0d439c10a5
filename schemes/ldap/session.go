package ldap

import (
	"bufio"
	"context"
	"fmt"
	"net"

	asn1ber "github.com/go-asn1-ber/asn1-ber"
	goldap "github.com/go-ldap/ldap/v3"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// maxMessage is the largest LDAP message (one entry, one result) read
// from a server: no directory entry a search returns needs more, and a
// server that says it sends more is refused before anything is read.
const maxMessage = 32 << 20

// readBuffer is the connection's read buffer: many entries a read.
const readBuffer = 64 << 10

// oidStartTLS is the StartTLS extended operation (RFC 4511 §4.14.1).
const oidStartTLS = "1.3.6.1.4.1.1466.20037"

// session is one LDAP connection. Requests are encoded with go-ldap's
// BER package; replies are read by msgReader, in place in one buffer:
// go-ldap's own reader builds a tree of packets for every entry, and
// spent three times ldapsearch's time on a 10,000-entry search
// (bench/ldap.sh).
type session struct {
	c      net.Conn
	batch  *batchConn // c as rd reads it
	rd     msgReader
	id     int64
	tr     schemes.Trace
	scheme string
	// replies counts the messages read: a leased session whose first
	// request meets the end of the connection before any is stale.
	replies int
	// conns and key are where the session goes back when a search on
	// it ends cleanly (keep); nil conns: it is closed instead.
	conns schemes.Conns
	key   schemes.ConnKey
}

var _ schemes.Session = (*session)(nil)

// Conn is the connection the session speaks on (schemes.Session).
func (s *session) Conn() net.Conn { return s.c }

// Unread is what the session read and did not use (schemes.Session): at
// rest, between searches, nothing.
func (s *session) Unread() int { return s.rd.r.Buffered() }

// keep gives the session back to its pool, for the next request to the
// same server with the same bind and security, once a search on it ended
// with its result: the protocol state is known. Without a pool it is
// closed.
func (s *session) keep() error {
	if s.conns == nil || !s.key.Pooled() {
		return s.Close()
	}
	s.batch.rest()
	s.conns.Keep(s.key, s)
	return nil
}

// newSession starts a session on c.
func newSession(c net.Conn, tr schemes.Trace, scheme string) *session {
	b := newBatchConn(c)
	return &session{c: c, batch: b, rd: msgReader{r: bufio.NewReaderSize(b, readBuffer), max: maxMessage}, tr: tr, scheme: scheme}
}

// send writes a request with the next message ID, and controls (nil:
// none), returning the ID.
func (s *session) send(op, controls *asn1ber.Packet) (int64, error) {
	s.id++
	p := asn1ber.Encode(asn1ber.ClassUniversal, asn1ber.TypeConstructed, asn1ber.TagSequence, nil, "LDAPMessage")
	p.AppendChild(asn1ber.NewInteger(asn1ber.ClassUniversal, asn1ber.TypePrimitive, asn1ber.TagInteger, s.id, "messageID"))
	p.AppendChild(op)
	if controls != nil {
		p.AppendChild(controls)
	}
	_, err := s.c.Write(p.Bytes())
	return s.id, err
}

// read reads the next reply to request id; a notice of disconnection
// (RFC 4511 §4.4.1, message ID 0) is the server's result, and a reply to
// another request a protocol error.
func (s *session) read(id int64) (message, error) {
	m, err := s.rd.next()
	if err != nil {
		return m, err
	}
	s.replies++
	if m.id == unsolicitedNoticeID && m.op == opExtendedResponse {
		r, err := parseResult(m.body)
		if err != nil {
			return m, err
		}
		return m, &ldapError{r}
	}
	if m.id != id {
		return m, fmt.Errorf("%w: a reply to message %d while %d is outstanding", errBER, m.id, id)
	}
	return m, nil
}

// do sends a request and reads its one reply, which must be want: an
// LDAPResult, an error unless success.
func (s *session) do(op *asn1ber.Packet, want byte) error {
	id, err := s.send(op, nil)
	if err != nil {
		return err
	}
	m, err := s.read(id)
	if err != nil {
		return err
	}
	if m.op != want {
		return fmt.Errorf("%w: reply 0x%02x to a request that wants 0x%02x", errBER, m.op, want)
	}
	r, err := parseResult(m.body)
	if err != nil {
		return err
	}
	if r.code != resultSuccess {
		return &ldapError{r}
	}
	return nil
}

// Close ends the session with an UnbindRequest (RFC 4511 §4.3) and
// closes the connection.
func (s *session) Close() error {
	s.send(asn1ber.Encode(asn1ber.ClassApplication, asn1ber.TypePrimitive, goldap.ApplicationUnbindRequest, nil, "UnbindRequest"), nil)
	return s.c.Close()
}

// connKey is the key of the sessions that may serve l with the login b:
// the server, the Dialer, TLS (ldaps, or StartTLS when required) and the
// bind.
func connKey(req *schemes.Request, l *URL, b login) schemes.ConnKey {
	g := l.u
	key, _ := schemes.NewConnKey(req, g.Scheme, g.Host, g.EffectivePort(), g.Scheme == schemeLDAPS || req.RequireTLS, b.dn, b.password)
	return key
}

// open connects to l's server: TLS from the start for ldaps, StartTLS
// when req requires TLS, then the bind b (anonymous, or simple with the
// DN and password the URL and credentials give).
func (h *Handler) open(ctx context.Context, req *schemes.Request, l *URL, b login) (*session, error) {
	if req.Dialer == nil {
		return nil, &schemes.Error{Scheme: l.u.Scheme, Phase: "dial", Kind: schemes.KindOther, Msg: "no Dialer in the request"}
	}
	g := l.u
	tr := schemes.NewScope(req.Trace)
	tctx := schemes.WithTrace(ctx, tr)
	c, err := req.Dialer.Dial(tctx, g.Scheme, g.Host, g.EffectivePort())
	if err != nil {
		return nil, err
	}
	if g.Scheme == schemeLDAPS {
		if c, err = upgrade(tctx, req, c, g); err != nil {
			return nil, err
		}
	}
	bc, _ := transport.Bound(ctx, c)
	s := newSession(bc, tr, g.Scheme)
	if g.Scheme != schemeLDAPS && req.RequireTLS {
		if s, err = startTLS(tctx, req, s, c, g); err != nil {
			return nil, err
		}
	}
	if b.dn == "" {
		// RFC 4511 §4.2.1: a session is anonymous until a bind; none is
		// sent, as ldapsearch -x sends one only with -D.
		return s, nil
	}
	tr.Sent("bind simple " + b.dn + " (password ****)")
	op := asn1ber.Encode(asn1ber.ClassApplication, asn1ber.TypeConstructed, goldap.ApplicationBindRequest, nil, "BindRequest")
	op.AppendChild(asn1ber.NewInteger(asn1ber.ClassUniversal, asn1ber.TypePrimitive, asn1ber.TagInteger, 3, "version"))
	op.AppendChild(asn1ber.NewString(asn1ber.ClassUniversal, asn1ber.TypePrimitive, asn1ber.TagOctetString, b.dn, "name"))
	op.AppendChild(asn1ber.NewString(asn1ber.ClassContext, asn1ber.TypePrimitive, 0, b.password, "simple"))
	if err := s.do(op, opBindResponse); err != nil {
		s.Close()
		e := resultError(g.Scheme, "bind", err)
		tr.Received("bind: " + e.Error())
		return nil, e
	}
	tr.Received("bind: success")
	return s, nil
}

// upgrade runs the TLS handshake on c through the Dialer, closing c if it
// fails.
func upgrade(ctx context.Context, req *schemes.Request, c net.Conn, g *schemes.URL) (net.Conn, error) {
	tc, err := req.Dialer.StartTLS(ctx, c, g.Scheme, g.Host)
	if err != nil {
		c.Close()
		return nil, err
	}
	return tc, nil
}

// startTLS asks for TLS with the StartTLS extended operation, then
// upgrades raw, the connection under s, through the Dialer (every TLS
// connection of urlget is made by the Dialer with the Client's
// settings), and returns the session over it. A server that refuses
// fails with KindSafety: TLS was required.
func startTLS(ctx context.Context, req *schemes.Request, s *session, raw net.Conn, g *schemes.URL) (*session, error) {
	op := asn1ber.Encode(asn1ber.ClassApplication, asn1ber.TypeConstructed, goldap.ApplicationExtendedRequest, nil, "ExtendedRequest")
	op.AppendChild(asn1ber.NewString(asn1ber.ClassContext, asn1ber.TypePrimitive, 0, oidStartTLS, "requestName"))
	s.tr.Sent("extended " + oidStartTLS + " (StartTLS)")
	if err := s.do(op, opExtendedResponse); err != nil {
		raw.Close()
		e := resultError(g.Scheme, "starttls", err).(*schemes.Error)
		s.tr.Received("starttls: " + e.Msg)
		if e.Code != 0 {
			e.Kind = schemes.KindSafety
			e.Msg = fmt.Sprintf("%s refused StartTLS (%s), and TLS is required", g.Host, e.Msg)
		}
		return nil, e
	}
	if s.rd.r.Buffered() > 0 {
		// Bytes after the reply would be read as if they came over TLS.
		raw.Close()
		return nil, &schemes.Error{Scheme: g.Scheme, Phase: "starttls", Kind: schemes.KindProtocol,
			Msg: "the server sent data after the StartTLS reply, before the TLS handshake"}
	}
	s.tr.Received("starttls: success")
	tc, err := upgrade(ctx, req, raw, g)
	if err != nil {
		return nil, err
	}
	bc, _ := transport.Bound(ctx, tc)
	ns := newSession(bc, s.tr, s.scheme)
	ns.id = s.id
	return ns, nil
}

// login is who a session binds as: a DN and its password, or none.
type login struct {
	dn, password string
}

// bind decides the login for l: the bindname extension's DN, else the
// user the caller's credentials give for the host (-u, netrc: a DN), with
// the credentials' password; a DN without a password is asked for at the
// terminal when there is one. RFC 4513 §5.1.2 calls a simple bind with a
// DN and no password unauthenticated, which servers take for anonymous:
// urlget never sends one, so that a forgotten password is no silent
// anonymous search.
func (h *Handler) bind(ctx context.Context, req *schemes.Request, l *URL) (login, error) {
	g := l.u
	var b login
	var user string
	var ok bool
	if req.Credentials != nil {
		user, b.password, ok = req.Credentials(g.Scheme, g.Host, g.EffectivePort())
	}
	b.dn = user
	if dn, has := l.BindName(); has {
		b.dn = dn
	}
	if b.dn == "" {
		return login{}, nil
	}
	if _, err := goldap.ParseDN(b.dn); err != nil {
		return login{}, &schemes.Error{Scheme: g.Scheme, Phase: "bind", Kind: schemes.KindUsage, Part: "user",
			Msg: fmt.Sprintf("bind name %q is no DN (%s)", b.dn, h.words.Setting(schemes.SettingCredentials))}
	}
	if b.password == "" || !ok {
		noPassword := func(why string) error {
			return &schemes.Error{Scheme: g.Scheme, Phase: "bind", Kind: schemes.KindPermission,
				Msg: fmt.Sprintf("no password to bind as %s%s (%s)", b.dn, why, h.words.Setting(schemes.SettingCredentials))}
		}
		if req.Prompt == nil {
			return login{}, noPassword("")
		}
		p, err := req.Prompt(ctx, "LDAP password for "+b.dn+": ", true)
		if err != nil {
			if ctx.Err() != nil {
				return login{}, err
			}
			return login{}, noPassword(", and none could be asked for: " + err.Error())
		}
		req.Trace.Secret(p) // a server's message could quote it back
		b.password = p
	}
	return b, nil
}
