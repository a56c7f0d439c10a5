package ldap

import (
	"context"
	"fmt"
	"net"

	ber "github.com/go-asn1-ber/asn1-ber"
	goldap "github.com/go-ldap/ldap/v3"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// maxMessage is the largest LDAP message (one entry, one result) read
// from a server. asn1-ber allocates as the length it is told says, up to
// 2 GiB by default; no directory entry a search returns needs more than
// this, and a server that says it sends more is refused, whatever it
// sends. It is asn1-ber's package setting, so it bounds go-ldap's reader
// too: set once, when this package is loaded.
const maxMessage = 32 << 20

func init() {
	if ber.MaxPacketLengthBytes <= 0 || ber.MaxPacketLengthBytes > maxMessage {
		ber.MaxPacketLengthBytes = maxMessage
	}
}

// oidStartTLS is the StartTLS extended operation (RFC 4511 §4.14.1).
const oidStartTLS = "1.3.6.1.4.1.1466.20037"

// session is one bound LDAP connection.
type session struct {
	conn   *goldap.Conn
	tr     schemes.Trace
	scheme string
}

// Close ends the session: go-ldap sends an unbind request and closes the
// connection.
func (s *session) Close() error { return s.conn.Close() }

// open connects to l's server: TLS from the start for ldaps, StartTLS
// when req requires TLS, then the bind (anonymous, or simple with the DN
// and password credentials gives).
func (h *Handler) open(ctx context.Context, req *schemes.Request, l *URL) (*session, error) {
	if req.Dialer == nil {
		return nil, &schemes.Error{Scheme: l.u.Scheme, Phase: "dial", Kind: schemes.KindOther, Msg: "no Dialer in the request"}
	}
	b, err := h.bind(ctx, req, l)
	if err != nil {
		return nil, err
	}
	g := l.u
	tr := schemes.NewScope(req.Trace)
	tctx := schemes.WithTrace(ctx, tr)
	c, err := req.Dialer.Dial(tctx, g.Scheme, g.Host, g.EffectivePort())
	if err != nil {
		return nil, err
	}
	isTLS := g.Scheme == schemeLDAPS
	if isTLS {
		if c, err = upgrade(tctx, req, c, g); err != nil {
			return nil, err
		}
	} else if req.RequireTLS {
		if c, err = startTLS(tctx, req, c, g, tr); err != nil {
			return nil, err
		}
		isTLS = true
	}
	c, _ = transport.Bound(ctx, c)
	conn := goldap.NewConn(c, isTLS)
	conn.Start()
	s := &session{conn: conn, tr: tr, scheme: g.Scheme}
	if b.dn == "" {
		// RFC 4511 §4.2.1: an LDAP session is anonymous until a bind;
		// no bind request is sent, as ldapsearch -x sends one only with -D.
		return s, nil
	}
	tr.Sent("bind simple " + b.dn + " (password ****)")
	if _, err := conn.SimpleBind(&goldap.SimpleBindRequest{Username: b.dn, Password: b.password}); err != nil {
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

// startTLS asks for TLS with the StartTLS extended operation before
// go-ldap takes the connection, then upgrades it through the Dialer:
// go-ldap's own StartTLS wants a tls.Config, and every TLS connection of
// urlget is made by the Dialer with the Client's settings. The request
// has message ID 1; go-ldap's session, which starts after it, numbers its
// own from 1 again, which RFC 4511 §4.1.1.1 allows (the StartTLS request
// is no longer outstanding). A server that refuses fails with
// KindSafety: TLS was required.
func startTLS(ctx context.Context, req *schemes.Request, c net.Conn, g *schemes.URL, tr schemes.Trace) (net.Conn, error) {
	bc, _ := transport.Bound(ctx, c)
	p := ber.Encode(ber.ClassUniversal, ber.TypeConstructed, ber.TagSequence, nil, "LDAP Request")
	p.AppendChild(ber.NewInteger(ber.ClassUniversal, ber.TypePrimitive, ber.TagInteger, 1, "MessageID"))
	op := ber.Encode(ber.ClassApplication, ber.TypeConstructed, goldap.ApplicationExtendedRequest, nil, "Start TLS")
	op.AppendChild(ber.NewString(ber.ClassContext, ber.TypePrimitive, 0, oidStartTLS, "requestName"))
	p.AppendChild(op)
	tr.Sent("extended " + oidStartTLS + " (StartTLS)")
	if _, err := bc.Write(p.Bytes()); err != nil {
		c.Close()
		return nil, schemes.IOError(g.Scheme, "starttls", err)
	}
	resp, err := ber.ReadPacket(bc)
	if err != nil {
		c.Close()
		return nil, resultError(g.Scheme, "starttls", goldap.NewError(goldap.ErrorNetwork, err))
	}
	if err := startTLSResult(resp); err != nil {
		c.Close()
		e := resultError(g.Scheme, "starttls", err).(*schemes.Error)
		tr.Received("starttls: " + e.Msg)
		e.Kind = schemes.KindSafety
		e.Msg = fmt.Sprintf("%s refused StartTLS (%s), and TLS is required", g.Host, e.Msg)
		return nil, e
	}
	tr.Received("starttls: success")
	return upgrade(ctx, req, c, g)
}

// startTLSResult checks the reply to the StartTLS request: an
// ExtendedResponse to message 1 with result success.
func startTLSResult(p *ber.Packet) error {
	if len(p.Children) < 2 {
		return goldap.NewError(goldap.ErrorUnexpectedResponse, fmt.Errorf("malformed reply to StartTLS"))
	}
	if id, ok := p.Children[0].Value.(int64); !ok || id != 1 {
		return goldap.NewError(goldap.ErrorUnexpectedResponse, fmt.Errorf("reply to StartTLS has another message ID"))
	}
	if op := p.Children[1]; op.ClassType != ber.ClassApplication || op.Tag != goldap.ApplicationExtendedResponse {
		return goldap.NewError(goldap.ErrorUnexpectedResponse, fmt.Errorf("reply to StartTLS is no ExtendedResponse"))
	}
	return goldap.GetLDAPError(p)
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
// urlget never sends one, so that a typo in a password is no silent
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
		if req.Prompt == nil {
			return login{}, &schemes.Error{Scheme: g.Scheme, Phase: "bind", Kind: schemes.KindPermission,
				Msg: fmt.Sprintf("no password to bind as %s (%s)", b.dn, h.words.Setting(schemes.SettingCredentials))}
		}
		p, err := req.Prompt(ctx, "LDAP password for "+b.dn+": ", true)
		if err != nil {
			return login{}, err
		}
		b.password = p
	}
	return b, nil
}
