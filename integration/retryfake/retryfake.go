// Package retryfake has servers on 127.0.0.1 that fail in the ways
// --retry is for — refusing, busy, cutting a transfer short, stalling —
// and count what they receive, for the retry tests of more than one
// package (fetch, the command). It lives under integration/ because it
// listens: only transport/ and test infrastructure may open sockets.
package retryfake

import (
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// Body is what every server sends when it sends the resource: 10,000
// bytes of text, so that a test can compare a file or stdout with it.
var Body = strings.Repeat("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-retry-body\n", 136)[:10000]

// ModTime is the resource's modification time (HTTP Last-Modified, FTP
// MDTM), the same on every answer, so that the resume rule allows a
// continued copy.
var ModTime = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// Fault is how a server fails the first attempts it receives.
type Fault int

const (
	// Busy: HTTP 503 with Retry-After: 1 and Connection: close; FTP 421
	// "try again in 1 second" as the greeting, then the connection closes.
	Busy Fault = iota
	// Cut: the headers (HTTP) or 150 (FTP), then half of the bytes still
	// to send, then every connection of the attempt closes.
	Cut
	// Stall: like Cut, but instead of closing the server falls silent
	// until the client leaves.
	Stall
)

// Server counts what it receives. Its methods are safe for concurrent use.
type Server struct {
	// URL is the resource's URL: http://127.0.0.1:port/f or
	// ftp://127.0.0.1:port/f.
	URL string

	fault Fault
	times int // attempts that fail; after them the server serves

	mu       sync.Mutex
	conns    int     // connections accepted (FTP: control connections)
	attempts []int64 // per attempt (HTTP request, FTP RETR or 421), the offset it asked for
}

// Conns is the number of connections the server accepted (FTP: control
// connections).
func (s *Server) Conns() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conns
}

// Offsets are the byte offsets the attempts asked to start at (HTTP
// Range, FTP REST; 0 for the start), one per attempt in order: an HTTP
// request, an FTP RETR, or an FTP connection turned away with 421.
func (s *Server) Offsets() []int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]int64(nil), s.attempts...)
}

// accepted counts a connection.
func (s *Server) accepted() {
	s.mu.Lock()
	s.conns++
	s.mu.Unlock()
}

// serve accepts the connections of ln until it is closed, counts them,
// and hands each to handle on a goroutine of its own.
func (s *Server) serve(ln net.Listener, handle func(net.Conn)) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		s.accepted()
		go handle(c)
	}
}

// attempt counts an attempt at offset and says whether it is one that
// fails.
func (s *Server) attempt(offset int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.attempts = append(s.attempts, offset)
	return len(s.attempts) <= s.times
}

// listen opens a listener on 127.0.0.1 closed when t ends.
func listen(t testing.TB) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln
}

// Closing is a server that accepts every connection and closes it at
// once: a refusal that can be counted (a refused port cannot), which
// every scheme sees as a connection closed by the server, retryable.
// Its URL is http://127.0.0.1:port/f.
func Closing(t testing.TB) *Server {
	ln := listen(t)
	s := &Server{URL: "http://" + ln.Addr().String() + "/f"}
	go s.serve(ln, func(c net.Conn) { c.Close() })
	return s
}

// Refused is a URL of a port on 127.0.0.1 that nothing listens on.
func Refused(t testing.TB) string {
	ln := listen(t)
	ln.Close() // the port is free again: connecting to it is refused
	return "http://" + ln.Addr().String() + "/f"
}
