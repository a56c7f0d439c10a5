//go:build linux

package transport

import (
	"net"
	"syscall"
	"testing"
)

// TestQuickAcker: the TCP connection is found under a Conn and under a
// wrapper with NetConn (a TLS connection's shape) and put into quick-ACK
// mode; a connection with no socket under it gets nil.
func TestQuickAcker(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	raw, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	for name, c := range map[string]net.Conn{
		"TCPConn":           raw,
		"Conn":              Wrap(nil, raw, 0),
		"wrapper over Conn": &prefixConn{Conn: Wrap(nil, raw, 0)},
	} {
		quick := QuickAcker(c)
		if quick == nil {
			t.Errorf("%s: no quick-ACK setter", name)
			continue
		}
		// Out of quick-ACK mode first, as the kernel leaves it by itself.
		rc, _ := raw.(*net.TCPConn).SyscallConn()
		rc.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_QUICKACK, 0) })
		quick()
		v := -1
		rc.Control(func(fd uintptr) { v, _ = syscall.GetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_QUICKACK) })
		if v != 1 {
			t.Errorf("%s: TCP_QUICKACK is %d after the setter", name, v)
		}
	}
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	if QuickAcker(a) != nil {
		t.Error("a pipe got a quick-ACK setter")
	}
}
