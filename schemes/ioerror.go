package schemes

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"syscall"
	"time"
)

// IOError turns an error from a connection's Read or Write into an *Error
// for scheme and phase, the same way for every handler:
//
//   - cancellation and expired deadlines as ContextKind says (the
//     caller's cancel and deadline are not retryable, an idle timeout is);
//   - a connection closed, reset or refused mid-exchange is KindConnect,
//     retryable: a transfer that breaks is exit 5 and worth another try on
//     every scheme.
//
// An *Error is returned unchanged and nil stays nil. Anything else is
// KindOther, wrapped. The URL is left to the caller (fetch names it).
func IOError(scheme, phase string, err error) error {
	if err == nil {
		return nil
	}
	var se *Error
	if errors.As(err, &se) {
		return err
	}
	e := &Error{Scheme: scheme, Phase: phase, Kind: KindOther, Err: InWords(err)}
	if kind, retry, ok := ContextKind(nil, err); ok {
		e.Kind, e.Retryable, e.Msg = kind, retry, "timed out"
		if kind == KindCanceled {
			e.Msg = "canceled"
		}
		return e
	}
	switch {
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

// InWords is err as the cause of a message a person reads. Go's socket
// errors name the socket and the system call ("read tcp 10.0.0.1:5000->
// 10.0.0.2:21: read: connection reset by peer"), which the message's URL
// and words say better: such an error reads as the system's reason alone
// ("connection reset by peer"), and as nothing when all it says is that
// a deadline passed ("i/o timeout": the message says "timed out"). It
// still unwraps to err. Any other error is returned as it is.
func InWords(err error) error {
	op, ok := err.(*net.OpError)
	if !ok {
		return err
	}
	var errno syscall.Errno
	switch {
	case errors.As(op.Err, &errno):
		return Reason(errno.Error(), err)
	case IsTimeout(op.Err):
		return Reason("", err)
	}
	return err
}

// ContextKind is the one mapping of cancellation and expired deadlines to
// a Kind and a retry verdict, for every scheme and for the transport (see
// Error). ctx is the context of the request that failed with err, or nil
// when only err is at hand (a Read's error): then context.DeadlineExceeded
// in err's chain is taken for the caller's deadline, which is how a
// transport.Conn reports it, while a deadline of the connection's own (an
// idle timeout, a handler's SetDeadline) is os.ErrDeadlineExceeded.
//
//   - ctx canceled, or context.Canceled in err: KindCanceled, not retryable;
//   - ctx's deadline passed (or, with no ctx, context.DeadlineExceeded in
//     err): KindTimeout, not retryable — the caller's time is up, whatever
//     failed first;
//   - any other timeout while ctx goes on (no progress for the idle
//     timeout, the connect timeout, a DNS timeout, a handler's read
//     deadline): KindTimeout, retryable.
//
// ok is false, and kind KindOther, when err is none of these and ctx is
// not done.
func ContextKind(ctx context.Context, err error) (kind Kind, retryable, ok bool) {
	var done error
	if ctx != nil {
		done = ctx.Err()
		if dl, ok := ctx.Deadline(); ok && done == nil && !time.Now().Before(dl) {
			// Passed, but its timer has yet to mark ctx: a socket
			// deadline set from it can expire a moment earlier.
			done = context.DeadlineExceeded
		}
	}
	switch {
	case errors.Is(done, context.Canceled), done == nil && errors.Is(err, context.Canceled):
		return KindCanceled, false, true
	case done != nil, ctx == nil && errors.Is(err, context.DeadlineExceeded):
		return KindTimeout, false, true
	case IsTimeout(err):
		return KindTimeout, true, true
	}
	return KindOther, false, false
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
func BusyError(scheme, phase string, code int, msg string) *Error {
	return &Error{Scheme: scheme, Phase: phase, Kind: KindBusy, Code: code, Msg: msg, Retryable: true}
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
