package transport

import (
	"errors"
	"io"
	"net"
	"os"
	"syscall"
)

// ReadTo moves up to max bytes from the connection to w through
// w.ReadFrom, under the same idle deadline, cancellation and byte count as
// Read. When w is (or ends in) an *os.File or a *net.TCPConn and the
// connection is a plain TCP one, the kernel can splice the bytes straight
// from the socket to the file or the other socket: no copy through user
// memory. Pass only writers whose file accepts
// splice(2) (see SpliceSafe): the kernel takes the bytes off the socket
// before it learns that the file refuses them.
//
// A count below max with a nil error means the peer closed its side.
// A peer that keeps sending but pauses longer than the idle timeout
// between two bursts is not failed while the count moves: the idle
// deadline is renewed after each pass that made progress, so a stall is
// reported after between one and two idle timeouts.
func (c *Conn) ReadTo(w io.ReaderFrom, max int64) (int64, error) {
	lr := &io.LimitedReader{R: rawReader{c.Conn}, N: max}
	if tc, ok := c.Conn.(*net.TCPConn); ok {
		// The socket itself: net's TCPConn.ReadFrom splices only from a
		// *net.TCPConn, so a writer that ends in a socket (the gateway's
		// response) gets the bytes socket to socket; os.File.ReadFrom
		// takes it as it takes rawReader.
		lr.R = tc
	}
	var total int64
	for lr.N > 0 {
		if err := c.arm(false); err != nil {
			return total, c.opError("read", err)
		}
		before := lr.N
		n, err := w.ReadFrom(lr)
		total += n
		c.nread.Add(n)
		if err == nil {
			return total, nil // max reached, or the peer's EOF
		}
		err = c.explain("read", err, false)
		var idle *IdleTimeoutError
		if errors.As(err, &idle) && lr.N < before {
			continue // it moved during this pass: not idle, renew
		}
		return total, err
	}
	return total, nil
}

// rawReader exposes the connection under the wrapper to os.File.ReadFrom:
// its SyscallConn is what lets the os package splice, and its Read serves
// the writers that copy instead. Deadlines were set by ReadTo.
type rawReader struct{ c net.Conn }

func (r rawReader) Read(p []byte) (int, error) { return r.c.Read(p) }

// SyscallConn returns the descriptor of a *net.TCPConn (or any conn that
// offers one); for any other conn it fails, and os.File.ReadFrom copies.
func (r rawReader) SyscallConn() (syscall.RawConn, error) {
	if sc, ok := r.c.(syscall.Conn); ok {
		return sc.SyscallConn()
	}
	return nil, errors.ErrUnsupported
}

// SpliceSafe reports whether f can be handed to ReadTo: a regular file, a
// pipe or /dev/null, which all accept splice(2). A terminal or other
// device may refuse it, and data already taken off the socket would then
// be lost, so ReadTo must not write to one.
func SpliceSafe(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	switch m := fi.Mode(); {
	case m.IsRegular(), m&os.ModeNamedPipe != 0:
		return true
	case m&os.ModeCharDevice != 0:
		null, err := os.Stat(os.DevNull)
		return err == nil && os.SameFile(fi, null)
	}
	return false
}
