package schemes

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"syscall"
)

// IOError turns an error from a connection's Read or Write into an *Error
// for scheme and phase, the same way for every handler:
//
//   - the caller's cancellation is KindCanceled;
//   - an expired deadline (idle timeout, --max-time) is KindTimeout;
//   - a connection closed, reset or refused mid-exchange is KindConnect;
//
// and the last two are retryable: a transfer that breaks is exit 5 and
// worth another try on every scheme. An *Error is returned unchanged and
// nil stays nil. Anything else is KindOther, wrapped.
func IOError(scheme, phase string, err error) error {
	if err == nil {
		return nil
	}
	var se *Error
	if errors.As(err, &se) {
		return err
	}
	e := &Error{Scheme: scheme, Phase: phase, Kind: KindOther, Err: err}
	switch {
	case errors.Is(err, context.Canceled):
		e.Kind, e.Msg = KindCanceled, "canceled"
	case IsTimeout(err):
		e.Kind, e.Msg, e.Retryable = KindTimeout, "timed out", true
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		e.Kind, e.Msg, e.Retryable = KindConnect, "connection closed by the server", true
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE), errors.Is(err, syscall.ECONNABORTED),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ETIMEDOUT):
		e.Kind, e.Msg, e.Retryable = KindConnect, "connection lost", true
	case errors.Is(err, net.ErrClosed):
		e.Kind, e.Msg = KindConnect, "connection closed"
	}
	return e
}

// IsTimeout reports whether err is an expired deadline of any sort.
func IsTimeout(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// BusyError is the error for a server that says it is busy or limits the
// client's rate (FTP 421, HTTP 503 and 429, NNTP 400): KindBusy, exit 5,
// retryable, after the server's RetryAfter when it gave one.
func BusyError(scheme, phase, url string, code int, msg string) *Error {
	return &Error{Scheme: scheme, Phase: phase, Kind: KindBusy, Code: code, URL: url, Msg: msg, Retryable: true}
}

// ScrubSecrets returns err with every secret replaced by "****" in the
// text it shows, for a server that echoes a password back in its reply
// ("530 Login incorrect for pa55word"). The chain under it still answers
// errors.Is and errors.As; an *Error keeps its fields. Empty secrets are
// ignored; nil stays nil.
func ScrubSecrets(err error, secrets ...string) error {
	if err == nil {
		return nil
	}
	var live []string
	for _, s := range secrets {
		if s != "" && s != Redacted && strings.Contains(err.Error(), s) {
			live = append(live, s)
		}
	}
	if len(live) == 0 {
		return err
	}
	scrub := func(s string) string {
		for _, sec := range live {
			s = strings.ReplaceAll(s, sec, Redacted)
		}
		return s
	}
	if se, ok := err.(*Error); ok {
		return se.scrubbed(live, scrub)
	}
	return &scrubbed{err: err, msg: scrub(err.Error()), secrets: live}
}

// scrubbed returns a copy of e with its texts scrubbed.
func (e *Error) scrubbed(secrets []string, scrub func(string) string) *Error {
	c := *e
	c.Msg, c.URL = scrub(c.Msg), scrub(c.URL)
	if c.Err != nil {
		c.Err = &scrubbed{err: c.Err, msg: scrub(c.Err.Error()), secrets: secrets}
	}
	return &c
}

// scrubbed shows msg in place of err's text, and unwraps to err. An
// errors.As for an *Error deeper in the chain gets a scrubbed copy, so that
// no caller can dig the password out of a wrapped Msg.
type scrubbed struct {
	err     error
	msg     string
	secrets []string
}

func (s *scrubbed) Error() string { return s.msg }
func (s *scrubbed) Unwrap() error { return s.err }

// As answers errors.As for **Error with a scrubbed copy of the first *Error
// in the chain below.
func (s *scrubbed) As(target any) bool {
	p, ok := target.(**Error)
	if !ok {
		return false
	}
	var inner *Error
	if !errors.As(s.err, &inner) {
		return false
	}
	*p = inner.scrubbed(s.secrets, func(t string) string {
		for _, sec := range s.secrets {
			t = strings.ReplaceAll(t, sec, Redacted)
		}
		return t
	})
	return true
}
