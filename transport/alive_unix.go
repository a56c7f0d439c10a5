//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package transport

import (
	"errors"
	"net"
	"syscall"

	"golang.org/x/sys/unix"
)

// peekSocket tells what waits in the socket of c, a connection at rest:
// nothing (restQuiet), bytes (restData), or its end or an error
// (restEnded). Protocols whose server never speaks unasked (FTP, NNTP,
// WAIS, SMTP between commands) have a connection out of step or dead when
// there is anything: a last word before closing ("421 Timeout"), a stray
// reply, the end of the stream, a reset. The check peeks without blocking
// and consumes nothing. A connection of another dialer, with no socket to
// peek at, counts as quiet: its first command will tell.
func peekSocket(c net.Conn) restState {
	tc, ok := ConnOf(c)
	if !ok {
		return restQuiet
	}
	sc, ok := tc.Conn.(syscall.Conn)
	if !ok {
		return restQuiet
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return restEnded
	}
	state := restEnded
	err = raw.Read(func(fd uintptr) bool {
		var b [1]byte
		n, _, rerr := unix.Recvfrom(int(fd), b[:], unix.MSG_PEEK|unix.MSG_DONTWAIT)
		switch {
		case n > 0:
			state = restData
		case n <= 0 && (errors.Is(rerr, unix.EAGAIN) || errors.Is(rerr, unix.EWOULDBLOCK)):
			state = restQuiet
		}
		return true // done either way: never wait for readiness
	})
	if err != nil {
		return restEnded
	}
	return state
}
