package transport

import (
	"context"
	"errors"
	"io"
	"net"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/urlget/urlget/internal/await"
	"github.com/urlget/urlget/schemes"
)

// server is an in-test TCP server on 127.0.0.1 running handle for each
// connection; Close waits for handlers to finish.
type server struct {
	ln   net.Listener
	wg   sync.WaitGroup
	mu   sync.Mutex
	conn []net.Conn
}

func newServer(t *testing.T, handle func(net.Conn)) *server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &server{ln: ln}
	s.wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.conn = append(s.conn, c)
			s.mu.Unlock()
			s.wg.Go(func() {
				defer c.Close()
				handle(c)
			})
		}
	})
	t.Cleanup(s.Close)
	return s
}

func (s *server) port() int { return s.ln.Addr().(*net.TCPAddr).Port }

func (s *server) addr() string { return s.ln.Addr().String() }

// Close stops accepting, closes open connections (unblocking silent
// handlers) and waits for every handler.
func (s *server) Close() {
	s.ln.Close()
	s.mu.Lock()
	for _, c := range s.conn {
		c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
}

// echo copies everything back.
func echo(c net.Conn) { io.Copy(c, c) }

// silent reads and discards until the client goes away, never answering.
func silent(c net.Conn) { io.Copy(io.Discard, c) }

// closedPort returns a port on 127.0.0.1 nothing listens on.
func closedPort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	return p
}

// checkGoroutines fails the test if, by its end, more goroutines run than
// at its start (after the ones exiting have had a bounded time to go).
func checkGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		// The exits have no event to wait on: polled, bounded.
		if !await.Poll(func() bool { return runtime.NumGoroutine() <= before }) {
			buf := make([]byte, 1<<16)
			t.Errorf("goroutine leak: %d before, %d after\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
		}
	})
}

func itoa(n int) string { return strconv.Itoa(n) }

// cancelUnblocksRead starts a Read on c, calls cancel, and checks that the
// Read returns at once with an error that is context.Canceled and that
// IOError classifies as KindCanceled.
func cancelUnblocksRead(t *testing.T, c net.Conn, cancel context.CancelFunc, scheme string) {
	t.Helper()
	errc := make(chan error, 1)
	go func() {
		_, err := c.Read(make([]byte, 100))
		errc <- err
	}()
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("read error %v, want context.Canceled", err)
		}
		if k := schemes.KindOf(schemes.IOError(scheme, "read", err)); k != schemes.KindCanceled {
			t.Errorf("IOError kind %v, want canceled", k)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Read did not return after cancel")
	}
}
