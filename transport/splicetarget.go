package transport

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"syscall"
)

// SpliceTarget returns w's ReadFrom when handing it a connection through
// Conn.ReadTo is safe: an *os.File must accept splice(2) (SpliceSafe);
// any other io.ReaderFrom (a download's work file, a progress counter, a
// copier that moves bytes in passes) is trusted to end in one that does,
// or to copy. ok is false when w has no ReadFrom, or is a file that could
// lose bytes the kernel already took off the socket.
func SpliceTarget(w io.Writer) (rf io.ReaderFrom, ok bool) {
	if f, isFile := w.(*os.File); isFile && !SpliceSafe(f) {
		return nil, false
	}
	rf, ok = w.(io.ReaderFrom)
	return rf, ok
}

// FromSocket tells a failed ReadTo whose fault it is: true when the
// connection broke (reset, timeout, a canceled context, closed under the
// transfer), false when the writer refused the bytes (a full disk, a pipe
// whose reader is gone), which splice(2) reports the same way. The first
// is a transfer to retry; the second is the local side's.
func FromSocket(err error) bool {
	if errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(err, context.Canceled) ||
		errors.Is(err, context.DeadlineExceeded) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, net.ErrClosed) { // Close during the splice
		return true
	}
	for _, errno := range []syscall.Errno{syscall.ECONNRESET, syscall.ECONNABORTED, syscall.ETIMEDOUT,
		syscall.ENETRESET, syscall.ENETUNREACH, syscall.EHOSTUNREACH, syscall.ENOTCONN} {
		if errors.Is(err, errno) {
			return true
		}
	}
	return false
}
