package transport

import (
	"bytes"
	"io"
	"net"
	"testing"
	"time"
)

// srcRecorder is a ReaderFrom that writes to a socket as net's does, and
// records what it was handed to read from.
type srcRecorder struct {
	dst  *net.TCPConn
	srcs []io.Reader
}

func (r *srcRecorder) ReadFrom(src io.Reader) (int64, error) {
	lr, _ := src.(*io.LimitedReader)
	if lr != nil {
		r.srcs = append(r.srcs, lr.R)
	}
	return r.dst.ReadFrom(src)
}

// TestReadToSocket: a writer that ends in a socket is handed the
// connection's own *net.TCPConn, the one source net's TCPConn.ReadFrom
// splices from, so the gateway moves an FTP file socket to socket; the
// bytes arrive whole.
func TestReadToSocket(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef"), 200_000) // 3.2 MB
	srv := newServer(t, func(c net.Conn) { c.Write(data) })
	c, err := (&Dialer{IdleTimeout: 10 * time.Second}).Dial(t.Context(), "ftp", "127.0.0.1", srv.port())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan []byte, 1)
	go func() {
		a, err := ln.Accept()
		if err != nil {
			got <- nil
			return
		}
		b, _ := io.ReadAll(a)
		a.Close()
		got <- b
	}()
	dst, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	rec := &srcRecorder{dst: dst.(*net.TCPConn)}
	n, err := c.(*Conn).ReadTo(rec, int64(len(data))+1)
	dst.Close()
	if err != nil || n != int64(len(data)) {
		t.Fatalf("ReadTo: %d, %v; want %d", n, err, len(data))
	}
	if b := <-got; !bytes.Equal(b, data) {
		t.Errorf("the other socket got %d bytes, want the %d sent", len(b), len(data))
	}
	for _, s := range rec.srcs {
		if _, ok := s.(*net.TCPConn); !ok {
			t.Errorf("ReadFrom was handed a %T, not the *net.TCPConn net splices from", s)
		}
	}
	if len(rec.srcs) == 0 {
		t.Error("ReadFrom never called")
	}
}
