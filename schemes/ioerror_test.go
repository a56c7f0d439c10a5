package schemes

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// timeoutError is a net.Error that timed out, as a resolver or a TLS
// library reports one without wrapping os.ErrDeadlineExceeded.
type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return false }

// opError wraps errno the way a socket Read reports it.
func opError(errno syscall.Errno) error {
	return &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", errno)}
}

func TestIOError(t *testing.T) {
	if IOError("ftp", "retr", nil) != nil {
		t.Error("IOError(nil) != nil")
	}
	tests := []struct {
		name      string
		err       error
		kind      Kind
		retryable bool
		msg       string
	}{
		{"EOF", io.EOF, KindConnect, true, "connection closed by the server"},
		{"unexpected EOF", fmt.Errorf("body: %w", io.ErrUnexpectedEOF), KindConnect, true, "connection closed by the server"},
		{"reset", opError(syscall.ECONNRESET), KindConnect, true, "connection lost"},
		{"broken pipe", opError(syscall.EPIPE), KindConnect, true, "connection lost"},
		{"aborted", opError(syscall.ECONNABORTED), KindConnect, true, "connection lost"},
		{"refused", opError(syscall.ECONNREFUSED), KindConnect, true, "connection lost"},
		{"idle deadline", &net.OpError{Op: "read", Err: os.ErrDeadlineExceeded}, KindTimeout, true, "timed out"},
		{"the caller's deadline", &net.OpError{Op: "read", Err: context.DeadlineExceeded}, KindTimeout, false, "timed out"},
		{"net.Error timeout", timeoutError{}, KindTimeout, true, "timed out"},
		{"canceled", &net.OpError{Op: "read", Err: context.Canceled}, KindCanceled, false, "canceled"},
		{"closed by us", &net.OpError{Op: "read", Err: net.ErrClosed}, KindConnect, false, "connection closed"},
		{"anything else", errors.New("disk full"), KindOther, false, ""},
	}
	for _, tt := range tests {
		err := IOError("gopher", "read", tt.err)
		var se *Error
		if !errors.As(err, &se) {
			t.Fatalf("%s: %T, want *Error", tt.name, err)
		}
		if se.Kind != tt.kind || se.Retryable != tt.retryable || se.Msg != tt.msg {
			t.Errorf("%s: kind %v retryable %v msg %q; want %v %v %q", tt.name, se.Kind, se.Retryable, se.Msg,
				tt.kind, tt.retryable, tt.msg)
		}
		if se.Scheme != "gopher" || se.Phase != "read" {
			t.Errorf("%s: scheme %q phase %q", tt.name, se.Scheme, se.Phase)
		}
		if !errors.Is(err, tt.err) {
			t.Errorf("%s: the cause is not in the chain", tt.name)
		}
		if tt.retryable && tt.kind.ExitCode() != 5 {
			t.Errorf("%s: a broken transfer exits %d, want 5", tt.name, tt.kind.ExitCode())
		}
	}

	// An *Error, wrapped or not, is left alone: the handler knew better.
	se := &Error{Kind: KindProtocol, Msg: "bad reply"}
	if got := IOError("ftp", "retr", se); got != se {
		t.Errorf("IOError(*Error) = %v, want it unchanged", got)
	}
	wrapped := fmt.Errorf("reading: %w", se)
	if got := IOError("ftp", "retr", wrapped); got != wrapped {
		t.Errorf("IOError(wrapped *Error) = %v, want it unchanged", got)
	}
}

// idleError stands for transport.IdleTimeoutError (schemes cannot import
// transport): no progress for the idle timeout, wrapping the connection's
// own expired deadline.
type idleError struct{ err error }

func (e idleError) Error() string { return e.err.Error() + " (no progress for 2m0s)" }
func (e idleError) Unwrap() error { return e.err }
func (e idleError) Timeout() bool { return true }

// TestContextKind is the one mapping of cancellation and deadlines, as
// every scheme and the transport apply it: the caller's cancel and
// deadline are final, the connection's own timeouts are worth a retry.
func TestContextKind(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	passed, stop := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer stop()
	live := context.Background()
	readTimeout := &net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded}
	// A dial that ran out of the Dialer's ConnectTimeout: net reports it
	// as an error that is context.DeadlineExceeded, like the caller's.
	connectTimeout := &net.OpError{Op: "dial", Net: "tcp", Err: fmt.Errorf("i/o timeout: %w", context.DeadlineExceeded)}
	tests := []struct {
		name      string
		ctx       context.Context // nil: only the error is known (a Read's)
		err       error
		kind      Kind
		retryable bool
		ok        bool
	}{
		{"canceled, by the context", canceled, readTimeout, KindCanceled, false, true},
		{"canceled, by the error", nil, &net.OpError{Op: "read", Err: context.Canceled}, KindCanceled, false, true},
		{"canceled, live context", live, fmt.Errorf("x: %w", context.Canceled), KindCanceled, false, true},
		{"caller's deadline, by the context", passed, readTimeout, KindTimeout, false, true},
		{"caller's deadline, whatever failed", passed, io.EOF, KindTimeout, false, true},
		{"caller's deadline, by the error (-m)", nil, &net.OpError{Op: "read", Err: context.DeadlineExceeded}, KindTimeout, false, true},
		{"idle timeout", nil, idleError{readTimeout}, KindTimeout, true, true},
		{"idle timeout, live context", live, idleError{readTimeout}, KindTimeout, true, true},
		{"handler's read deadline", nil, readTimeout, KindTimeout, true, true},
		{"connect timeout", live, connectTimeout, KindTimeout, true, true},
		{"DNS timeout", live, &net.DNSError{Err: "timeout", Name: "h", IsTimeout: true}, KindTimeout, true, true},
		{"net.Error timeout", nil, timeoutError{}, KindTimeout, true, true},
		{"no timeout", live, io.EOF, KindOther, false, false},
		{"no timeout, no context", nil, errors.New("x"), KindOther, false, false},
	}
	for _, tt := range tests {
		kind, retryable, ok := ContextKind(tt.ctx, tt.err)
		if kind != tt.kind || retryable != tt.retryable || ok != tt.ok {
			t.Errorf("%s: %v retryable %v ok %v; want %v %v %v", tt.name, kind, retryable, ok, tt.kind, tt.retryable, tt.ok)
		}
		if tt.ctx != nil {
			continue
		}
		// With no context the error alone decides, and IOError and KindOf
		// give the same answer.
		se := IOError("ftp", "retr", tt.err).(*Error)
		if se.Kind != tt.kind || se.Retryable != tt.retryable || KindOf(tt.err) != tt.kind {
			t.Errorf("%s: IOError %v retryable %v, KindOf %v; want %v %v", tt.name, se.Kind, se.Retryable, KindOf(tt.err), tt.kind, tt.retryable)
		}
	}
}

func TestIsTimeout(t *testing.T) {
	for _, err := range []error{context.DeadlineExceeded, os.ErrDeadlineExceeded, timeoutError{},
		fmt.Errorf("x: %w", os.ErrDeadlineExceeded)} {
		if !IsTimeout(err) {
			t.Errorf("IsTimeout(%v) = false", err)
		}
	}
	for _, err := range []error{nil, io.EOF, context.Canceled, errors.New("timeout")} {
		if IsTimeout(err) {
			t.Errorf("IsTimeout(%v) = true", err)
		}
	}
}

func TestScrubSecrets(t *testing.T) {
	const pw = "pa55word"
	cause := &fs.PathError{Op: "open", Path: "/srv/" + pw + "/x", Err: fs.ErrNotExist}
	orig := &Error{Scheme: "ftp", Phase: "login", Kind: KindNotFound, Code: 550, URL: "ftp://fred@h/" + pw,
		Part: "path", Msg: "550 no such file for " + pw, Retryable: true, RetryAfter: time.Second, Err: cause}
	err := ScrubSecrets(orig, "", Redacted, pw, "not-there")
	if s := err.Error(); strings.Contains(s, pw) || !strings.Contains(s, "550 no such file for ****") {
		t.Errorf("scrubbed text %q", s)
	}
	var se *Error
	if !errors.As(err, &se) {
		t.Fatalf("scrubbed error %T is no *Error", err)
	}
	if se == orig {
		t.Error("ScrubSecrets changed the caller's *Error in place of a copy")
	}
	if strings.Contains(orig.Msg, "****") {
		t.Error("the original *Error was modified")
	}
	want := *orig
	want.Msg, want.URL, want.Err = "550 no such file for ****", "ftp://fred@h/****", se.Err
	if *se != want {
		t.Errorf("fields\n%+v\nwant\n%+v", *se, want)
	}
	if strings.Contains(se.Err.Error(), pw) {
		t.Errorf("the cause's text %q still holds the secret", se.Err.Error())
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Error("errors.Is(scrubbed, fs.ErrNotExist) = false")
	}
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe != cause {
		t.Error("errors.As no longer finds the cause")
	}
	if KindOf(err) != KindNotFound || !IsRetryable(err) {
		t.Errorf("kind %v retryable %v", KindOf(err), IsRetryable(err))
	}

	// Any other error keeps its chain under the scrubbed text.
	plain := fmt.Errorf("login for %s: %w", pw, context.Canceled)
	err = ScrubSecrets(plain, pw)
	if err.Error() != "login for ****: context canceled" || !errors.Is(err, context.Canceled) {
		t.Errorf("scrubbed %q, Is(canceled) %v", err, errors.Is(err, context.Canceled))
	}

	// Nothing to scrub: the very same error.
	if ScrubSecrets(orig, "elsewhere", "") != error(orig) {
		t.Error("an error without the secret was replaced")
	}
	if ScrubSecrets(nil, pw) != nil {
		t.Error("ScrubSecrets(nil) != nil")
	}
}

func TestBusyError(t *testing.T) {
	err := BusyError("ftp", "connect", 421, "421 too many users")
	if err.Kind != KindBusy || err.Kind.ExitCode() != 5 || !IsRetryable(err) || err.Code != 421 {
		t.Errorf("BusyError %+v: want KindBusy, exit 5, retryable, code 421", err)
	}
	if err.Kind.String() != "busy" || err.Error() != "421 too many users" || err.URL != "" {
		t.Errorf("kind %q, text %q", err.Kind, err.Error())
	}
	if KindOf(fmt.Errorf("x: %w", err)) != KindBusy {
		t.Error("KindOf does not see a wrapped BusyError")
	}
}

func TestScrubSecretsWrappedError(t *testing.T) {
	inner := &Error{Kind: KindPermission, Code: 530, Msg: "530 Login incorrect for pa55word"}
	err := ScrubSecrets(fmt.Errorf("login: %w", inner), "pa55word")
	if strings.Contains(err.Error(), "pa55word") {
		t.Fatalf("text shows the password: %v", err)
	}
	var se *Error
	if !errors.As(err, &se) || se.Code != 530 || strings.Contains(se.Msg, "pa55word") || !strings.Contains(se.Msg, Redacted) {
		t.Fatalf("errors.As found %#v; want a scrubbed copy", se)
	}
	if !errors.Is(err, fs.ErrPermission) {
		t.Errorf("errors.Is lost the kind")
	}
	if inner.Msg != "530 Login incorrect for pa55word" {
		t.Errorf("the original was modified: %q", inner.Msg)
	}
}
