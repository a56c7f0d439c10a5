package ftp

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// replyError maps a server's reply to a command to the one error type.
// 421 is a busy server (RFC 959: service not available, closing the
// control connection), which a later try may find free, after the wait
// its text states, if any (retryAfter); 530 and friends
// are refusals of the login (exit 4); 550 on a CWD, RETR, NLST or LIST
// means the file or directory is not there (exit 3) and keeps the server's
// text; other 4yz replies are transient by RFC 959's definition, so they
// are retryable (425/426 are a data connection that could not open or
// broke; 450/451 a local problem). The server's text passes through
// redact: a server may echo the password back ("530 Login incorrect for
// pa55word").
func (c *ctrl) replyError(loc *URL, phase, command string, rp reply) *schemes.Error {
	msg := c.redact(fmt.Sprintf("%s: server replied %s", command, rp.String()))
	if rp.Code == codeServiceNotAvailable {
		c.broken = true // the server closes the connection after a 421
		e := schemes.BusyError(loc.u.Scheme, phase, rp.Code, msg)
		e.RetryAfter = retryAfter(rp.Text())
		return e
	}
	e := &schemes.Error{Scheme: loc.u.Scheme, Phase: phase, Code: rp.Code, Msg: msg}
	switch {
	case rp.Code == 530 || rp.Code == 532 || rp.Code == 331 || rp.Code == 332:
		e.Kind = schemes.KindPermission
	case rp.Code == 550 || rp.Code == 450 && phase != "login":
		e.Kind = schemes.KindNotFound
		if rp.Code == 450 {
			e.Retryable = true
		}
	case rp.Code == 425 || rp.Code == 426:
		e.Kind, e.Retryable = schemes.KindConnect, true
	case rp.Code >= 400 && rp.Code < 500:
		e.Kind, e.Retryable = schemes.KindProtocol, true
	default:
		e.Kind = schemes.KindProtocol
	}
	return e
}

// redact hides the password of the login in s, text that came from the
// server.
func (c *ctrl) redact(s string) string {
	if c.secret == "" {
		return s
	}
	return strings.ReplaceAll(s, c.secret, schemes.Redacted)
}

// ioError wraps a failure to talk to the server with schemes.IOError
// (cancellation, timeouts, broken connections), naming the scheme and
// phase when it comes from this package's reply reader.
func ioError(loc *URL, phase string, err error) error {
	err = schemes.IOError(loc.u.Scheme, phase, err)
	var se *schemes.Error
	if errors.As(err, &se) && se.Scheme == "" {
		se.Scheme, se.Phase = loc.u.Scheme, phase
	}
	return err
}

// transferError is the error of a data connection that failed mid-transfer:
// one that broke is retryable, as on every scheme.
func transferError(loc *URL, phase string, err error) error {
	err = ioError(loc, phase, err)
	var se *schemes.Error
	if errors.As(err, &se) && se.Kind == schemes.KindConnect {
		se.Msg, se.Retryable = "data connection broke", true
	}
	return err
}

// protoError is a reply the client cannot use.
func protoError(loc *URL, phase, msg string, err error) *schemes.Error {
	return &schemes.Error{Scheme: loc.u.Scheme, Phase: phase, Kind: schemes.KindProtocol,
		Msg: msg, Err: err}
}
