package transport

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/creack/pty"
)

func spliceFile(t *testing.T) *os.File {
	t.Helper()
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestReadToFile(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef"), 200_000) // 3.2 MB
	srv := newServer(t, func(c net.Conn) { c.Write(data) })
	c, err := (&Dialer{IdleTimeout: 10 * time.Second}).Dial(t.Context(), "ftp", "127.0.0.1", srv.port())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	f := spliceFile(t)
	const max = 1 << 20
	var total int64
	for {
		n, err := c.(*Conn).ReadTo(f, max)
		total += n
		if err != nil {
			t.Fatalf("after %d bytes: %v", total, err)
		}
		if n < max {
			break // the server closed
		}
	}
	got, _ := os.ReadFile(f.Name())
	if !bytes.Equal(got, data) || total != int64(len(data)) || c.(*Conn).BytesRead() != total {
		t.Errorf("file %d bytes, ReadTo %d, BytesRead %d; want %d", len(got), total, c.(*Conn).BytesRead(), len(data))
	}
}

// TestReadToStopsAtMax: ReadTo returns once max bytes came, without waiting
// for more or for the end.
func TestReadToStopsAtMax(t *testing.T) {
	srv := newServer(t, func(c net.Conn) {
		c.Write([]byte("0123456789"))
		io.Copy(io.Discard, c) // hold the connection open
	})
	c, err := (&Dialer{IdleTimeout: 10 * time.Second}).Dial(t.Context(), "ftp", "127.0.0.1", srv.port())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	f := spliceFile(t)
	for _, max := range []int64{4, 6} {
		if n, err := c.(*Conn).ReadTo(f, max); n != max || err != nil {
			t.Fatalf("ReadTo(%d) = %d, %v", max, n, err)
		}
	}
	if got, _ := os.ReadFile(f.Name()); string(got) != "0123456789" {
		t.Errorf("file %q", got)
	}
}

// TestReadToSlowTransfer: bytes that keep coming, each within the idle
// timeout, are not failed even when one splice pass outlasts it.
func TestReadToSlowTransfer(t *testing.T) {
	const idle, gap, n = 200 * time.Millisecond, 40 * time.Millisecond, 12
	srv := newServer(t, func(c net.Conn) {
		for range n {
			if _, err := c.Write([]byte{'x'}); err != nil {
				return
			}
			time.Sleep(gap) // the behaviour under test: a slow sender
		}
	})
	c, err := (&Dialer{IdleTimeout: idle}).Dial(t.Context(), "ftp", "127.0.0.1", srv.port())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	got, err := c.(*Conn).ReadTo(spliceFile(t), 1<<20)
	if err != nil || got != n {
		t.Fatalf("ReadTo = %d, %v; want %d bytes", got, err, n)
	}
}

func TestReadToIdle(t *testing.T) {
	srv := newServer(t, silent)
	c, err := (&Dialer{IdleTimeout: 50 * time.Millisecond}).Dial(t.Context(), "ftp", "127.0.0.1", srv.port())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.(*Conn).ReadTo(spliceFile(t), 1<<20)
	var ie *IdleTimeoutError
	if !errors.As(err, &ie) || !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("err %v, want an IdleTimeoutError", err)
	}
}

func TestReadToCanceled(t *testing.T) {
	srv := newServer(t, silent)
	ctx, cancel := context.WithCancel(t.Context())
	c, err := (&Dialer{}).Dial(ctx, "ftp", "127.0.0.1", srv.port())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	errc := make(chan error, 1)
	go func() {
		_, err := c.(*Conn).ReadTo(spliceFile(t), 1<<20)
		errc <- err
	}()
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ReadTo did not return after cancel")
	}
}

func TestSpliceSafe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	ptm, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptm.Close()
	defer tty.Close()
	for _, tc := range []struct {
		name string
		f    *os.File
		want bool
	}{
		{"regular file", spliceFile(t), true},
		{"pipe", w, true},
		{os.DevNull, null, true},
		{"terminal", tty, false},
	} {
		if got := SpliceSafe(tc.f); got != tc.want {
			t.Errorf("%s: SpliceSafe = %v, want %v", tc.name, got, tc.want)
		}
	}
}
