// Package hostile has fake servers that each break one rule of their
// protocol — a reply line of 300 MB, a greeting of millions of lines, a
// menu of a million items, a reply cut short, a peer that never answers —
// for the hostile-servers suite, which runs the built urlget against them
// and asserts its exit code, its files and its peak memory.
//
// Every fake listens on 127.0.0.1 on an ephemeral port and generates its
// data as it writes it, from a small buffer: a fake never holds what it
// sends, so the memory measured is the client's.
package hostile

import (
	"errors"
	"io"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
)

// maxRecorded bounds what a Server keeps of the bytes clients sent it: the
// suite only checks requests, never bulk uploads.
const maxRecorded = 64 << 10

// Server is one hostile fake: a listener on 127.0.0.1 whose connections
// are each served by its serve function on a goroutine of their own. It
// counts the connections it accepted and records what clients sent.
type Server struct {
	ln    net.Listener
	serve func(*Conn)
	conns atomic.Int64
	wg    sync.WaitGroup

	mu     sync.Mutex
	open   map[io.Closer]struct{} // connections and data listeners, closed by Close
	recv   []byte
	closed bool
}

// Start listens on 127.0.0.1 on an ephemeral port and serves each
// connection with serve until Close.
func Start(serve func(*Conn)) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{ln: ln, serve: serve, open: map[io.Closer]struct{}{}}
	s.wg.Add(1)
	go s.accept()
	return s, nil
}

func (s *Server) accept() {
	defer s.wg.Done()
	for {
		nc, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.conns.Add(1)
		c := &Conn{Conn: nc, s: s}
		if !s.track(nc) {
			return
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer s.untrack(nc)
			defer nc.Close()
			s.serve(c)
		}()
	}
}

// track registers a connection or listener for Close; false (and c
// closed) when the server is closed already.
func (s *Server) track(c io.Closer) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		c.Close()
		return false
	}
	s.open[c] = struct{}{}
	return true
}

func (s *Server) untrack(c io.Closer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.open, c)
}

// Port is the port the server listens on.
func (s *Server) Port() int { return s.ln.Addr().(*net.TCPAddr).Port }

// HostPort is "127.0.0.1:PORT".
func (s *Server) HostPort() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port())) }

// Conns is the number of connections accepted so far.
func (s *Server) Conns() int { return int(s.conns.Load()) }

// Received is what clients sent so far, all connections together (the
// first 64 KiB).
func (s *Server) Received() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return string(s.recv)
}

// Close stops accepting, closes every connection still open (a silent
// fake then returns) and waits for the connections' goroutines.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closed = true
	for c := range s.open {
		c.Close()
	}
	s.mu.Unlock()
	err := s.ln.Close()
	s.wg.Wait()
	return err
}

// Conn is a client's connection as a fake serves it: what it reads is
// recorded for Server.Received.
type Conn struct {
	net.Conn
	s *Server
}

func (c *Conn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.s.mu.Lock()
	if room := maxRecorded - len(c.s.recv); room > 0 {
		c.s.recv = append(c.s.recv, p[:min(n, room)]...)
	}
	c.s.mu.Unlock()
	return n, err
}

// listen opens a second listener on 127.0.0.1 (an FTP data port) that
// Server.Close closes too.
func (c *Conn) listen() (net.Listener, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	if !c.s.track(ln) {
		return nil, errors.New("server closed")
	}
	return ln, nil
}

// unlisten closes a listener of listen's (nil: none) and forgets it.
func (c *Conn) unlisten(ln net.Listener) {
	if ln != nil {
		c.s.untrack(ln)
		ln.Close()
	}
}
