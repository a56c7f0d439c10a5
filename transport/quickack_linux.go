//go:build linux

package transport

import (
	"net"
	"syscall"
)

// QuickAcker returns a function that puts the TCP connection under c (c
// itself, or below a TLS connection or a Conn) into quick-ACK mode, or nil
// when there is none (a pipe, a test double). Call it after each request
// is written: the kernel leaves quick-ACK mode by itself.
//
// Why: servers that write a reply in two writes (a status line or header,
// then the data: INN, freeWAIS-sf) with Nagle's algorithm on hold the
// second until the first is acknowledged, and Linux delays that ACK by up
// to 40 ms, so every exchange took ~42 ms on loopback instead of well under
// one. TCP_QUICKACK makes the client acknowledge at once.
func QuickAcker(c net.Conn) func() {
	rc := tcpSocket(c)
	if rc == nil {
		return nil
	}
	return func() {
		rc.Control(func(fd uintptr) {
			syscall.SetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_QUICKACK, 1)
		})
	}
}
