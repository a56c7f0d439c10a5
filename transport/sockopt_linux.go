//go:build linux

package transport

import (
	"net"
	"syscall"
)

// tcpSocket is the raw socket of the TCP connection under c (c itself,
// or below a TLS connection or a Conn), for a socket option; nil when
// there is none (a pipe, a test double).
func tcpSocket(c net.Conn) syscall.RawConn {
	tc, ok := Under[*net.TCPConn](c)
	if !ok {
		return nil
	}
	rc, err := tc.SyscallConn()
	if err != nil {
		return nil
	}
	return rc
}
