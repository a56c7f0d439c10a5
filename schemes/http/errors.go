package http

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/urlget/urlget/schemes"
)

// requestError classifies a failure to get a response. An *schemes.Error
// from the Dialer (a refused port, an untrusted certificate: TLS goes
// through its StartTLS) is returned as it is, without net/http's wrapping.
// Otherwise a connection that broke or timed out is KindConnect or
// KindTimeout, as schemes.IOError says, and a reply net/http could
// not read is KindProtocol, unless the connection ended while net/http
// read it (cut: see scopedConn.ended): net/http takes the bytes that came
// before the end for a whole line ("H" for a status line, "Content-" for
// a header), and a connection cut there is no different from one cut
// anywhere else before the response was complete.
func requestError(ctx context.Context, timedOut bool, timeout time.Duration, loc *URL, err error, cut bool) error {
	var se *schemes.Error
	if errors.As(err, &se) {
		return se
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // drop net/http's "Get <url>:" prefix: fetch names the URL
	}
	if ctx.Err() != nil {
		return schemes.IOError(loc.g.Scheme, "request", ctx.Err())
	}
	var rhe tls.RecordHeaderError
	var ae tls.AlertError
	switch {
	case timedOut:
		return &schemes.Error{Scheme: loc.g.Scheme, Phase: "request", Kind: schemes.KindTimeout,
			Retryable: true, Msg: fmt.Sprintf("no response within %v", timeout), Err: err}
	case errors.As(err, &rhe), errors.As(err, &ae):
		// A TLS alert after the handshake (a TLS 1.3 server refusing
		// the client at its first read).
		return &schemes.Error{Scheme: loc.g.Scheme, Phase: "tls", Kind: schemes.KindConnect, Err: err}
	}
	e := ioError(loc, "request", err)
	switch {
	case e.Kind == schemes.KindConnect:
		e.Msg = "connection closed before a response"
	case e.Kind == schemes.KindOther && cut:
		e.Kind, e.Retryable, e.Msg = schemes.KindConnect, true, "connection closed inside the response head"
	case e.Kind == schemes.KindOther:
		e.Kind = schemes.KindProtocol
	}
	return e
}

// ioError is schemes.IOError as a copy the caller may change: an
// *schemes.Error in err's chain is copied, not changed in place.
func ioError(loc *URL, phase string, err error) *schemes.Error {
	var se *schemes.Error
	errors.As(schemes.IOError(loc.g.Scheme, phase, err), &se)
	c := *se
	return &c
}
