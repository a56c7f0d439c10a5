package schemes

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"
	"testing"
)

// TestErrorTextHasNoGoJargon: Go's "context canceled" and "context
// deadline exceeded" never reach a person; the message says canceled or
// timed out, and errors.Is still finds the sentinel.
func TestErrorTextHasNoGoJargon(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  *Error
		want string
	}{
		{"canceled read", &Error{URL: "ftp://h/x", Kind: KindCanceled, Msg: "canceled", Err: context.Canceled}, "ftp://h/x: canceled"},
		{"no message", &Error{URL: "ftp://h/x", Kind: KindCanceled, Err: context.Canceled}, "ftp://h/x: canceled"},
		{"caller's deadline", &Error{URL: "http://h/", Kind: KindTimeout, Err: context.DeadlineExceeded}, "http://h/: timed out"},
		{"a cause with words of its own stays", &Error{Kind: KindCanceled, Msg: "canceled", Err: fmt.Errorf("reading the menu: %w", context.Canceled)},
			"canceled: reading the menu: context canceled"},
		{"other causes stay", &Error{Kind: KindConnect, Msg: "cannot connect", Err: errors.New("no route")}, "cannot connect: no route"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.err.Error(); got != tc.want {
				t.Errorf("Error() = %q, want %q", got, tc.want)
			}
			if tc.err.Err != nil && !errors.Is(tc.err, tc.err.Err) {
				t.Errorf("the cause left the chain")
			}
		})
	}
}

// TestExitCodes: every kind's exit status, the command's contract with
// scripts (README "Exit status"); a local file error has a code of its
// own, curl's 23, shared with no remote failure.
func TestExitCodes(t *testing.T) {
	want := map[Kind]int{
		KindOther: 1, KindUsage: 2, KindNotFound: 3, KindPermission: 4, KindConnect: 5, KindTimeout: 5, KindBusy: 5,
		KindProtocol: 6, KindSafety: 7, KindUnsupported: 8, KindCanceled: 1, KindLocal: 23,
	}
	for k := range Kind(len(kindNames)) {
		code, ok := want[k]
		if !ok {
			t.Errorf("kind %v: no exit code in this test", k)
			continue
		}
		if k.ExitCode() != code {
			t.Errorf("kind %v exits %d, want %d", k, k.ExitCode(), code)
		}
	}
	if KindLocal.String() != "local" {
		t.Errorf("KindLocal is %q in --json", KindLocal.String())
	}
}

// TestInWords: Go's socket errors read as the system's reason alone, or
// as nothing when they only say a deadline passed; the error stays in
// the chain.
func TestInWords(t *testing.T) {
	reset := &net.OpError{Op: "read", Net: "tcp", Source: &net.TCPAddr{IP: net.IPv4(10, 0, 0, 1), Port: 5000},
		Addr: &net.TCPAddr{IP: net.IPv4(10, 0, 0, 2), Port: 21}, Err: os.NewSyscallError("read", syscall.ECONNRESET)}
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	deadline := &net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded}
	plain := errors.New("disk full")
	for _, tc := range []struct {
		err  error
		want string
	}{
		{reset, "connection reset by peer"},
		{refused, "connection refused"},
		{deadline, ""},
		{plain, "disk full"},
	} {
		got := InWords(tc.err)
		if got.Error() != tc.want || !errors.Is(got, tc.err) {
			t.Errorf("InWords(%q) = %q, want %q wrapping it", tc.err, got, tc.want)
		}
	}
	// As an *Error's cause, through IOError.
	if got := IOError("ftp", "retr", reset).Error(); got != "connection lost: connection reset by peer" {
		t.Errorf("IOError: %q", got)
	}
	if got := IOError("ftp", "retr", deadline).Error(); got != "timed out" {
		t.Errorf("IOError of a deadline: %q", got)
	}
}
