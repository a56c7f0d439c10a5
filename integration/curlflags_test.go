//go:build integration

package integration

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"

	"github.com/urlget/urlget/integration/testbed"
)

// The tests here run curl and urlget with the same request flags against
// the same server and compare what each wrote and what the server saw:
// a curl command line must work unchanged with urlget.

// twin is one run of a command (curl or urlget) in a directory of its own.
type twin struct {
	code   int
	stdout string
	stderr string
	dir    string
}

// runTwin runs name (a path) with args in a new directory.
func runTwin(t *testing.T, name string, args ...string) twin {
	t.Helper()
	return runTwinIn(t, "", name, args...)
}

// runTwinIn is runTwin with stdin given.
func runTwinIn(t *testing.T, stdin, name string, args ...string) twin {
	t.Helper()
	return runTwinAt(t, nil, stdin, name, args...)
}

// runTwinAt is runTwinIn in a directory that prep, when set, makes ready
// first (a file an -o names, already there).
func runTwinAt(t *testing.T, prep func(dir string), stdin, name string, args ...string) twin {
	t.Helper()
	dir := t.TempDir()
	if prep != nil {
		prep(dir)
	}
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := twin{stdout: out.String(), stderr: errb.String(), dir: dir}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %q: %v", name, args, err)
	}
	return r
}

// both runs curl and urlget with args.
func both(t *testing.T, args ...string) (curl, urlget twin) {
	t.Helper()
	return bothAt(t, nil, "", args...)
}

// bothAt runs curl and urlget with args and stdin, each in a directory
// that prep, when set, makes ready first.
func bothAt(t *testing.T, prep func(dir string), stdin string, args ...string) (curl, urlget twin) {
	t.Helper()
	bin, err := exec.LookPath("curl")
	if err != nil {
		t.Skip("no curl to compare with")
	}
	return runTwinAt(t, prep, stdin, bin, args...), runTwinAt(t, prep, stdin, urlgetBinary(t), args...)
}

// files maps each file below dir to its content.
func files(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		m[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func sameFiles(t *testing.T, what string, curl, urlget twin) {
	t.Helper()
	c, u := files(t, curl.dir), files(t, urlget.dir)
	if len(c) != len(u) {
		t.Errorf("%s: curl wrote %q, urlget %q", what, slices.Sorted(mapKeys(c)), slices.Sorted(mapKeys(u)))
		return
	}
	for name, data := range c {
		if got, ok := u[name]; !ok || got != data {
			t.Errorf("%s: %s: urlget wrote %d bytes (present %v), curl %d", what, name, len(got), ok, len(data))
		}
	}
}

func mapKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// TestCurlFlagsNginx: `-sSfL -o f`, --fail-with-body, --create-dirs and
// -L through a redirect write the same files as curl on nginx; on a 404
// both write nothing (-f) or the same page (--fail-with-body) and fail
// with 22, or without either write the page and exit 0.
func TestCurlFlagsNginx(t *testing.T) {
	testbed.Require(t, testbed.Nginx)
	u := func(p string) string { return "http://" + testbed.Addr(testbed.HTTPPort) + p }
	for _, tc := range []struct {
		name       string
		args       []string
		curl, ours int
	}{
		{"file", []string{"-sSfL", "-o", "f", u("/text/lf.txt")}, 0, 0},
		{"redirect", []string{"-sSfL", "-o", "f", u("/redirect")}, 0, 0},
		{"404", []string{"-sSfL", "-o", "f", u("/no/such/file")}, 22, 22},
		{"404 fail-with-body", []string{"-sS", "--fail-with-body", "-o", "f", u("/no/such/file")}, 22, 22},
		{"404 without -f", []string{"-sS", "-o", "f", u("/no/such/file")}, 0, 0},
		{"create-dirs", []string{"-sSfL", "--create-dirs", "-o", "a/b/f", u("/text/lf.txt")}, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, o := both(t, tc.args...)
			if c.code != tc.curl || o.code != tc.ours {
				t.Errorf("curl exit %d (want %d) %s; urlget exit %d (want %d) %s", c.code, tc.curl, c.stderr, o.code, tc.ours, o.stderr)
			}
			sameFiles(t, tc.name, c, o)
		})
	}
}

// echo is a 127.0.0.1 server that records each request's header fields.
type echo struct {
	*httptest.Server
	mu  sync.Mutex
	got []http.Header
}

func newEcho(t *testing.T, h http.HandlerFunc) *echo {
	e := &echo{}
	e.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.mu.Lock()
		hdr := r.Header.Clone()
		hdr.Set("X-Seen-Host", r.Host)
		e.got = append(e.got, hdr)
		e.mu.Unlock()
		h(w, r)
	}))
	t.Cleanup(e.Close)
	return e
}

func (e *echo) take() []http.Header {
	e.mu.Lock()
	defer e.mu.Unlock()
	g := e.got
	e.got = nil
	return g
}

// TestCurlFlagsHeaders: -H, -A, -e and "Name:" reach the server as
// curl's do, and across a redirect to another port the custom
// Authorization and Cookie stay behind for both.
func TestCurlFlagsHeaders(t *testing.T) {
	to := newEcho(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "there\n") })
	from := newEcho(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, to.URL+"/there", http.StatusFound)
	})
	fields := []string{"X-Custom", "User-Agent", "Referer", "Authorization", "Cookie", "Accept"}
	view := func(hs []http.Header) []string {
		var v []string
		for _, h := range hs {
			var line []string
			for _, f := range fields {
				vals, ok := h[f]
				line = append(line, fmt.Sprintf("%s=%q/%v", f, strings.Join(vals, ","), ok))
			}
			v = append(v, strings.Join(line, " "))
		}
		return v
	}
	args := []string{"-sSfL", "-o", "f", "-H", "X-Custom: one", "-H", "Accept:", "-H", "Cookie: s=1", "-H", "Authorization: Bearer tok",
		"-A", "agent/7", "-e", "http://referrer.example/", from.URL + "/start"}
	c, o := both(t, args...)
	if c.code != 0 || o.code != 0 {
		t.Fatalf("curl exit %d %s; urlget exit %d %s", c.code, c.stderr, o.code, o.stderr)
	}
	sameFiles(t, "headers", c, o)
	// Each server saw curl's request first, then urlget's.
	fromGot, toGot := view(from.take()), view(to.take())
	if len(fromGot) != 2 || len(toGot) != 2 {
		t.Fatalf("requests: first server %d, second %d; want 2 each", len(fromGot), len(toGot))
	}
	if fromGot[0] != fromGot[1] {
		t.Errorf("first server:\n curl   %s\n urlget %s", fromGot[0], fromGot[1])
	}
	if toGot[0] != toGot[1] {
		t.Errorf("after the redirect:\n curl   %s\n urlget %s", toGot[0], toGot[1])
	}
	if strings.Contains(toGot[1], "tok") || strings.Contains(toGot[1], "s=1") {
		t.Errorf("urlget sent Authorization or Cookie to another port: %s", toGot[1])
	}
	if _, o := both(t, "-sS", "-H", "X: a\r\nInjected: 1", to.URL+"/"); o.code != 2 || len(to.take()) != 1 {
		t.Errorf("CR LF in -H: urlget exit %d %s, want 2 and no request", o.code, o.stderr)
	}
}

// TestCurlFlagsCompressed: with --compressed both ask for a coding and
// write the same decoded bytes, for each coding; without it both keep
// the bytes as served.
func TestCurlFlagsCompressed(t *testing.T) {
	data := bytes.Repeat([]byte("curl and urlget decode the same bytes\n"), 4000)
	code := func(coding string) []byte {
		var b bytes.Buffer
		var w io.WriteCloser
		switch coding {
		case "gzip":
			w = gzip.NewWriter(&b)
		case "deflate":
			w = zlib.NewWriter(&b)
		case "br":
			w = brotli.NewWriter(&b)
		case "zstd":
			w, _ = zstd.NewWriter(&b)
		}
		w.Write(data)
		w.Close()
		return b.Bytes()
	}
	var asked []string
	var mu sync.Mutex
	srv := newEcho(t, func(w http.ResponseWriter, r *http.Request) {
		coding := strings.TrimPrefix(r.URL.Path, "/")
		mu.Lock()
		asked = append(asked, r.Header.Get("Accept-Encoding"))
		mu.Unlock()
		w.Header().Set("Content-Encoding", coding)
		w.Write(code(coding))
	})
	for _, coding := range []string{"gzip", "deflate", "br", "zstd"} {
		t.Run(coding, func(t *testing.T) {
			for _, flags := range [][]string{{"--compressed"}, nil} {
				c, o := both(t, append(flags, "-sSf", "-o", "f", srv.URL+"/"+coding)...)
				if c.code != 0 || o.code != 0 {
					t.Fatalf("%v: curl exit %d %s; urlget exit %d %s", flags, c.code, c.stderr, o.code, o.stderr)
				}
				sameFiles(t, fmt.Sprint(coding, flags), c, o)
				if want := string(data); flags != nil && files(t, o.dir)["f"] != want {
					t.Errorf("--compressed: urlget did not write the decoded bytes")
				}
			}
		})
	}
	mu.Lock()
	defer mu.Unlock()
	for i, a := range asked {
		if i%4 == 1 && !strings.Contains(a, "gzip") {
			t.Errorf("urlget --compressed asked for Accept-Encoding %q", a)
		}
		if i%4 == 3 && a != "" {
			t.Errorf("urlget without --compressed asked for Accept-Encoding %q", a)
		}
	}
}

// TestCurlFlagsRemoteHeaderName: -OJ names the file from
// Content-Disposition as curl does, cut to a file name; without one, the
// URL's name.
func TestCurlFlagsRemoteHeaderName(t *testing.T) {
	srv := newEcho(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/path":
			w.Header().Set("Content-Disposition", `attachment; filename="../../up/evil.txt"`)
		case "/plain":
			w.Header().Set("Content-Disposition", `attachment; filename="report 1.txt"`)
		}
		io.WriteString(w, "data for "+r.URL.Path+"\n")
	})
	for _, p := range []string{"/path", "/plain", "/none"} {
		c, o := both(t, "-sSf", "-OJ", srv.URL+p)
		if c.code != 0 || o.code != 0 {
			t.Fatalf("%s: curl exit %d %s; urlget exit %d %s", p, c.code, c.stderr, o.code, o.stderr)
		}
		sameFiles(t, p, c, o)
	}
}
