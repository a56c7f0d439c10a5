package transport

import (
	"io"
	"net"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"
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
		deadline := time.Now().Add(3 * time.Second)
		for {
			n := runtime.NumGoroutine()
			if n <= before {
				return
			}
			if time.Now().After(deadline) {
				buf := make([]byte, 1<<16)
				t.Errorf("goroutine leak: %d before, %d after\n%s", before, n, buf[:runtime.Stack(buf, true)])
				return
			}
			runtime.Gosched()
			time.Sleep(5 * time.Millisecond) // polling an exit, not ordering events
		}
	})
}

func itoa(n int) string { return strconv.Itoa(n) }
