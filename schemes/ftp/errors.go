package ftp

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/urlget/urlget/schemes"
)

// replyError maps a server's reply to a command to the one error type.
// 530 and friends are refusals of the login (exit 4); 550 on a CWD, RETR,
// NLST or LIST means the file or directory is not there (exit 3) and keeps
// the server's text; 4yz replies are transient by RFC 959's definition, so
// they are retryable (421 closes the connection; 425/426 are a data
// connection that could not open or broke; 450/451 a local problem).
func replyError(loc *URL, phase, command string, rp reply) *schemes.Error {
	e := &schemes.Error{Scheme: loc.u.Scheme, Phase: phase, Code: rp.Code, URL: loc.Redacted(),
		Msg: fmt.Sprintf("%s: server replied %s", command, rp.String())}
	switch {
	case rp.Code == 530 || rp.Code == 532 || rp.Code == 331 || rp.Code == 332:
		e.Kind = schemes.KindPermission
	case rp.Code == 550 || rp.Code == 450 && phase != "login":
		e.Kind = schemes.KindNotFound
		if rp.Code == 450 {
			e.Retryable = true
		}
	case rp.Code == 421 || rp.Code == 425:
		e.Kind, e.Retryable = schemes.KindConnect, true
	case rp.Code >= 400 && rp.Code < 500:
		e.Kind, e.Retryable = schemes.KindProtocol, true
	default:
		e.Kind = schemes.KindProtocol
	}
	return e
}

// ioError wraps a failure to talk to the server. A canceled context and a
// deadline keep their kinds; anything else on an established connection is
// a broken connection, which a retry may fix.
func ioError(ctx context.Context, loc *URL, phase string, err error) *schemes.Error {
	var se *schemes.Error
	if errors.As(err, &se) {
		if se.URL == "" {
			se.URL = loc.Redacted()
		}
		return se
	}
	e := &schemes.Error{Scheme: loc.u.Scheme, Phase: phase, URL: loc.Redacted(), Err: err}
	switch {
	case errors.Is(err, context.Canceled) || ctx.Err() == context.Canceled:
		e.Kind, e.Msg = schemes.KindCanceled, "canceled"
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded):
		e.Kind, e.Msg, e.Retryable = schemes.KindTimeout, "timed out", true
	default:
		e.Kind, e.Msg, e.Retryable = schemes.KindConnect, "connection to the server broke", true
	}
	return e
}

// protoError is a reply the client cannot use.
func protoError(loc *URL, phase, msg string, err error) *schemes.Error {
	return &schemes.Error{Scheme: loc.u.Scheme, Phase: phase, Kind: schemes.KindProtocol, URL: loc.Redacted(),
		Msg: msg, Err: err}
}
