//go:build linux

package transport

import (
	"net"
	"syscall"
)

// LowWater returns a function that sets the receive low-water mark
// (SO_RCVLOWAT) of the TCP connection under c, or nil when there is none.
// With a mark of n, a reader that found the socket empty sleeps until n
// bytes are queued rather than until the first; setting a lower mark
// wakes a reader it now satisfies (Linux checks at once).
func LowWater(c net.Conn) func(n int) {
	rc := tcpSocket(c)
	if rc == nil {
		return nil
	}
	return func(n int) {
		rc.Control(func(fd uintptr) {
			syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVLOWAT, n)
		})
	}
}
