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

// IOError is schemes.IOError: the one mapping of I/O errors to kinds,
// kept here for the transport's own callers.
func IOError(scheme, phase string, err error) error { return schemes.IOError(scheme, phase, err) }

// isTimeout reports whether err is an expired deadline of any sort.
func isTimeout(err error) bool { return schemes.IsTimeout(err) }

// dialError classifies a failure to establish a connection to what (a
// "host:port" or "proxy host:port"). parent is the caller's context: its
// cancellation is KindCanceled, whereas our own connect timeout or the
// caller's deadline is KindTimeout.
func dialError(parent context.Context, scheme, what string, timeout string, err error) error {
	var se *schemes.Error
	if errors.As(err, &se) {
		return err
	}
	e := &schemes.Error{Scheme: scheme, Phase: "dial", Kind: schemes.KindConnect, Retryable: true, Err: err}
	var dnsErr *net.DNSError
	switch {
	case errors.Is(parent.Err(), context.Canceled) || (parent.Err() == nil && errors.Is(err, context.Canceled)):
		e.Kind, e.Retryable, e.Msg = schemes.KindCanceled, false, "connecting to "+what
		e.Err = context.Canceled
	case errors.As(err, &dnsErr):
		e.Msg = fmt.Sprintf("cannot resolve host %q", dnsErr.Name)
		switch {
		case dnsErr.IsTimeout || isTimeout(err):
			e.Kind = schemes.KindTimeout
		case dnsErr.IsNotFound:
			e.Retryable = false // the name does not exist; asking again will not help
		}
	case isTimeout(err):
		e.Kind, e.Msg = schemes.KindTimeout, "connecting to "+what+" timed out"+timeout
	default:
		e.Msg = "cannot connect to " + what
	}
	return e
}

// tlsError classifies a failed TLS handshake with host: an untrusted or
// mismatched certificate is KindSafety (urlget refuses to talk to a server
// it cannot authenticate unless -k says so); cancellation, timeouts and
// lost connections keep their kinds; anything else is KindProtocol.
func tlsError(parent context.Context, scheme, host string, err error) error {
	var (
		verr  *tls.CertificateVerificationError
		uaerr x509.UnknownAuthorityError
		herr  x509.HostnameError
		cierr x509.CertificateInvalidError
	)
	switch {
	case errors.As(err, &verr), errors.As(err, &uaerr), errors.As(err, &herr), errors.As(err, &cierr):
		return &schemes.Error{Scheme: scheme, Phase: "tls", Kind: schemes.KindSafety, Part: "host",
			Msg: fmt.Sprintf("TLS certificate of %s is not trusted (use --cacert FILE, or -k to skip verification)", host),
			Err: err}
	case parent.Err() != nil, isTimeout(err), errors.Is(err, context.Canceled):
		return dialError(parent, scheme, host+" (TLS handshake)", "", err)
	case errors.Is(err, io.EOF), errors.Is(err, syscall.ECONNRESET):
		return &schemes.Error{Scheme: scheme, Phase: "tls", Kind: schemes.KindConnect, Retryable: true,
			Msg: "TLS handshake with " + host + " failed: connection closed", Err: err}
	}
	return &schemes.Error{Scheme: scheme, Phase: "tls", Kind: schemes.KindProtocol,
		Msg: "TLS handshake with " + host + " failed", Err: err}
}
