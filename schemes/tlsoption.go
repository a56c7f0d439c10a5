package schemes

import "crypto/tls"

// TLSOption is a need of one TLS handshake that belongs to the connection,
// not to the Dialer: the Dialer holds the TLS settings of every connection
// (verification, trusted roots, client certificate, versions), so a handler
// asks StartTLS for TLS and says only what is its own — which earlier
// session to resume, which application protocol to offer.
type TLSOption func(*TLSParams)

// TLSParams are what a handshake's TLSOptions asked for. A Dialer reads
// them with NewTLSParams.
type TLSParams struct {
	// Sessions, if set, is the session cache the handshake resumes from
	// and adds to, in place of the Dialer's: connections that share one
	// resume each other's TLS session. An FTPS control connection and its
	// data connections share one, because servers such as vsftpd
	// (require_ssl_reuse) refuse a data connection that does not resume
	// the control connection's session.
	Sessions tls.ClientSessionCache
	// NextProtos are the application protocols offered by ALPN, nil for
	// none: what a connection speaks is the handler's to say (the http
	// handler offers only "http/1.1", the one it speaks).
	NextProtos []string
	// Verify, if set, replaces verification against trusted roots for
	// this handshake: the Dialer skips the chain and name checks and
	// calls Verify with the peer's certificates instead, failing the
	// handshake on its error. It is for a scheme whose servers are
	// trusted by their own rule (gemini's trust on first use), which
	// still dials through the Dialer for its ports, proxies and timeouts.
	Verify func(tls.ConnectionState) error
	// ClientCert, if set, is the certificate this handshake offers when
	// the server asks for one, in place of the Dialer's: a scheme whose
	// client certificates are per site (gemini's, which a person names
	// for the URLs they retrieve) offers it only to those.
	ClientCert *tls.Certificate
}

// NewTLSParams applies opts in order.
func NewTLSParams(opts ...TLSOption) TLSParams {
	var p TLSParams
	for _, o := range opts {
		if o != nil {
			o(&p)
		}
	}
	return p
}

// TLSSessions makes the handshake resume from, and store into, cache (see
// TLSParams.Sessions); tls.NewLRUClientSessionCache makes one.
func TLSSessions(cache tls.ClientSessionCache) TLSOption {
	return func(p *TLSParams) { p.Sessions = cache }
}

// TLSProtocols offers protos by ALPN (see TLSParams.NextProtos).
func TLSProtocols(protos ...string) TLSOption {
	return func(p *TLSParams) { p.NextProtos = protos }
}

// TLSVerify makes verify, and not the trusted roots, decide whether the
// server's certificates are trusted (see TLSParams.Verify).
func TLSVerify(verify func(tls.ConnectionState) error) TLSOption {
	return func(p *TLSParams) { p.Verify = verify }
}

// TLSClientCert offers cert when the server asks for a client
// certificate (see TLSParams.ClientCert).
func TLSClientCert(cert *tls.Certificate) TLSOption {
	return func(p *TLSParams) { p.ClientCert = cert }
}
