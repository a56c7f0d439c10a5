package http

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/urlget/urlget/internal/await"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// bigBody is a body large enough to be spliced, of bytes that show any
// byte lost, repeated or moved.
func bigBody(size int) []byte {
	b := make([]byte, size)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// socketSink is a file destination with ReadFrom that notes whether a
// body handed it the connection itself (a reader with a descriptor the
// kernel can splice from) rather than bytes. onSocket, if set, runs at the first such
// hand-over; fail, if set, is what ReadFrom then returns instead of
// copying (a full disk).
type socketSink struct {
	f        *os.File
	onSocket func()
	fail     error

	mu      sync.Mutex
	sockets int
}

func newSink(t *testing.T) *socketSink {
	t.Helper()
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return &socketSink{f: f}
}

func (s *socketSink) Write(p []byte) (int, error) { return s.f.Write(p) }

func (s *socketSink) ReadFrom(r io.Reader) (int64, error) {
	inner := r
	if lr, ok := r.(*io.LimitedReader); ok {
		inner = lr.R
	}
	if sc, ok := inner.(syscall.Conn); ok && canSplice(sc) {
		s.mu.Lock()
		s.sockets++
		first := s.sockets == 1
		s.mu.Unlock()
		if first && s.onSocket != nil {
			s.onSocket()
		}
		if s.fail != nil {
			return 0, s.fail
		}
	}
	return s.f.ReadFrom(r)
}

// canSplice reports whether sc has a descriptor for the kernel to read.
func canSplice(sc syscall.Conn) bool {
	_, err := sc.SyscallConn()
	return err == nil
}

func (s *socketSink) spliced() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sockets > 0
}

func (s *socketSink) content(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(s.f.Name())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// rawServer answers every request on a connection with respond, written
// as is (so a test decides which bytes share a write with the head), and
// then holds the connection until the client closes it. It returns the
// server's address and a func that reports whether the client closed a
// connection since the last call.
func rawServer(t *testing.T, respond func(c net.Conn, target string)) (addr string, closed func() bool) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var mu sync.Mutex
	var n int
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				br := bufio.NewReader(c)
				for {
					req, err := http.ReadRequest(br)
					if err != nil {
						mu.Lock()
						n++
						mu.Unlock()
						return
					}
					respond(c, req.RequestURI)
				}
			}()
		}
	}()
	return ln.Addr().String(), func() bool {
		mu.Lock()
		defer mu.Unlock()
		was := n
		n = 0
		return was > 0
	}
}

// headWith is a 200 response head for a body of size bytes, with the
// first prefix bytes of body after it.
func headWith(body []byte, size, prefix int) []byte {
	return append([]byte(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n", size)), body[:prefix]...)
}

// bufferingConn reads its connection in 64 KiB gulps and serves Reads from
// what it holds, as a CONNECT tunnel does with the bytes that came with the
// proxy's answer: the descriptor under it must never be read directly.
type bufferingConn struct {
	net.Conn
	br *bufio.Reader
}

func (c *bufferingConn) Read(p []byte) (int, error) { return c.br.Read(p) }

// bufferingDialer dials through bufferingConn.
type bufferingDialer struct{ testDialer }

func (d *bufferingDialer) Dial(ctx context.Context, scheme, host string, port int) (net.Conn, error) {
	c, err := net.Dial("tcp", net.JoinHostPort(host, fmt.Sprint(port)))
	if err != nil {
		return nil, err
	}
	return transport.Wrap(ctx, &bufferingConn{Conn: c, br: bufio.NewReaderSize(c, 64<<10)}, 0), nil
}

// TestWriteToSplices: a large body with a Content-Length on a plain
// connection is handed to the destination's ReadFrom as the connection
// itself, after what net/http had already buffered; the destination gets
// every byte in order, however the head and the body shared the server's
// writes, also through a forwarding proxy. A body through TLS or a tunnel
// that buffers, a chunked or a small one, or a destination without
// ReadFrom, is copied, byte for byte the same.
func TestWriteToSplices(t *testing.T) {
	size := spliceMin + 1<<20 + 123
	data := bigBody(size)
	// fetched is closed once Fetch has returned, the head read: a server
	// that waits for it sends the body in reads of its own.
	fetched := make(chan struct{})
	for _, tc := range []struct {
		name    string
		respond func(c net.Conn, target string)
		dialer  func(addr string) schemes.Dialer
		path    string
		tls     bool
		plain   bool // the destination has no ReadFrom
		spliced bool
		size    int
		split   bool // respond waits for fetched
	}{
		{name: "the head alone, then the body", spliced: true, size: size, split: true, respond: func(c net.Conn, _ string) {
			c.Write(headWith(data, size, 0))
			<-fetched // two reads for the client
			c.Write(data)
		}},
		{name: "the head with some of the body", spliced: true, size: size, respond: func(c net.Conn, _ string) {
			c.Write(headWith(data, size, 1000))
			c.Write(data[1000:])
		}},
		{name: "the head with more than net/http's buffer", spliced: true, size: size, respond: func(c net.Conn, _ string) {
			c.Write(headWith(data, size, 100_000))
			c.Write(data[100_000:])
		}},
		{name: "interim responses first", spliced: true, size: size, respond: func(c net.Conn, _ string) {
			c.Write([]byte("HTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\nHTTP/1.1 100 Continue\r\n\r\n"))
			c.Write(headWith(data, size, 3000))
			c.Write(data[3000:])
		}},
		{name: "through a forwarding proxy", spliced: true, size: size, path: "http://origin.example/big",
			respond: func(c net.Conn, target string) {
				if target != "http://origin.example/big" {
					c.Write([]byte("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"))
					return
				}
				c.Write(headWith(data, size, 500))
				c.Write(data[500:])
			},
			dialer: func(addr string) schemes.Dialer {
				return &testDialer{Dialer: transport.Dialer{Proxy: func(string, string, int) (*url.URL, error) {
					return &url.URL{Scheme: "http", Host: addr}, nil
				}}}
			}},
		{name: "a tunnel that buffers", size: size, respond: func(c net.Conn, _ string) {
			c.Write(headWith(data, size, 0))
			c.Write(data)
		}, dialer: func(string) schemes.Dialer { return &bufferingDialer{} }},
		{name: "a destination without ReadFrom", plain: true, size: size, respond: func(c net.Conn, _ string) {
			c.Write(headWith(data, size, 0))
			c.Write(data)
		}},
		{name: "chunked", size: size, respond: func(c net.Conn, _ string) {
			c.Write([]byte("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"))
			fmt.Fprintf(c, "%x\r\n", size)
			c.Write(data)
			c.Write([]byte("\r\n0\r\n\r\n"))
		}},
		{name: "small", size: spliceMin - 1, respond: func(c net.Conn, _ string) {
			c.Write(headWith(data, spliceMin-1, spliceMin-1))
		}},
		{name: "TLS", tls: true, size: size},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r *schemes.Request
			if tc.tls {
				e := newEnv(t, func(w http.ResponseWriter, r *http.Request) { w.Write(data) }, true)
				r, _ = e.req("/big")
			} else {
				addr, _ := rawServer(t, tc.respond)
				target := "http://" + addr + "/big"
				if tc.path != "" {
					target = tc.path
				}
				loc, err := parse(target)
				if err != nil {
					t.Fatal(err)
				}
				r = &schemes.Request{URL: loc, Dialer: &testDialer{}}
				if tc.dialer != nil {
					r.Dialer = tc.dialer(addr)
				}
			}
			h := &Handler{}
			defer h.CloseIdleConnections()
			resp, err := h.Fetch(context.Background(), r)
			if tc.split {
				close(fetched)
			}
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			sink := newSink(t)
			var w io.Writer = sink
			if tc.plain {
				w = struct{ io.Writer }{sink}
			}
			n, err := resp.Body.(io.WriterTo).WriteTo(w)
			if err != nil || n != int64(tc.size) {
				t.Fatalf("WriteTo = %d, %v; want %d", n, err, tc.size)
			}
			if got := sink.content(t); !bytes.Equal(got, data[:tc.size]) {
				t.Errorf("destination holds %d bytes that differ from the %d sent", len(got), tc.size)
			}
			if sink.spliced() != tc.spliced {
				t.Errorf("connection handed to ReadFrom: %v, want %v", sink.spliced(), tc.spliced)
			}
			if m, err := resp.Body.Read(make([]byte, 1)); m != 0 || err != io.EOF {
				t.Errorf("Read after WriteTo = %d, %v; want io.EOF", m, err)
			}
		})
	}
}

// TestSplicedConnectionNotReused: the connection a body was taken from
// is closed with the body, never handed to the next request (net/http's
// reader is short of that body's end); a small body's is kept.
func TestSplicedConnectionNotReused(t *testing.T) {
	size := spliceMin + 1<<20
	data := bigBody(size)
	addr, closed := rawServer(t, func(c net.Conn, target string) {
		if target == "/small" {
			c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nsmall"))
			return
		}
		c.Write(headWith(data, size, 0))
		c.Write(data)
	})
	d := &testDialer{}
	h := &Handler{}
	defer h.CloseIdleConnections()
	get := func(path string) *schemes.Response {
		t.Helper()
		loc, err := parse("http://" + addr + path)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := h.Fetch(context.Background(), &schemes.Request{URL: loc, Dialer: d})
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	for i, step := range []struct {
		path        string
		dials       int
		closedAfter bool
	}{
		{"/small", 1, false},
		{"/small", 1, false}, // kept
		{"/big", 1, true},    // the same connection, closed after the body
		{"/small", 2, false}, // a new one
	} {
		resp := get(step.path)
		sink := newSink(t)
		if _, err := resp.Body.(io.WriterTo).WriteTo(sink); err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if sink.spliced() != step.closedAfter {
			t.Errorf("step %d (%s): spliced %v", i, step.path, sink.spliced())
		}
		if step.path == "/small" {
			if got := string(sink.content(t)); got != "small" {
				t.Errorf("step %d: body %q", i, got)
			}
		}
		if d.count() != step.dials {
			t.Errorf("step %d (%s): %d dials, want %d", i, step.path, d.count(), step.dials)
		}
		if step.closedAfter {
			await.Until(t, "the spliced connection closed", closed)
		} else if closed() {
			t.Errorf("step %d (%s): a connection was closed", i, step.path)
		}
	}
}

// TestSpliceFailures: a spliced body fails as a read would: the server
// closing before Content-Length bytes is a retryable connect error, a
// stall past the idle timeout a retryable timeout, a cancellation
// KindCanceled at once; a destination that refuses the bytes gets its own
// error back, for the caller to report as a local failure.
func TestSpliceFailures(t *testing.T) {
	size := spliceMin + 4<<20
	data := bigBody(size)
	errFull := errors.New("no space left on the test's device")
	sent := spliceMin + 2<<20
	for _, tc := range []struct {
		name     string
		closeAt  bool // the server closes after sent bytes; else it stalls there
		idle     time.Duration
		cancel   bool // cancel when the connection is first handed over
		fail     error
		kind     schemes.Kind
		retry    bool
		isCancel bool
	}{
		{name: "server closes early", closeAt: true, kind: schemes.KindConnect, retry: true},
		{name: "server stalls", idle: 300 * time.Millisecond, kind: schemes.KindTimeout, retry: true},
		{name: "canceled", cancel: true, kind: schemes.KindCanceled, isCancel: true},
		{name: "destination full", fail: errFull},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr, _ := rawServer(t, func(c net.Conn, _ string) {
				c.Write(headWith(data, size, 0))
				c.Write(data[:sent])
				if tc.closeAt {
					c.Close()
				}
			})
			loc, err := parse("http://" + addr + "/big")
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			h := &Handler{}
			defer h.CloseIdleConnections()
			resp, err := h.Fetch(ctx, &schemes.Request{URL: loc, Dialer: &testDialer{Dialer: transport.Dialer{IdleTimeout: tc.idle}}})
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			sink := newSink(t)
			sink.fail = tc.fail
			if tc.cancel {
				sink.onSocket = cancel
			}
			done := make(chan error, 1)
			go func() {
				_, err := resp.Body.(io.WriterTo).WriteTo(sink)
				done <- err
			}()
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("WriteTo did not return within 10s")
			}
			if !sink.spliced() {
				t.Fatal("the connection was never handed to the destination")
			}
			if tc.fail != nil {
				var se *schemes.Error
				if !errors.Is(err, tc.fail) || errors.As(err, &se) {
					t.Fatalf("err = %v, want the destination's own error", err)
				}
			} else {
				var se *schemes.Error
				if !errors.As(err, &se) || se.Kind != tc.kind || se.Retryable != tc.retry || se.Phase != "body" ||
					errors.Is(err, context.Canceled) != tc.isCancel {
					t.Fatalf("err = %#v, want kind %v, retryable %v, in phase body", err, tc.kind, tc.retry)
				}
				if got := sink.content(t); !bytes.Equal(got, data[:len(got)]) || tc.closeAt && len(got) != sent {
					t.Errorf("destination holds %d bytes, not a prefix of the body (%d sent)", len(got), sent)
				}
			}
			if _, rerr := resp.Body.Read(make([]byte, 1)); rerr != err {
				t.Errorf("Read after the failure = %v, want the same failure %v", rerr, err)
			}
		})
	}
}
