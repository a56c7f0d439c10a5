package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlget/urlget/internal/await"
)

// lockedBuffer is a stderr that the gateway's handlers write while a
// test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// serving is a `urlget serve` run in this process.
type serving struct {
	base   string // http://127.0.0.1:PORT
	stop   context.CancelFunc
	code   chan int
	stderr *lockedBuffer
}

// startServing runs `urlget serve --listen 127.0.0.1:0 args...` until
// its stop (the end of its context, as a signal ends it) and returns when
// it printed its address.
func startServing(t *testing.T, args ...string) *serving {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	pr, pw := io.Pipe()
	s := &serving{stop: cancel, code: make(chan int, 1), stderr: &lockedBuffer{}}
	go func() {
		s.code <- run(ctx, append([]string{"serve", "--listen", "127.0.0.1:0"}, args...), strings.NewReader(""), pw, s.stderr)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "serving on http://127.0.0.1:") {
		t.Fatalf("first line %q, %v (stderr %s)", line, err, s.stderr)
	}
	go io.Copy(io.Discard, pr)
	s.base = strings.TrimSuffix(strings.TrimPrefix(line, "serving on "), "/\n")
	return s
}

// exit waits for the serve to end, at most limit, and returns its exit
// status and how long it took.
func (s *serving) exit(t *testing.T, limit time.Duration) (int, time.Duration) {
	t.Helper()
	start := time.Now()
	select {
	case c := <-s.code:
		return c, time.Since(start)
	case <-time.After(limit):
		t.Fatalf("serve did not stop within %v: %s", limit, s.stderr)
		return 0, 0
	}
}

// bigFile writes n bytes, each its offset's low byte, and returns its
// path and content.
func bigFile(t *testing.T, n int) (string, []byte) {
	t.Helper()
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i)
	}
	p := filepath.Join(t.TempDir(), "big.bin")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p, b
}

// TestServeDrainsOnStop: a transfer under way when the stop comes
// finishes whole; new connections are refused at once; serve exits 0.
func TestServeDrainsOnStop(t *testing.T) {
	path, want := bigFile(t, 24<<20)
	s := startServing(t, "--allow-file", "--shutdown-grace", "30")
	resp, err := http.Get(s.base + "/file/" + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	head := make([]byte, 1<<20)
	if _, err := io.ReadFull(resp.Body, head); err != nil {
		t.Fatal(err)
	}
	s.stop()
	addr := strings.TrimPrefix(s.base, "http://")
	await.Until(t, "new connections refused", func() bool {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
		}
		return err != nil
	})
	rest, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("the transfer was cut: %v after %d bytes", err, len(head)+len(rest))
	}
	if got := append(head, rest...); !bytes.Equal(got, want) {
		t.Errorf("got %d bytes, want the file's %d", len(got), len(want))
	}
	if code, _ := s.exit(t, 10*time.Second); code != 0 {
		t.Errorf("exit %d: %s", code, s.stderr)
	}
	if !strings.Contains(s.stderr.String(), "every request ended") {
		t.Errorf("stderr: %s", s.stderr)
	}
}

// TestServeCutsAfterGrace: a transfer whose client stops reading is cut
// when the grace has passed, and serve exits 0 then.
func TestServeCutsAfterGrace(t *testing.T) {
	path, _ := bigFile(t, 64<<20)
	s := startServing(t, "--allow-file", "--shutdown-grace", "0.5")
	resp, err := http.Get(s.base + "/file/" + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if _, err := io.ReadFull(resp.Body, make([]byte, 1<<20)); err != nil {
		t.Fatal(err)
	}
	s.stop() // and read no more: the transfer cannot end
	code, took := s.exit(t, 10*time.Second)
	if code != 0 || took > 5*time.Second {
		t.Errorf("exit %d after %v, want 0 soon after the 0.5 s grace: %s", code, took, s.stderr)
	}
	if n, err := io.Copy(io.Discard, resp.Body); err == nil {
		t.Errorf("the transfer was not cut: %d more bytes, no error", n)
	}
	if !strings.Contains(s.stderr.String(), "were cut") {
		t.Errorf("stderr: %s", s.stderr)
	}
}

// TestServeAccessLog: --log-format json writes one JSON object a request
// on stderr; /healthz answers and is not logged.
func TestServeAccessLog(t *testing.T) {
	s := startServing(t, "--log-format", "json")
	for _, p := range []string{"/healthz", "/", "/readyz"} {
		resp, err := http.Get(s.base + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("%s: %d", p, resp.StatusCode)
		}
	}
	var line struct {
		Msg, Method, Path string
		Status            int
	}
	await.Until(t, "a line logged", func() bool { return strings.Contains(s.stderr.String(), `"msg":"request"`) })
	s.stop()
	s.exit(t, 10*time.Second)
	var logged []string
	for _, l := range strings.Split(s.stderr.String(), "\n") {
		if strings.HasPrefix(l, "{") {
			logged = append(logged, l)
		}
	}
	if len(logged) != 1 {
		t.Fatalf("%d lines logged, want 1 (the start page's): %s", len(logged), s.stderr)
	}
	if err := json.Unmarshal([]byte(logged[0]), &line); err != nil || line.Msg != "request" || line.Method != "GET" || line.Path != "/" || line.Status != 200 {
		t.Errorf("%+v, %v: %s", line, err, logged[0])
	}
}
