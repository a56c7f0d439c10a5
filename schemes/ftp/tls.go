package ftp

import (
	"bufio"
	"context"
	"crypto/tls"
	"net"

	"github.com/urlget/urlget/schemes"
)

// explicitTLS says whether an ftp: control connection is upgraded with
// AUTH TLS (and its data protected with PROT P): when the Handler asks
// (--ftp-ssl) or the request does (--ssl-reqd, which the fetch Client
// gives only to schemes claiming the TLS capability).
func (h *Handler) explicitTLS(req *schemes.Request) bool { return h.ExplicitTLS || req.RequireTLS }

// requiredBy names what required TLS, in the caller's words, for the
// error when a server refuses it: the request's RequireTLS, else the
// Handler's ftp-ssl option.
func (h *Handler) requiredBy(req *schemes.Request) string {
	if req.RequireTLS {
		return h.words.Setting(schemes.SettingRequireTLS)
	}
	return h.words.Option("ftp-ssl")
}

// newSessions is the TLS session cache of one control connection and its
// data connections: data connections resume the control connection's
// session through it, because servers such as vsftpd (require_ssl_reuse)
// refuse a data connection that does not. It is the connection's own, so
// a data connection never offers another control connection's session;
// every other TLS setting is the Dialer's.
func newSessions() tls.ClientSessionCache { return tls.NewLRUClientSessionCache(4) }

// startTLS wraps the control connection in TLS (implicit ftps, or after
// AUTH TLS), through the Dialer.
func (c *ctrl) startTLS(ctx context.Context, loc *URL, d schemes.Dialer) error {
	tc, err := c.handshake(ctx, loc, d, c.nc)
	if err != nil {
		return err
	}
	c.nc = tc
	c.r = bufio.NewReaderSize(tc, 4096)
	return nil
}

// secureData does the TLS handshake on a data connection after the server
// accepted the transfer command, when PROT P is in effect; otherwise it
// returns dc as it is.
func (c *ctrl) secureData(ctx context.Context, loc *URL, d schemes.Dialer, dc net.Conn) (net.Conn, error) {
	if !c.secure {
		return dc, nil
	}
	return c.handshake(ctx, loc, d, dc)
}

// handshake runs the Dialer's StartTLS on nc, in the control connection's
// trace scope and with its session cache. The
// Dialer classifies failures (an untrusted certificate is KindSafety).
func (c *ctrl) handshake(ctx context.Context, loc *URL, d schemes.Dialer, nc net.Conn) (net.Conn, error) {
	tc, err := d.StartTLS(schemes.WithTrace(ctx, c.tr), nc, loc.u.Scheme, c.host, schemes.TLSSessions(c.sessions))
	if err != nil {
		c.broken = true
		return nil, ioError(loc, "tls", err)
	}
	return tc, nil
}
