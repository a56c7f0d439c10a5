//go:build linux

package ldap

import (
	"io"
	"net"
	"syscall"
	"testing"
	"time"

	"github.com/urlget/urlget/internal/await"
)

// rcvLowat is the socket's SO_RCVLOWAT as the kernel holds it.
func rcvLowat(t *testing.T, c net.Conn) int {
	t.Helper()
	rc, err := c.(*net.TCPConn).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var v int
	rc.Control(func(fd uintptr) { v, err = syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVLOWAT) })
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestBatchConn: a Read waiting for a batch sleeps past a smaller write,
// and dropping the mark (what batchWait's timer does) wakes it with what
// came — the kernel's behaviour the batches rely on; a Read with the
// batch queued returns it at once, the mark kept; rest drops the mark
// for the pool.
func TestBatchConn(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	srv := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err == nil {
			srv <- c
		}
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s := <-srv
	defer s.Close()
	b := newBatchConn(c)
	if b.set == nil {
		t.Fatal("no low-water mark on a TCP connection")
	}

	b.want, b.wait = batchMark, time.Hour // the test drops the mark itself
	got := make(chan int, 1)
	go func() {
		n, _ := b.Read(make([]byte, 64<<10))
		got <- n
	}()
	await.Until(t, "the Read setting the mark", func() bool { return rcvLowat(t, c) == batchMark })
	s.Write([]byte("ten bytes!"))
	b.drop()
	select {
	case n := <-got:
		if n != 10 {
			t.Errorf("read %d bytes, want the 10 sent", n)
		}
	case <-time.After(10 * time.Second): // a bound, not an order: the drop should wake it at once
		t.Fatal("dropping the mark did not wake the Read")
	}

	s.Write(make([]byte, 2*batchMark))
	buf := make([]byte, 4*batchMark)
	if _, err := io.ReadAtLeast(b, buf, 2*batchMark); err != nil {
		t.Fatal(err)
	}
	if m := rcvLowat(t, c); m != batchMark {
		t.Errorf("mark %d while the batch came, want %d", m, batchMark)
	}
	b.rest()
	if m := rcvLowat(t, c); m != 1 {
		t.Errorf("mark %d at rest, want 1", m)
	}
}
