package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/urlget/urlget/internal/await"
	"github.com/urlget/urlget/mirror"
)

func runCmd(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// TestMirrorUsage: flags a mirror cannot use, a missing argument and
// --max-delete without --delete are usage errors (exit 2), before
// anything is read or written.
func TestMirrorUsage(t *testing.T) {
	dst := filepath.Join(t.TempDir(), "dst")
	for _, args := range [][]string{
		{"mirror", "-o", "x", "file:///tmp/", dst},
		{"mirror", "--long", "file:///tmp/", dst},
		{"mirror", "-w", "%{http_code}", "file:///tmp/", dst},
		{"mirror", "-#", "file:///tmp/", dst},
		{"mirror", "file:///tmp/"},
		{"mirror", "--max-delete", "3", "file:///tmp/", dst},
		{"mirror", "-P", "0", "file:///tmp/", dst},
		{"mirror", "--include", "[", "file:///tmp/", dst},
	} {
		code, _, stderr := runCmd(args...)
		if code != 2 || stderr == "" {
			t.Errorf("%v: exit %d, stderr %q; want a usage error", args, code, stderr)
		}
	}
	if _, err := os.Stat(dst); err == nil {
		t.Error("a refused mirror made its directory")
	}
}

// TestMirrorOutput: a file: tree mirrored with --json gives one object
// per event and a summary; without it, one summary line on stderr; with
// --dry-run, the plan on stdout.
func TestMirrorOutput(t *testing.T) {
	src := t.TempDir()
	os.MkdirAll(filepath.Join(src, "d"), 0o755)
	os.WriteFile(filepath.Join(src, "a.txt"), []byte("a\n"), 0o644)
	os.WriteFile(filepath.Join(src, "d", "b.txt"), []byte("bb\n"), 0o644)
	url := "file://" + filepath.ToSlash(src) + "/"
	dst := filepath.Join(t.TempDir(), "dst")

	code, stdout, stderr := runCmd("mirror", "--dry-run", url, dst)
	if code != 0 || !strings.Contains(stdout, "would fetch  d/b.txt (new)") || !strings.Contains(stderr, "dry run: would fetch 2 (5 B)") ||
		strings.Contains(stdout+stderr, "fetched") {
		t.Fatalf("dry run: exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(dst, "a.txt")); err == nil {
		t.Fatal("a dry run fetched")
	}
	code, stdout, _ = runCmd("mirror", "--json", url, dst)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var events []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("not JSON: %q", l)
		}
		events = append(events, m)
	}
	last := events[len(events)-1]
	if last["event"] != "summary" || last["got"] != float64(2) || last["bytes"] != float64(5) {
		t.Fatalf("summary %v", last)
	}
	code, stdout, stderr = runCmd("mirror", url, dst)
	if code != 0 || stdout != "" || !strings.Contains(stderr, "mirrored: 0 fetched (0 B), 2 unchanged") {
		t.Fatalf("second run: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestMirrorBoundIsSaid: a run that stops at a bound of the walk still
// exits 0 for depth, and says which bound, its value and what it left,
// in the summary line and in --json's summary.
func TestMirrorBoundIsSaid(t *testing.T) {
	src := t.TempDir()
	os.MkdirAll(filepath.Join(src, "d", "e", "f"), 0o755)
	os.WriteFile(filepath.Join(src, "d", "e", "f", "deep.txt"), []byte("x\n"), 0o644)
	url := "file://" + filepath.ToSlash(src) + "/"
	code, _, stderr := runCmd("mirror", "--max-depth", "1", url, t.TempDir())
	if code != 0 || !strings.Contains(stderr, "stopped at a bound, depth 1: 1 links not followed (--max-depth)") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	code, stdout, _ := runCmd("mirror", "--json", "--max-depth", "1", url, t.TempDir())
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	var sum struct {
		Bounds []mirror.Bound `json:"bounds"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); code != 0 || err != nil ||
		len(sum.Bounds) != 1 || sum.Bounds[0] != (mirror.Bound{Name: mirror.BoundDepth, Limit: 1, Left: 1}) {
		t.Fatalf("exit %d, summary %s (%v)", code, lines[len(lines)-1], err)
	}
	if !strings.Contains(stdout, `"bound":"depth"`) {
		t.Errorf("no event names the bound:\n%s", stdout)
	}
}

// TestMirrorHeldDeletionsAreReported: a --delete the safety guard refused
// (a remote directory listed empty while files are here) is said without
// -v, in the summary too, and the run exits 7, not 0.
func TestMirrorHeldDeletionsAreReported(t *testing.T) {
	src := t.TempDir()
	os.MkdirAll(filepath.Join(src, "gone"), 0o755)
	os.WriteFile(filepath.Join(src, "a.txt"), []byte("a\n"), 0o644)
	url := "file://" + filepath.ToSlash(src) + "/"
	dst := t.TempDir()
	os.MkdirAll(filepath.Join(dst, "gone"), 0o755)
	os.WriteFile(filepath.Join(dst, "gone", "z"), []byte("z\n"), 0o644)
	code, _, stderr := runCmd("mirror", "--delete", url, dst)
	if code != 7 || !strings.Contains(stderr, "mirror: gone: the remote listing is empty and 1 entries are here: 1 deletions held back") ||
		!strings.Contains(stderr, "nothing deleted in 1 directories whose listing came back empty") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dst, "gone", "z")); err != nil {
		t.Fatalf("deleted: %v", err)
	}
}

// TestMirrorInterrupted: a mirror that Ctrl-C ends exits 130 and says
// "interrupted" — in the failure of the file it cut short, which keeps
// its partial copy, and in the summary, which says how to go on — with
// no Go words such as "context canceled"; it leaves no lock file.
func TestMirrorInterrupted(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" {
			body := `<html><body><a href="big">big</a></body></html>`
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			io.WriteString(w, body)
			return
		}
		w.Header().Set("Content-Length", "1000000")
		w.Write(bytes.Repeat([]byte("x"), 1000))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer srv.Close()
	dst := t.TempDir()
	ctx, cancel := context.WithCancelCause(context.Background())
	var out, errb bytes.Buffer
	done := make(chan int)
	go func() { done <- run(ctx, []string{"mirror", srv.URL + "/", dst}, strings.NewReader(""), &out, &errb) }()
	part := filepath.Join(dst, "big"+mirror.WorkSuffix)
	await.Until(t, "the first 1000 bytes in "+part, func() bool {
		st, err := os.Stat(part)
		return err == nil && st.Size() == 1000
	})
	cancel(&interrupt{sig: syscall.SIGINT})
	code := <-done
	stderr := errb.String()
	if code != 130 || !strings.Contains(stderr, "mirror: big: "+srv.URL+"/big: interrupted; the partial copy is kept in "+part) ||
		// (what was fetched: the index page, when it was kept before Ctrl-C)
		!strings.Contains(stderr, "urlget: interrupted: ") || !strings.Contains(stderr, "run the same command again to continue") ||
		strings.Contains(stderr, "context") || strings.Contains(stderr, "canceled") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dst, mirror.LockName)); err == nil {
		t.Error("the lock file was left")
	}
}
