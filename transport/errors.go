package transport

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"

	"github.com/urlget/urlget/schemes"
)

// dialError classifies a failure to establish a connection to what (a
// "host:port" or "proxy host:port"). parent is the caller's context, which
// schemes.ContextKind reads: its cancellation is KindCanceled and its
// deadline KindTimeout, neither retryable; our own connect timeout (which
// net reports as context.DeadlineExceeded too) is KindTimeout, retryable.
func dialError(parent context.Context, scheme, what string, timeout string, err error) error {
	var se *schemes.Error
	if errors.As(err, &se) {
		return err
	}
	e := &schemes.Error{Scheme: scheme, Phase: "dial", Kind: schemes.KindConnect, Retryable: true, Err: schemes.InWords(err)}
	kind, retry, done := schemes.ContextKind(parent, err)
	var dnsErr *net.DNSError
	switch {
	case kind == schemes.KindCanceled:
		e.Kind, e.Retryable, e.Msg = kind, retry, "connecting to "+what
		e.Err = context.Canceled
	case errors.As(err, &dnsErr):
		e.Msg = fmt.Sprintf("cannot resolve host %q", dnsErr.Name)
		if dnsErr.Err != "" {
			e.Err = schemes.Reason(dnsErr.Err, err) // not Go's "dial tcp: lookup NAME on SERVER: ..."
		}
		switch {
		case done:
			e.Kind, e.Retryable = kind, retry
		case dnsErr.IsNotFound:
			e.Retryable = false // the name does not exist; asking again will not help
		}
	case done:
		if !retry {
			timeout = "" // the caller's deadline, not ours
		}
		e.Kind, e.Retryable, e.Msg = kind, retry, "connecting to "+what+" timed out"+timeout
	default:
		e.Msg = "cannot connect to " + what
	}
	return e
}

// tlsError classifies a failed TLS handshake with host: an untrusted or
// mismatched certificate is KindSafety (urlget refuses to talk to a server
// it cannot authenticate unless -k says so); cancellation, timeouts and
// lost connections keep their kinds; a scheme's own verification's
// *schemes.Error is returned as it is; anything else is KindProtocol.
func tlsError(parent context.Context, scheme, host string, err error) error {
	var (
		verr  *tls.CertificateVerificationError
		uaerr x509.UnknownAuthorityError
		herr  x509.HostnameError
		cierr x509.CertificateInvalidError
	)
	_, _, done := schemes.ContextKind(parent, err)
	var (
		own *schemes.Error
		ref refused
	)
	switch {
	case errors.As(err, &own):
		return own // a scheme's own verification (schemes.TLSVerify) said why
	case errors.As(err, &ref):
		return &schemes.Error{Scheme: scheme, Phase: "tls", Kind: schemes.KindSafety, Part: "host",
			Msg: fmt.Sprintf("TLS certificate of %s refused", host), Err: ref.err}
	case errors.As(err, &verr), errors.As(err, &uaerr), errors.As(err, &herr), errors.As(err, &cierr):
		return &schemes.Error{Scheme: scheme, Phase: "tls", Kind: schemes.KindSafety, Part: "host", Setting: SettingTrust,
			Msg: fmt.Sprintf("TLS certificate of %s is not trusted", host),
			Err: err}
	case done:
		return dialError(parent, scheme, host+" (TLS handshake)", "", err)
	case errors.Is(err, io.EOF), errors.Is(err, syscall.ECONNRESET):
		return &schemes.Error{Scheme: scheme, Phase: "tls", Kind: schemes.KindConnect, Retryable: true,
			Msg: "TLS handshake with " + host + " failed: connection closed", Err: err}
	}
	return &schemes.Error{Scheme: scheme, Phase: "tls", Kind: schemes.KindProtocol,
		Msg: "TLS handshake with " + host + " failed", Err: err}
}
