package transport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"syscall"
	"testing"

	"github.com/creack/pty"
)

func TestSpliceTarget(t *testing.T) {
	ptm, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptm.Close()
	defer tty.Close()
	file := spliceFile(t)
	var buf bytes.Buffer
	for _, tc := range []struct {
		name string
		w    io.Writer
		want io.ReaderFrom // nil: not a target
	}{
		{"regular file", file, file},
		{"terminal", tty, nil},
		{"a ReaderFrom that is no file", &buf, &buf},
		{"a writer without ReadFrom", struct{ io.Writer }{file}, nil},
	} {
		rf, ok := SpliceTarget(tc.w)
		if ok != (tc.want != nil) || rf != tc.want {
			t.Errorf("%s: SpliceTarget = %v, %v; want %v", tc.name, rf, ok, tc.want)
		}
	}
}

func TestFromSocket(t *testing.T) {
	opErr := func(err error) error { return &net.OpError{Op: "read", Net: "tcp", Err: err} }
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{opErr(syscall.ECONNRESET), true},
		{os.NewSyscallError("splice", syscall.ETIMEDOUT), true},
		{&IdleTimeoutError{Err: opErr(os.ErrDeadlineExceeded)}, true},
		{opErr(context.Canceled), true},
		{fmt.Errorf("copy: %w", context.DeadlineExceeded), true},
		{io.ErrUnexpectedEOF, true},
		{opErr(net.ErrClosed), true},
		{&fs.PathError{Op: "write", Path: "out", Err: syscall.ENOSPC}, false},
		{os.NewSyscallError("splice", syscall.EPIPE), false}, // the reader of a pipe left
		{errors.New("the copier's own limit"), false},
	} {
		if got := FromSocket(tc.err); got != tc.want {
			t.Errorf("FromSocket(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
