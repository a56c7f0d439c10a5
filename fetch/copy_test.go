package fetch

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/urlget/urlget/internal/await"
	"github.com/urlget/urlget/schemes"
)

// progressLog records progress callbacks.
type progressLog struct {
	mu    sync.Mutex
	calls []int64
	total int64
	at    []time.Time
}

func (p *progressLog) fn(done, total int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls = append(p.calls, done)
	p.total = total
	p.at = append(p.at, time.Now())
}

// check asserts at least min callbacks, in order, ending at want of want.
func (p *progressLog) check(t *testing.T, min int, want int64) {
	t.Helper()
	if len(p.calls) < min {
		t.Errorf("%d progress callbacks, want at least %d", len(p.calls), min)
	}
	for i := 1; i < len(p.calls); i++ {
		if p.calls[i] < p.calls[i-1] {
			t.Fatalf("progress went back: %v", p.calls)
		}
	}
	if n := len(p.calls); n == 0 || p.calls[n-1] != want {
		t.Errorf("last progress %v, want %d", p.calls[max(n-1, 0):], want)
	}
}

// smallWrites is a body whose WriteTo pushes 4 KiB writes.
type smallWrites struct{ r io.Reader }

func (s smallWrites) Read(p []byte) (int, error) { return s.r.Read(p) }

func (s smallWrites) WriteTo(w io.Writer) (int64, error) {
	var n int64
	buf := make([]byte, 4<<10)
	for {
		k, err := s.r.Read(buf)
		if k > 0 {
			m, werr := w.Write(buf[:k])
			n += int64(m)
			if werr != nil {
				return n, werr
			}
		}
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// smallReads is a body that gives 4 KiB a Read and has no WriteTo.
type smallReads struct{ r io.Reader }

func (s smallReads) Read(p []byte) (int, error) { return s.r.Read(p[:min(len(p), 4<<10)]) }

// TestProgressEveryPass: an 8 MiB body is reported at least every MiB,
// however it is delivered: small writes, one big write, small reads, or
// handed to the destination's ReadFrom (as the ftp body splices) — not
// once at the start and once at the end.
func TestProgressEveryPass(t *testing.T) {
	const size = 8 << 20
	data := strings.Repeat("0123456789abcdef", size/16)
	for _, tc := range []struct {
		name string
		wrap func(io.Reader) io.Reader
	}{
		{"small writes", func(r io.Reader) io.Reader { return smallWrites{r} }},
		{"one write", func(r io.Reader) io.Reader { return r }}, // strings.Reader's WriteTo
		{"small reads", func(r io.Reader) io.Reader { return smallReads{r} }},
		{"handed to ReadFrom", func(r io.Reader) io.Reader { return handsToReadFrom{smallReads{r}} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dest := filepath.Join(t.TempDir(), "out")
			h := &fakeHandler{data: map[string]string{"x": data}, wrap: tc.wrap}
			var p progressLog
			if _, err := newClient(h).Download(context.Background(), "t:x", dest, DownloadOptions{Progress: p.fn}); err != nil {
				t.Fatal(err)
			}
			p.check(t, 8, size)
			if len(p.calls) > 100 {
				t.Errorf("%d progress callbacks for 8 MiB: one per pass, not per write", len(p.calls))
			}
			if b, _ := os.ReadFile(dest); string(b) != data {
				t.Errorf("the file has %d bytes, want the %d sent", len(b), size)
			}
		})
	}
}

// passRecorder is a destination file that records the passes handed to
// its ReadFrom: the reader each read, its limit, and the bytes moved.
type passRecorder struct {
	*os.File
	passes []pass
}

type pass struct {
	r     io.Reader
	limit int64 // the LimitedReader's N at the start, -1 without one
	n     int64
}

func (p *passRecorder) ReadFrom(r io.Reader) (int64, error) {
	ps := pass{r: r, limit: -1}
	if lr, ok := r.(*io.LimitedReader); ok {
		ps.r, ps.limit = lr.R, lr.N
	}
	n, err := p.File.ReadFrom(r)
	ps.n = n
	p.passes = append(p.passes, ps)
	return n, err
}

// rawConn is the ftp body's view of its data connection: a reader that
// offers the socket's descriptor (transport's rawReader).
type rawConn struct{ c *net.TCPConn }

func (r rawConn) Read(p []byte) (int, error)            { return r.c.Read(p) }
func (r rawConn) SyscallConn() (syscall.RawConn, error) { return r.c.SyscallConn() }
func (r rawConn) Close() error                          { return r.c.Close() }

// WriteTo hands the destination's ReadFrom the connection in 4 MiB
// chunks, each limited by one *io.LimitedReader, as the ftp body's splice
// does through transport.Conn.ReadTo.
func (r rawConn) WriteTo(w io.Writer) (int64, error) {
	rf, ok := w.(io.ReaderFrom)
	if !ok {
		return io.Copy(w, struct{ io.Reader }{r})
	}
	var total int64
	for {
		n, err := rf.ReadFrom(&io.LimitedReader{R: r, N: 4 << 20})
		total += n
		if err != nil || n < 4<<20 {
			return total, err
		}
	}
}

// TestCopyKeepsKernelPasses: from a file or a socket into a file, the copy
// still goes through the destination's ReadFrom (where the kernel splices
// or copies file to file), in passes of at most 1 MiB, each reading the
// source under a single *io.LimitedReader, which is all os.File.ReadFrom
// looks through.
func TestCopyKeepsKernelPasses(t *testing.T) {
	const size = 8 << 20
	data := bytes.Repeat([]byte("kernel passes..."), size/16)
	for _, tc := range []struct {
		name string
		body func(t *testing.T) io.ReadCloser
		src  func(io.Reader) bool // the reader a pass must read
	}{
		{"file", func(t *testing.T) io.ReadCloser {
			name := filepath.Join(t.TempDir(), "src")
			os.WriteFile(name, data, 0o644)
			f, err := os.Open(name)
			if err != nil {
				t.Fatal(err)
			}
			return f
		}, func(r io.Reader) bool { _, ok := r.(*os.File); return ok }},
		{"socket, as the ftp body hands it", func(t *testing.T) io.ReadCloser {
			return rawConn{serve(t, data, nil)}
		}, func(r io.Reader) bool { _, ok := r.(rawConn); return ok }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := os.Create(filepath.Join(t.TempDir(), "out"))
			if err != nil {
				t.Fatal(err)
			}
			defer out.Close()
			dst := &passRecorder{File: out}
			body := tc.body(t)
			defer body.Close()
			resp := &Response{Response: &schemes.Response{Body: body, Size: size}, URL: fakeLoc{&schemes.URL{Scheme: "t"}}}
			var p progressLog
			n, err := (&Client{}).CopyBody(context.Background(), dst, resp, p.fn)
			if err != nil || n != size {
				t.Fatalf("copied %d, %v", n, err)
			}
			p.check(t, 8, size)
			var viaKernel int64
			for i, ps := range dst.passes {
				if ps.limit < 0 || ps.limit > maxPass || !tc.src(ps.r) {
					t.Fatalf("pass %d read %T limited to %d, want the source under one LimitedReader of at most 1 MiB", i, ps.r, ps.limit)
				}
				viaKernel += ps.n
			}
			t.Logf("%d passes, %d bytes through ReadFrom, %d progress reports", len(dst.passes), viaKernel, len(p.calls))
			if viaKernel < size/2 {
				t.Errorf("%d of %d bytes went through ReadFrom", viaKernel, size)
			}
			if b, _ := os.ReadFile(out.Name()); !bytes.Equal(b, data) {
				t.Errorf("the file has %d bytes, not the ones sent", len(b))
			}
		})
	}
}

// serve returns the client end of a loopback TCP connection that sends
// data and closes; with a reset channel, it closes with a reset once the
// test closes reset (a reset sent at once could come before any byte is
// read, so the test says when the bytes have gone through).
func serve(t *testing.T, data []byte, reset <-chan struct{}) *net.TCPConn {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	c, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	// Accepted before the listener closes: closed first, it would reset
	// the connection waiting in its backlog, and the copy would see a
	// reset before any byte (1 run in 25 did).
	sc, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		sc.Write(data)
		if reset != nil {
			<-reset
			sc.(*net.TCPConn).SetLinger(0)
		}
		sc.Close()
	}()
	return c.(*net.TCPConn)
}

// drip is a body that sends a few bytes every 20 ms until its time is up.
type drip struct{ until time.Time }

func (d *drip) Read(p []byte) (int, error) {
	if time.Now().After(d.until) {
		return 0, io.EOF
	}
	time.Sleep(20 * time.Millisecond)
	return copy(p, "drip-drip-drip-drip-drip-drip-drip-drip-drip-drip-drip-drip-drip"), nil
}

// TestProgressSlowBody: data that trickles in is reported every 250 ms,
// not once a pass has filled: a 2 s drip gets at least 5 reports. (The
// one timing-sensitive test; the bound is loose.)
func TestProgressSlowBody(t *testing.T) {
	t.Parallel()
	dest := filepath.Join(t.TempDir(), "out")
	h := &fakeHandler{data: map[string]string{"x": ""}, noSize: true,
		wrap: func(io.Reader) io.Reader { return &drip{until: time.Now().Add(2 * time.Second)} }}
	var p progressLog
	if _, err := newClient(h).Download(context.Background(), "t:x", dest, DownloadOptions{Progress: p.fn}); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(dest)
	p.check(t, 5, st.Size())
}

// TestLimitRate: 200 KiB at 100 KiB/s take at least 1.5 s, to a file and
// through CopyBody, and progress is reported meanwhile. (A lower bound
// only: a slow machine may take longer.)
func TestLimitRate(t *testing.T) {
	t.Parallel()
	data := strings.Repeat("r", 200<<10)
	for _, tc := range []struct {
		name string
		copy func(c *Client, p func(int64, int64)) error
	}{
		{"Download", func(c *Client, p func(int64, int64)) error {
			_, err := c.Download(context.Background(), "t:x", filepath.Join(t.TempDir(), "out"), DownloadOptions{Progress: p})
			return err
		}},
		{"CopyBody", func(c *Client, p func(int64, int64)) error {
			resp, err := c.Get(context.Background(), "t:x")
			if err != nil {
				return err
			}
			defer resp.Close()
			_, err = c.CopyBody(context.Background(), io.Discard, resp, p)
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := newClient(&fakeHandler{data: map[string]string{"x": data}})
			c.LimitRate = 100 << 10
			var p progressLog
			start := time.Now()
			if err := tc.copy(c, p.fn); err != nil {
				t.Fatal(err)
			}
			if d := time.Since(start); d < 1500*time.Millisecond {
				t.Errorf("200 KiB at 100 KiB/s took %v", d)
			}
			p.check(t, 5, int64(len(data)))
		})
	}
}

// TestLimitRateHonoursCancel: a copy slowed by LimitRate stops when ctx is
// canceled, without waiting for the average to come back.
func TestLimitRateHonoursCancel(t *testing.T) {
	c := newClient(&fakeHandler{data: map[string]string{"x": strings.Repeat("r", 100<<10)}})
	c.LimitRate = 1 << 10 // 100 s for the whole
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	done := make(chan error, 1)
	go func() {
		_, err := c.Download(ctx, "t:x", filepath.Join(t.TempDir(), "out"), DownloadOptions{})
		done <- err
	}()
	select {
	case err := <-done:
		if schemes.KindOf(err) != schemes.KindCanceled {
			t.Fatalf("err = %v, want canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the canceled download went on sleeping")
	}
}

// failWriter fails every write as a full disk does.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) {
	return 0, &os.PathError{Op: "write", Path: "/full/disk", Err: syscall.ENOSPC}
}

// TestCopyBodyChecks: what goes to stdout gets the checks a file gets.
func TestCopyBodyChecks(t *testing.T) {
	const data = "0123456789"
	sum := sha256.Sum256([]byte(data))
	good, bad := hex.EncodeToString(sum[:]), strings.Repeat("0", 64)
	for _, tc := range []struct {
		name      string
		h         *fakeHandler
		max       int64
		dst       io.Writer
		kind      schemes.Kind // 0 (KindOther) with want "" means success
		want      string       // in the error
		retryable bool
		out       string // what reached dst
	}{
		{"whole, checked", &fakeHandler{sha: map[string]string{"x": good}}, 0, nil, 0, "", false, data},
		{"truncated", &fakeHandler{lieSize: 20}, 0, nil, schemes.KindProtocol, "transfer truncated: got 10 of 20 bytes", true, data},
		{"longer than announced", &fakeHandler{lieSize: 5}, 0, nil, schemes.KindProtocol, "more than the 5", false, data},
		{"checksum mismatch", &fakeHandler{sha: map[string]string{"x": bad}}, 0, nil, schemes.KindProtocol, "SHA-256 " + good, false, data},
		{"announced size over the limit", &fakeHandler{}, 9, nil, schemes.KindSafety, "is 10 bytes, more than the maximum file size of 9 bytes", false, ""},
		{"unannounced size over the limit", &fakeHandler{noSize: true}, 9, nil, schemes.KindSafety, "maximum file size of 9 bytes", false, data[:9]},
		{"unannounced size at the limit", &fakeHandler{noSize: true}, 10, nil, 0, "", false, data},
		{"a full disk", &fakeHandler{}, 0, failWriter{}, schemes.KindLocal, "no space left on device", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.h.data = map[string]string{"x": data}
			c := newClient(tc.h)
			c.MaxFileSize = tc.max
			resp, err := c.Get(context.Background(), "t:x")
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Close()
			var out bytes.Buffer
			dst := tc.dst
			if dst == nil {
				dst = &out
			}
			_, err = c.CopyBody(context.Background(), dst, resp, nil)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
			} else if schemes.KindOf(err) != tc.kind || !strings.Contains(err.Error(), tc.want) || schemes.IsRetryable(err) != tc.retryable {
				t.Fatalf("err = %v (%v, retryable %v), want %v %q retryable %v", err, schemes.KindOf(err), schemes.IsRetryable(err), tc.kind, tc.want, tc.retryable)
			}
			if out.String() != tc.out {
				t.Errorf("wrote %q, want %q", out.String(), tc.out)
			}
			if tc.kind == schemes.KindProtocol && strings.HasPrefix(tc.want, "SHA") && (!errors.Is(err, errCorrupt) || schemes.KindOf(err).ExitCode() != 6) {
				t.Errorf("checksum mismatch: %v, want exit 6 wrapping errCorrupt", err)
			}
		})
	}
}

// TestCopyBodyOfAListing: a listing has no body to copy.
func TestCopyBodyOfAListing(t *testing.T) {
	resp := &Response{Response: &schemes.Response{Listing: schemes.ListingOf(nil)}, URL: fakeLoc{&schemes.URL{Scheme: "t"}}}
	if _, err := (&Client{}).CopyBody(context.Background(), io.Discard, resp, nil); schemes.KindOf(err) != schemes.KindUsage {
		t.Fatalf("err = %v", err)
	}
}

// TestCopyBodySourceResetIsNotLocal: a socket reset while the kernel moves
// the bytes is a broken transfer (exit 5, retryable), though
// os.File.ReadFrom reports it as a failed write.
func TestCopyBodySourceResetIsNotLocal(t *testing.T) {
	reset := make(chan struct{})
	body := rawConn{serve(t, make([]byte, 4<<20), reset)}
	defer body.Close()
	out, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	// The reset comes once some bytes are in the file, while the copy
	// waits for the rest of the 8 MiB it was promised.
	// The poll's verdict comes back to the test's goroutine: a t.Error
	// from this one could land after the test ended, hiding why it did.
	reached := make(chan bool, 1)
	go func() {
		defer close(reset)
		reached <- await.Poll(func() bool { st, err := out.Stat(); return err == nil && st.Size() > 0 })
	}()
	resp := &Response{Response: &schemes.Response{Body: body, Size: 8 << 20}, URL: fakeLoc{&schemes.URL{Scheme: "t"}}}
	_, err = (&Client{}).CopyBody(context.Background(), out, resp, nil)
	if !<-reached {
		t.Error("no byte reached the file before the copy ended")
	}
	if k := schemes.KindOf(err); k != schemes.KindConnect || !schemes.IsRetryable(err) {
		t.Fatalf("err = %v (%v), want a broken transfer, retryable", err, k)
	}
}
