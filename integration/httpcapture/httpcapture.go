// Package httpcapture is an HTTP/1.1 server for tests that keeps every
// request as its bytes arrived: the request line, the header lines in
// their order and spelling, and the body. A test then asserts what a
// client sent byte for byte, or compares two clients' requests (urlget's
// and curl's), which net/http's server cannot show: it parses a request
// into a map and reads the body for its handler.
//
// It is imported by tests only: a plain package so that the unit tests
// of more than one package and the integration tests share it, under
// integration/ because it listens (only transport/ and test
// infrastructure may open sockets).
package httpcapture

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Request is one request as it arrived.
type Request struct {
	// Line is the request line ("POST /p HTTP/1.1"), Method and Target
	// its first two words.
	Line, Method, Target string
	// Fields are the header lines in the order sent, without their CRLF.
	Fields []string
	// Body is the body, as long as its Content-Length said.
	Body []byte
	// Err is what cut the request short (the connection's end inside
	// it, a line that is not HTTP's), nil for a whole request; the
	// fields above hold what came before it.
	Err error
}

// Field is the value of the first header line named name (any case),
// and whether there is one.
func (r Request) Field(name string) (string, bool) {
	for _, f := range r.Fields {
		k, v, _ := strings.Cut(f, ":")
		if strings.EqualFold(k, name) {
			return strings.TrimSpace(v), true
		}
	}
	return "", false
}

// Answer is what the server replies to a request: a whole response,
// head and body, as bytes on the wire. Close ends the connection after
// it; otherwise it stays open for the next request (keep-alive).
type Answer struct {
	Raw   string
	Close bool
}

// OK is a 200 response with a short body, keeping the connection.
func OK(Request) Answer {
	return Answer{Raw: "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Type: text/plain\r\n\r\nok\n"}
}

// Redirect is a response of status (301, 302, 303, 307, 308) to
// location, without a body.
func Redirect(status int, location string) Answer {
	return Answer{Raw: fmt.Sprintf("HTTP/1.1 %d Redirect\r\nLocation: %s\r\nContent-Length: 0\r\n\r\n", status, location)}
}

// Server is a listening capture server on 127.0.0.1.
type Server struct {
	// URL is "http://127.0.0.1:PORT".
	URL string

	ln     net.Listener
	answer func(Request) Answer
	wg     sync.WaitGroup

	mu    sync.Mutex
	got   []Request
	conns map[net.Conn]bool // open, to close when the test ends
}

// New starts a server that answers each request with answer (nil: OK),
// and stops it when the test ends.
func New(t testing.TB, answer func(Request) Answer) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if answer == nil {
		answer = OK
	}
	s := &Server{URL: "http://" + ln.Addr().String(), ln: ln, answer: answer, conns: map[net.Conn]bool{}}
	s.wg.Add(1)
	go s.serve()
	t.Cleanup(func() {
		ln.Close()
		s.mu.Lock()
		for c := range s.conns {
			c.Close() // a client's kept connection would hold its reader
		}
		s.mu.Unlock()
		s.wg.Wait()
	})
	return s
}

// Take returns the requests received since the last Take, in the order
// they arrived.
func (s *Server) Take() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	got := s.got
	s.got = nil
	return got
}

func (s *Server) serve() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		s.conns[c] = true
		s.mu.Unlock()
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.conn(c)
			c.Close()
			s.mu.Lock()
			delete(s.conns, c)
			s.mu.Unlock()
		}()
	}
}

// conn reads the requests of one connection until it ends, or an answer
// closes it.
func (s *Server) conn(c net.Conn) {
	br := bufio.NewReader(c)
	for {
		req, err := read(br)
		if err == io.EOF || isClosed(err) {
			return // between requests, or the test ended with the connection kept
		}
		req.Err = err
		s.mu.Lock()
		s.got = append(s.got, req)
		s.mu.Unlock()
		if err != nil {
			return
		}
		a := s.answer(req)
		if _, err := io.WriteString(c, a.Raw); err != nil || a.Close {
			return
		}
	}
}

// isClosed reports whether err is the end of a connection the server
// closed itself.
func isClosed(err error) bool { return errors.Is(err, net.ErrClosed) }

// read reads one request: its head to the empty line, then as many bytes
// of body as its Content-Length says (a client under test sends no
// chunked body).
func read(br *bufio.Reader) (Request, error) {
	var r Request
	line, err := br.ReadString('\n')
	if err != nil {
		if line == "" {
			return r, io.EOF // between requests: the connection's end, whoever ended it
		}
		return r, fmt.Errorf("request line %q: %w", line, err)
	}
	r.Line = strings.TrimSuffix(line, "\r\n")
	words := strings.Fields(r.Line)
	if len(words) != 3 || !strings.HasSuffix(line, "\r\n") {
		return r, fmt.Errorf("request line %q: want METHOD TARGET VERSION and CRLF", line)
	}
	r.Method, r.Target = words[0], words[1]
	length := 0
	for {
		f, err := br.ReadString('\n')
		if err != nil || !strings.HasSuffix(f, "\r\n") {
			return r, fmt.Errorf("header line %q: %w", f, err)
		}
		f = strings.TrimSuffix(f, "\r\n")
		if f == "" {
			break
		}
		r.Fields = append(r.Fields, f)
		k, v, _ := strings.Cut(f, ":")
		switch {
		case strings.EqualFold(k, "Content-Length"):
			if length, err = strconv.Atoi(strings.TrimSpace(v)); err != nil || length < 0 {
				return r, fmt.Errorf("field %q: not a length", f)
			}
		case strings.EqualFold(k, "Transfer-Encoding"):
			return r, fmt.Errorf("field %q: httpcapture reads no chunked body", f)
		}
	}
	r.Body = make([]byte, length)
	if _, err := io.ReadFull(br, r.Body); err != nil {
		return r, fmt.Errorf("body of %d bytes: %w", length, err)
	}
	return r, nil
}

// Boundary is the boundary of a multipart Content-Type, "" for none.
func (r Request) Boundary() string {
	ct, _ := r.Field("Content-Type")
	_, b, ok := strings.Cut(ct, "boundary=")
	if !ok {
		return ""
	}
	return strings.Trim(b, `"`)
}

// Normalized is the request with its multipart boundary written as
// "BOUNDARY" in the Content-Type and the body (two clients draw theirs at
// random), and its fields sorted, without those named in drop (any
// case): what two clients that send the same request have in common.
func (r Request) Normalized(drop ...string) Request {
	n := Request{Line: r.Line, Method: r.Method, Target: r.Target, Body: r.Body}
	b := r.Boundary()
	for _, f := range r.Fields {
		k, _, _ := strings.Cut(f, ":")
		if slices.ContainsFunc(drop, func(d string) bool { return strings.EqualFold(d, k) }) {
			continue
		}
		if b != "" {
			f = strings.ReplaceAll(f, b, "BOUNDARY")
		}
		n.Fields = append(n.Fields, f)
	}
	slices.Sort(n.Fields)
	if b != "" {
		n.Body = bytes.ReplaceAll(r.Body, []byte(b), []byte("BOUNDARY"))
	}
	return n
}

// String is the request as text, for messages: its line, fields and
// body quoted.
func (r Request) String() string {
	return fmt.Sprintf("%s\n%s\nbody %q", r.Line, strings.Join(r.Fields, "\n"), r.Body)
}
