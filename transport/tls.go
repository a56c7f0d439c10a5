package transport

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"os"

	"github.com/urlget/urlget/schemes"
)

// TLSConfig builds the client TLS configuration from the command line:
// caFile (--cacert) is a PEM file of trusted roots replacing the system's,
// insecure (-k) skips certificate verification, serverName overrides the
// name verified (empty: the host dialed). TLS 1.2 is the minimum.
func TLSConfig(caFile string, insecure bool, serverName string) (*tls.Config, error) {
	cfg := &tls.Config{ServerName: serverName, InsecureSkipVerify: insecure, MinVersion: tls.VersionTLS12}
	if caFile == "" {
		return cfg, nil
	}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, &schemes.Error{Phase: "tls", Kind: schemes.KindUsage, Setting: SettingRoots,
			Msg: fmt.Sprintf("cannot read the trusted certificates file %s", caFile), Err: err}
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, &schemes.Error{Phase: "tls", Kind: schemes.KindUsage, Setting: SettingRoots,
			Msg: fmt.Sprintf("the trusted certificates file %s holds no PEM certificate", caFile)}
	}
	cfg.RootCAs = pool
	return cfg, nil
}

// DialTLS dials host:port with Dial (port policy, proxy, idle timeout,
// cancellation) and performs the TLS handshake with StartTLS, under ctx
// and ConnectTimeout. It serves the implicit-TLS schemes (ftps, nntps,
// gophers). The *Conn under the returned connection is reachable with
// ConnOf.
func (d *Dialer) DialTLS(ctx context.Context, scheme, host string, port int, opts ...schemes.TLSOption) (net.Conn, error) {
	c, err := d.Dial(ctx, scheme, host, port)
	if err != nil {
		return nil, err
	}
	tc, err := d.StartTLS(ctx, c, scheme, host, opts...)
	if err != nil {
		c.Close()
		return nil, err
	}
	return tc, nil
}

// StartTLS performs a client TLS handshake on c, a connection to host
// already open: an implicit-TLS connection from DialTLS, or a plain one
// being upgraded (FTP "AUTH TLS", NNTP "STARTTLS", an FTPS data
// connection). It uses d.TLS, the settings of every connection, with
// what opts ask for this one (schemes.TLSSessions, schemes.TLSProtocols,
// schemes.TLSVerify, schemes.TLSClientCert),
// and verifies the certificate against host unless d.TLS.ServerName
// names another. It implements schemes.Dialer; the result is a
// *tls.Conn. On failure the caller closes c (crypto/tls has already
// closed it when ctx or ConnectTimeout ended the handshake; a second
// Close is harmless).
func (d *Dialer) StartTLS(ctx context.Context, c net.Conn, scheme, host string, opts ...schemes.TLSOption) (net.Conn, error) {
	cfg := d.tlsConfig(host)
	p := schemes.NewTLSParams(opts...)
	if p.Sessions != nil {
		cfg.ClientSessionCache = p.Sessions
	}
	cfg.NextProtos = p.NextProtos
	if p.Verify != nil {
		// The scheme's own rule decides, in place of the roots (and of
		// -k, which would otherwise let anything through unchecked).
		cfg.InsecureSkipVerify = true
		cfg.VerifyConnection = func(st tls.ConnectionState) error {
			if err := p.Verify(st); err != nil {
				return refused{err} // a refusal, whatever error says it (tlsError)
			}
			return nil
		}
	}
	if p.ClientCert != nil {
		cfg.Certificates, cfg.GetClientCertificate = []tls.Certificate{*p.ClientCert}, nil
	}
	hctx := ctx
	if d.ConnectTimeout > 0 {
		var cancel context.CancelFunc
		hctx, cancel = context.WithTimeout(ctx, d.ConnectTimeout)
		defer cancel()
	}
	tc := tls.Client(c, cfg)
	if err := tc.HandshakeContext(hctx); err != nil {
		return nil, tlsError(ctx, scheme, host, err)
	}
	st := tc.ConnectionState()
	d.info(ctx, "%s with %s, cipher %s", tls.VersionName(st.Version), host, tls.CipherSuiteName(st.CipherSuite))
	return tc, nil
}

// tlsConfig is a copy of d.TLS (the defaults when nil) for one handshake
// with host: the name verified is host unless d.TLS names another, and no
// application protocol is offered (a connection's protocol is its
// handler's to say, never the Dialer's).
func (d *Dialer) tlsConfig(host string) *tls.Config {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if d.TLS != nil {
		cfg = d.TLS.Clone()
	}
	if cfg.ServerName == "" {
		cfg.ServerName = host
	}
	cfg.NextProtos = nil
	return cfg
}

// refused is a refusal of the server's certificate by a scheme's own
// rule (schemes.TLSVerify): crypto/tls returns it as it is, and tlsError
// makes it KindSafety, as an untrusted certificate is.
type refused struct{ err error }

func (r refused) Error() string { return r.err.Error() }
func (r refused) Unwrap() error { return r.err }
