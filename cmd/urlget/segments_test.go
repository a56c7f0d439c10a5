package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestSegmentsFlag: --segments 4 to -o over a server with ranges gives
// the file, and --json and -w %{segments} say how many connections
// carried it; a number outside 1–16 is a usage error.
func TestSegmentsFlag(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef"), 1<<20) // 16 MiB
	var ranges atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Range") != "" {
			ranges.Add(1)
		}
		http.ServeContent(w, r, "f", time.Unix(1e9, 0), paced{bytes.NewReader(data)})
	}))
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "f")
	stdout, stderr, code := urlget(t, "", "-s", "--segments", "4", "--json", "-w", "%{segments}\n", "-o", out, srv.URL+"/f")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got, _ := os.ReadFile(out)
	if sha256.Sum256(got) != sha256.Sum256(data) {
		t.Fatalf("the file is not the resource (%d bytes)", len(got))
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	var rep struct{ Segments int }
	if len(lines) != 2 || json.Unmarshal([]byte(lines[0]), &rep) != nil || rep.Segments < 2 || lines[1] != itoa(rep.Segments) || ranges.Load() == 0 {
		t.Errorf("stdout %q (%d range requests): want the segments in --json and -w", stdout, ranges.Load())
	}
	for _, n := range []string{"0", "17", "x"} {
		if _, stderr, code := urlget(t, "", "--segments", n, "-o", out, srv.URL+"/f"); code != 2 {
			t.Errorf("--segments %s: exit %d %q, want 2", n, code, stderr)
		}
	}
}

// paced reads 64 KiB a millisecond at most, so that the first connection
// does not finish its quarter before the others' first bytes.
type paced struct{ *bytes.Reader }

func (p paced) Read(b []byte) (int, error) {
	time.Sleep(time.Millisecond)
	return p.Reader.Read(b[:min(len(b), 64<<10)])
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
