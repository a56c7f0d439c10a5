package transport

import (
	"net"
	"testing"
	"time"
)

// TestDialFromLocalIP: with LocalIP set, TCP and UDP connections are made
// from that address (as the server sees them); without, from the
// system's choice.
func TestDialFromLocalIP(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	for _, ip := range []string{"127.0.0.7", ""} {
		d := &Dialer{ConnectTimeout: 5 * time.Second, AllowPorts: []int{ln.Addr().(*net.TCPAddr).Port, pc.LocalAddr().(*net.UDPAddr).Port}}
		want := "127.0.0.1"
		if ip != "" {
			d.LocalIP, want = net.ParseIP(ip), ip
		}
		c, err := d.Dial(t.Context(), "gopher", "127.0.0.1", ln.Addr().(*net.TCPAddr).Port)
		if err != nil {
			t.Fatal(err)
		}
		s, err := ln.Accept()
		if err != nil {
			t.Fatal(err)
		}
		if got := s.RemoteAddr().(*net.TCPAddr).IP.String(); got != want {
			t.Errorf("LocalIP %q: the server saw a TCP connection from %s, want %s", ip, got, want)
		}
		s.Close()
		c.Close()
		u, err := d.DialDatagram(t.Context(), "prospero", "127.0.0.1", pc.LocalAddr().(*net.UDPAddr).Port)
		if err != nil {
			t.Fatal(err)
		}
		u.Write([]byte("x"))
		buf := make([]byte, 8)
		pc.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, from, err := pc.ReadFrom(buf)
		if err != nil {
			t.Fatal(err)
		}
		if got := from.(*net.UDPAddr).IP.String(); got != want {
			t.Errorf("LocalIP %q: the server saw a datagram from %s, want %s", ip, got, want)
		}
		u.Close()
	}
}
