package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// heads are the status lines and X-Mine fields of text, in order: the
// shape of -D's blocks, without the Date a server puts in each.
func heads(text string) []string {
	return regexp.MustCompile(`(?m)^(HTTP/1\.1 \d+ .*|X-Mine: .*|)\r$`).FindAllString(text, -1)
}

// TestDumpHeader: -D writes each response's head as well as the body: to
// stdout before the body (each redirect's first, one block a response,
// CRLFs), to a file emptied when the run starts and added to by every
// URL; with -f a failing status writes neither head nor page.
func TestDumpHeader(t *testing.T) {
	srv := statusServer(t)
	stdout, stderr, code := urlget(t, "", "-sS", "-D", "-", srv.URL+"/old")
	want := []string{"HTTP/1.1 302 Found\r", "\r", "HTTP/1.1 200 OK\r", "X-Mine: /f\r", "\r"}
	if code != 0 || strings.Join(heads(stdout), "|") != strings.Join(want, "|") || !strings.HasSuffix(stdout, "\r\n\r\nbody") {
		t.Errorf("-D -: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}

	dir := t.TempDir()
	dump := filepath.Join(dir, "heads")
	os.WriteFile(dump, []byte("an older run's\n"), 0o644)
	_, stderr, code = urlget(t, "", "-sS", "-D", dump, "-o", filepath.Join(dir, "f"), srv.URL+"/f",
		"-o", filepath.Join(dir, "m"), srv.URL+"/status/404", "-o", filepath.Join(dir, "g"), srv.URL+"/g")
	b, _ := os.ReadFile(dump)
	want = []string{"HTTP/1.1 200 OK\r", "X-Mine: /f\r", "\r", "HTTP/1.1 404 Not Found\r", "\r", "HTTP/1.1 200 OK\r", "X-Mine: /g\r", "\r"}
	if code != 0 || strings.Join(heads(string(b)), "|") != strings.Join(want, "|") || strings.Contains(string(b), "older") {
		t.Errorf("-D FILE: exit %d, %q, stderr %q", code, b, stderr)
	}
	for name, body := range map[string]string{"f": "body", "m": "page 404\n", "g": "body"} {
		if got, _ := os.ReadFile(filepath.Join(dir, name)); string(got) != body {
			t.Errorf("-o %s: %q, want %q", name, got, body)
		}
	}

	stdout, _, code = urlget(t, "", "-sf", "-D", "-", srv.URL+"/status/404")
	if code != 22 || stdout != "" {
		t.Errorf("-f -D - on a 404: exit %d, stdout %q", code, stdout)
	}
}

// TestDumpHeaderOtherSchemes: for a scheme without an HTTP head, -D
// writes the lines -I shows (a file: URL's size and time), and the body
// as well.
func TestDumpHeaderOtherSchemes(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src")
	os.WriteFile(src, []byte("data"), 0o644)
	head, _, code := urlget(t, "", "-I", "file://"+src)
	if code != 0 || !strings.Contains(head, "Content-Length: 4\r\n") {
		t.Fatalf("-I: exit %d, %q", code, head)
	}
	stdout, stderr, code := urlget(t, "", "-D", "-", "file://"+src)
	if code != 0 || stdout != head+"data" {
		t.Errorf("-D -: exit %d, stdout %q, want %q; stderr %q", code, stdout, head+"data", stderr)
	}
}

// TestDumpHeaderParallel: with -Z, each URL's heads on stdout stay with
// its body, in the URLs' order.
func TestDumpHeaderParallel(t *testing.T) {
	srv := statusServer(t)
	stdout, stderr, code := urlget(t, "", "-Z", "-sS", "-D", "-", srv.URL+"/f", srv.URL+"/g", srv.URL+"/f")
	parts := strings.Split(stdout, "body")
	if code != 0 || len(parts) != 4 || parts[3] != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	for i, want := range []string{"/f", "/g", "/f"} {
		if h := heads(parts[i]); len(h) != 3 || h[1] != "X-Mine: "+want+"\r" {
			t.Errorf("part %d: heads %q", i, h)
		}
	}
}

// TestDumpHeaderRefused: a -D file that cannot be made is curl's write
// error (23) before anything is fetched; ls and mirror have no -D.
func TestDumpHeaderRefused(t *testing.T) {
	srv := statusServer(t)
	_, stderr, code := urlget(t, "", "-D", "/proc/urlget-x/heads", srv.URL+"/f")
	if code != 23 || !strings.Contains(stderr, "-D /proc/urlget-x/heads: cannot create it") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	for _, args := range [][]string{
		{"ls", "-D", "-", srv.URL + "/"},
		{"mirror", "-D", "-", srv.URL + "/", t.TempDir()},
	} {
		if _, stderr, code := urlget(t, "", args...); code != 2 || !strings.Contains(stderr, "--dump-header") {
			t.Errorf("%q: exit %d, stderr %q", args, code, stderr)
		}
	}
}

// TestProxyShorthand: -x is --proxy, as curl's: a plain http: URL goes
// to the proxy in absolute form.
func TestProxyShorthand(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.RequestURI)
		mu.Unlock()
		w.Write([]byte("via the proxy"))
	}))
	defer proxy.Close()
	stdout, stderr, code := urlget(t, "", "-sS", "-x", proxy.URL, "http://origin.invalid/x")
	mu.Lock()
	defer mu.Unlock()
	if code != 0 || stdout != "via the proxy" || len(seen) != 1 || seen[0] != "http://origin.invalid/x" {
		t.Errorf("exit %d, stdout %q, stderr %q, proxy saw %q", code, stdout, stderr, seen)
	}
}
