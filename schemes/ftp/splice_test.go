package ftp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/urlget/urlget/transport"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

// spliceRecorder stands between a body and a file the way Download's
// progress writer does, and records whether the body handed it the data
// connection itself (what lets the kernel splice) or a reader that copies.
type spliceRecorder struct {
	f        *os.File
	calls    int
	withConn int
	entered  chan struct{} // if set, closed at the first ReadFrom
}

func (r *spliceRecorder) Write(p []byte) (int, error) { return r.f.Write(p) }

func (r *spliceRecorder) ReadFrom(src io.Reader) (int64, error) {
	r.calls++
	if r.calls == 1 && r.entered != nil {
		close(r.entered)
	}
	if lr, ok := src.(*io.LimitedReader); ok {
		if _, ok := lr.R.(syscall.Conn); ok {
			r.withConn++
		}
	}
	return r.f.ReadFrom(src)
}

func tempFile(t *testing.T) *os.File {
	t.Helper()
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// fetchTo fetches raw and copies its body into w as io.Copy would.
func (e *tenv) fetchTo(t *testing.T, ctx context.Context, raw string, w io.Writer) (int64, error) {
	t.Helper()
	resp, err := e.h.Fetch(ctx, e.req(t, raw))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	return io.Copy(w, resp.Body)
}

func randomData(n int) string {
	b := make([]byte, n)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return string(b)
}

func TestSpliceIntoFile(t *testing.T) {
	// Over two chunks, so that the loop takes a full chunk and a partial
	// one, then meets the end of the data in Read.
	data := randomData(2*spliceChunk + 12345)
	for _, tc := range []struct {
		name string
		size string // the SIZE reply; "" keeps the fake's own
	}{
		{"size known", ""},
		{"size unknown", "550 SIZE not allowed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t)
			f.files["big.bin"] = data
			if tc.size != "" {
				f.replies["SIZE big.bin"] = tc.size
			}
			e := newEnv(t)
			out := tempFile(t)
			rec := &spliceRecorder{f: out}
			n, err := e.fetchTo(t, context.Background(), f.url("big.bin"), rec)
			if err != nil || n != int64(len(data)) {
				t.Fatalf("copied %d bytes, err %v; want %d", n, err, len(data))
			}
			got, _ := os.ReadFile(out.Name())
			if !bytes.Equal(got, []byte(data)) {
				t.Fatalf("file differs from the served data (%d bytes vs %d)", len(got), len(data))
			}
			if rec.withConn == 0 {
				t.Errorf("the body never handed the data connection to ReadFrom (%d calls)", rec.calls)
			}
			// The 226 was read and the control connection kept: a second
			// file comes over it.
			f.files["small.bin"] = "xyz"
			if got, _, err := e.get(t, f.url("small.bin")); err != nil || got != "xyz" {
				t.Fatalf("second fetch %q, %v", got, err)
			}
			if f.connCount() != 1 {
				t.Errorf("%d control connections, want 1", f.connCount())
			}
		})
	}
}

func TestSpliceChecksCount(t *testing.T) {
	data := randomData(copyBuffer + 10) // large enough to be spliced
	for _, tc := range []struct {
		name string
		set  func(f *fakeFTP)
	}{
		{"fewer bytes than SIZE", func(f *fakeFTP) { f.truncate = copyBuffer + 3 }},
		{"more bytes than SIZE", func(f *fakeFTP) { f.replies["SIZE f.bin"] = fmt.Sprintf("213 %d", copyBuffer+5) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t)
			f.files["f.bin"] = data
			tc.set(f)
			rec := &spliceRecorder{f: tempFile(t)}
			_, err := newEnv(t).fetchTo(t, context.Background(), f.url("f.bin"), rec)
			se := kindCode(t, err, schemes.KindProtocol, 0, true)
			if !strings.Contains(se.Msg, "truncated") {
				t.Errorf("msg %q", se.Msg)
			}
			if rec.withConn == 0 {
				t.Errorf("the transfer was not spliced")
			}
		})
	}
}

func TestSpliceCanceled(t *testing.T) {
	f := newFake(t)
	f.files["f.bin"] = randomData(1 << 20)
	f.stallAt = 1000
	e := newEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	rec := &spliceRecorder{f: tempFile(t), entered: make(chan struct{})}
	resp, err := e.h.Fetch(ctx, e.req(t, f.url("f.bin")))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	done := make(chan error, 1)
	go func() {
		_, err := io.Copy(rec, resp.Body)
		done <- err
	}()
	select {
	case <-rec.entered: // the splice pass has begun: cancel it, not the setup
	case err := <-done:
		t.Fatalf("the copy ended before any splice: %v", err)
	}
	cancel()
	err = <-done
	if !errors.Is(err, context.Canceled) || schemes.KindOf(err) != schemes.KindCanceled {
		t.Fatalf("err %v (kind %v), want a cancellation", err, schemes.KindOf(err))
	}
	if rec.withConn == 0 {
		t.Errorf("the transfer was not spliced")
	}
}

func TestSpliceStall(t *testing.T) {
	f := newFake(t)
	f.files["f.bin"] = randomData(1 << 20)
	f.stallAt = 1000
	e := newEnv(t)
	e.d.IdleTimeout = 200 * time.Millisecond
	_, err := e.fetchTo(t, context.Background(), f.url("f.bin"), &spliceRecorder{f: tempFile(t)})
	se := kindCode(t, err, schemes.KindTimeout, 0, true)
	if !errors.Is(se, os.ErrDeadlineExceeded) {
		t.Errorf("err %v does not wrap os.ErrDeadlineExceeded", se)
	}
}

func TestSpliceNotIntoTerminalOrText(t *testing.T) {
	t.Run("type a", func(t *testing.T) {
		f := newFake(t)
		f.files["f.txt"] = "a\r\nb\r\n"
		out := tempFile(t)
		rec := &spliceRecorder{f: out}
		if _, err := newEnv(t).fetchTo(t, context.Background(), f.url("f.txt;type=a"), rec); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(out.Name()); string(got) != "a\nb\n" || rec.withConn != 0 {
			t.Errorf("got %q with %d spliced passes; want CRLF turned to LF by a copy", got, rec.withConn)
		}
	})
	t.Run("spliceTarget", func(t *testing.T) {
		if _, ok := transport.SpliceTarget(tempFile(t)); !ok {
			t.Errorf("a regular file was refused as a splice target")
		}
		if _, ok := transport.SpliceTarget(&bytes.Buffer{}); !ok {
			t.Errorf("a ReaderFrom was refused")
		}
		if _, ok := transport.SpliceTarget(struct{ io.Writer }{io.Discard}); ok {
			t.Errorf("a writer without ReadFrom was accepted")
		}
	})
}

// TestSpliceClosed: closing the body from another goroutine ends a splice
// that waits for data, as a broken transfer rather than a local error.
func TestSpliceClosed(t *testing.T) {
	f := newFake(t)
	f.files["f.bin"] = randomData(1 << 20)
	f.stallAt = 1000
	e := newEnv(t)
	rec := &spliceRecorder{f: tempFile(t), entered: make(chan struct{})}
	resp, err := e.h.Fetch(context.Background(), e.req(t, f.url("f.bin")))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := io.Copy(rec, resp.Body)
		done <- err
	}()
	select {
	case <-rec.entered:
	case err := <-done:
		t.Fatalf("the copy ended before any splice: %v", err)
	}
	resp.Body.Close()
	err = <-done
	var se *schemes.Error
	if !errors.As(err, &se) || se.Phase != "retr" {
		t.Fatalf("err %v: want the transfer's *schemes.Error", err)
	}
}
