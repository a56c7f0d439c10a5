//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package transport

import (
	"errors"
	"net"
	"syscall"

	"golang.org/x/sys/unix"
)

// connAlive reports whether c, a connection at rest, may still be used: its
// socket has nothing to read and is not at its end. Protocols whose
// server never speaks unasked (FTP, NNTP, WAIS, SMTP between commands)
// have a dead connection when there is something to read: the end of the
// stream, a reset, or a last word before closing ("421 Timeout"). The
// check peeks without blocking and consumes nothing. A connection of
// another dialer, with no socket to peek at, counts as alive: its first
// command will tell.
func connAlive(c net.Conn) bool {
	tc, ok := ConnOf(c)
	if !ok {
		return true
	}
	sc, ok := tc.Conn.(syscall.Conn)
	if !ok {
		return true
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	alive := false
	err = raw.Read(func(fd uintptr) bool {
		var b [1]byte
		n, _, rerr := unix.Recvfrom(int(fd), b[:], unix.MSG_PEEK|unix.MSG_DONTWAIT)
		alive = n <= 0 && (errors.Is(rerr, unix.EAGAIN) || errors.Is(rerr, unix.EWOULDBLOCK))
		return true // done either way: never wait for readiness
	})
	return err == nil && alive
}
