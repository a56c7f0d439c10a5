package main

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// TestCurlFlagHints: a curl flag urlget lacks is named with what to use
// instead, single or in a group of shorthands; an unknown flag that is
// not curl's says so; a flag urlget has is not touched.
func TestCurlFlagHints(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-G", "http://h/"}, "-G is a curl flag urlget does not have: put the search part in the URL itself"},
		{[]string{"--cookie", "a=b", "http://h/"}, "--cookie is a curl flag urlget does not have: urlget keeps no cookies"},
		{[]string{"-sSb", "c", "http://h/"}, "-b is a curl flag urlget does not have: urlget keeps no cookies"},
		{[]string{"--socks5", "p:1080", "http://h/"}, "use --proxy socks5://HOST:PORT"},
		{[]string{"--http2", "http://h/"}, "HTTP/1.1 only"},
		{[]string{"-T", "f", "ftp://h/"}, "does not upload"},
		{[]string{"--no-such-flag", "http://h/"}, "unknown flag --no-such-flag (urlget --help lists the flags)"},
	} {
		code, _, stderr := runCmd(c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "unknown shorthand") {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
	// Every hint is for a flag urlget does not have: one it has would
	// never reach the table, and its hint would be a lie.
	for flag := range curlHints {
		_, err := parseFlags([]string{flag, "x", "http://h/"}, strings.NewReader(""), io.Discard)
		if err == nil || !strings.HasPrefix(err.Error(), flag+" is a curl flag urlget does not have: ") {
			t.Errorf("curlHints has %s, which urlget has: %v", flag, err)
		}
	}
}

// TestGuessScheme: a URL without a scheme takes the one the declarations'
// host prefixes give its host (schemes.Name.HostPrefixes), curl's guess.
func TestGuessScheme(t *testing.T) {
	reg := fetch.DefaultRegistry()
	known := func(s string) bool { _, ok := reg.Lookup(s); return ok }
	for _, c := range []struct{ raw, want, scheme string }{
		{"example.org/file", "http://example.org/file", "http"},
		{"ftp.example.org/pub/x", "ftp://ftp.example.org/pub/x", "ftp"},
		{"FTP.Example.org", "ftp://FTP.Example.org", "ftp"},
		{"gopher.example.org/1/x", "gopher://gopher.example.org/1/x", "gopher"},
		{"news.example.org/comp.lang.go", "nntp://news.example.org/comp.lang.go", "nntp"},
		{"nntp.example.org", "nntp://nntp.example.org", "nntp"},
		{"localhost:8080/x", "http://localhost:8080/x", "http"},
		{"ftp.example.org:2121/x", "ftp://ftp.example.org:2121/x", "ftp"},
		{"user:pw@ftp.example.org/x", "ftp://user:pw@ftp.example.org/x", "ftp"},
		{"127.0.0.1:8080", "http://127.0.0.1:8080", "http"},
		{"[::1]:8080/", "http://[::1]:8080/", "http"},
		// A scheme is kept: known, or any followed by "//".
		{"http://example.org/", "", ""},
		{"news:comp.lang.go", "", ""},
		{"mailto:a@example.org", "", ""},
		{"foo://example.org/", "", ""},
		{"/etc/passwd", "", ""},
		{"<URL:ftp://h/>", "", ""},
	} {
		got, scheme, ok := guessScheme(c.raw, known, reg.SchemeForHost)
		if c.want == "" {
			if ok || got != c.raw {
				t.Errorf("guessScheme(%q) = %q, %v; want it kept", c.raw, got, ok)
			}
			continue
		}
		if !ok || got != c.want || scheme != c.scheme {
			t.Errorf("guessScheme(%q) = %q, %q, %v; want %q, %q", c.raw, got, scheme, ok, c.want, c.scheme)
		}
	}
}

// TestGuessedSchemeRetrieved: a URL without a scheme is fetched with the
// guessed one, and -v says so; `urlget parse` still reports it.
func TestGuessedSchemeRetrieved(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hello\n") }))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	code, stdout, stderr := runCmd("-v", host+"/x")
	if code != 0 || stdout != "hello\n" || !strings.Contains(stderr, "guessed http from the host name (http://"+host+"/x)") {
		t.Errorf("exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
	if code, _, stderr := runCmd("parse", host+"/x"); code == 0 {
		t.Errorf("parse of a URL without a scheme: exit 0, %s", stderr)
	}
}

func TestHeadText(t *testing.T) {
	mod := time.Date(2024, 1, 2, 3, 4, 5, 0, time.FixedZone("x", 3600))
	for _, c := range []struct {
		name  string
		r     schemes.Response
		local bool
		want  string
	}{
		{"http head as sent", schemes.Response{Head: "HTTP/1.1 200 OK\r\nETag: x\r\n\r\n", Size: 5}, false,
			"HTTP/1.1 200 OK\r\nETag: x\r\n\r\n"},
		{"ftp file", schemes.Response{Kind: schemes.EntryFile, Size: 43, ModTime: mod}, false,
			"Last-Modified: Tue, 02 Jan 2024 02:04:05 GMT\r\nContent-Length: 43\r\nAccept-ranges: bytes\r\n"},
		{"ftp without time", schemes.Response{Kind: schemes.EntryFile, Size: 0}, false,
			"Content-Length: 0\r\nAccept-ranges: bytes\r\n"},
		{"ftp directory", schemes.Response{Kind: schemes.EntryDir, Size: -1}, false, ""},
		{"local file", schemes.Response{Kind: schemes.EntryFile, Size: 3, ModTime: mod}, true,
			"Content-Length: 3\r\nAccept-ranges: bytes\r\nLast-Modified: Tue, 02 Jan 2024 02:04:05 GMT\r\n"},
		{"local directory", schemes.Response{Kind: schemes.EntryDir, Size: 4096, ModTime: mod}, true,
			"Last-Modified: Tue, 02 Jan 2024 02:04:05 GMT\r\n"},
	} {
		if got := headText(&c.r, c.local); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestHeadFlag: -I prints the response head and no body (HTTP HEAD), a
// local file's curl-style lines, and refuses a scheme without a stat;
// -w follows it.
func TestHeadFlag(t *testing.T) {
	var methods []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		methods = append(methods, r.Method)
		if r.URL.Path == "/moved" {
			w.Header()["Location"] = []string{"/f"}
			w.WriteHeader(http.StatusMovedPermanently)
			return
		}
		w.Header()["ETag"] = []string{`"e"`}
		w.Header().Set("Content-Length", "5")
		io.WriteString(w, "body\n")
	}))
	defer srv.Close()
	code, stdout, stderr := runCmd("-s", "-I", "-w", "%{http_code}\n", srv.URL+"/f")
	if code != 0 || !strings.HasPrefix(stdout, "HTTP/1.1 200 OK\r\n") || !strings.Contains(stdout, "\r\nETag: \"e\"\r\n") ||
		!strings.HasSuffix(stdout, "\r\n\r\n200\n") || strings.Contains(stdout, "body") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if len(methods) != 1 || methods[0] != http.MethodHead {
		t.Errorf("server saw %v, want one HEAD", methods)
	}
	// A redirect's head comes first, as with curl -IL.
	code, stdout, _ = runCmd("-s", "-I", srv.URL+"/moved")
	if code != 0 || !strings.HasPrefix(stdout, "HTTP/1.1 301 Moved Permanently\r\nLocation: /f\r\n") ||
		!strings.Contains(stdout, "\r\n\r\nHTTP/1.1 200 OK\r\n") || strings.Count(stdout, "HTTP/1.1") != 2 {
		t.Errorf("redirect: exit %d, stdout %q", code, stdout)
	}
	f := filepath.Join(t.TempDir(), "f")
	os.WriteFile(f, []byte("abc"), 0o644)
	mod := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	os.Chtimes(f, mod, mod)
	code, stdout, _ = runCmd("--head", "file://"+f)
	if want := "Content-Length: 3\r\nAccept-ranges: bytes\r\nLast-Modified: Tue, 02 Jan 2024 03:04:05 GMT\r\n"; code != 0 || stdout != want {
		t.Errorf("file: exit %d, stdout %q, want %q", code, stdout, want)
	}
	code, _, stderr = runCmd("-I", "gopher://127.0.0.1:1/1")
	if code != 8 || !strings.Contains(stderr, "-I: gopher: URLs cannot be described without retrieving them") {
		t.Errorf("gopher: exit %d, %s", code, stderr)
	}
}

// TestWriteOutAfterTransfer: -w is written after the body, with the
// variables of the transfer, and after a failure with its exit code and
// message; with -o its file name.
func TestWriteOutAfterTransfer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/old":
			http.Redirect(w, r, "/f", http.StatusFound)
		case "/f":
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, "body\n")
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	format := `%{response_code} %{size_download} %{num_redirects} %{content_type} %{url_effective} %{exitcode}\n`
	code, stdout, _ := runCmd("-s", "-w", format, srv.URL+"/old")
	if want := "body\n200 5 1 text/plain " + srv.URL + "/f 0\n"; code != 0 || stdout != want {
		t.Errorf("exit %d, stdout %q, want %q", code, stdout, want)
	}
	code, stdout, _ = runCmd("-sf", "-w", "%{http_code} %{exitcode} %{errormsg}", srv.URL+"/missing")
	if want := "404 22 " + srv.URL + "/missing: 404 Not Found"; code != 22 || stdout != want {
		t.Errorf("-f: exit %d, stdout %q, want %q", code, stdout, want)
	}
	// Without -f the page is the resource, as with curl: the script
	// `code=$(urlget -s -o /dev/null -w '%{http_code}' URL)` works under set -e.
	code, stdout, _ = runCmd("-s", "-o", os.DevNull, "-w", "%{http_code} %{exitcode} %{errormsg}", srv.URL+"/missing")
	if want := "404 0 "; code != 0 || stdout != want {
		t.Errorf("exit %d, stdout %q, want %q", code, stdout, want)
	}
	dest := filepath.Join(t.TempDir(), "out")
	code, stdout, _ = runCmd("-s", "-o", dest, "-w", "%{filename_effective}", srv.URL+"/f")
	if code != 0 || stdout != dest {
		t.Errorf("-o: exit %d, stdout %q, want %q", code, stdout, dest)
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close() // nothing listens: a connection refused
	code, stdout, _ = runCmd("-s", "-w", "%{http_code} %{exitcode}", "http://"+addr+"/")
	if code != 5 || stdout != "000 5" {
		t.Errorf("refused: exit %d, stdout %q", code, stdout)
	}
	code, _, stderr := runCmd("-w", "%{bogus}", srv.URL+"/f")
	if code != 0 || !strings.Contains(stderr, "unknown --write-out variable: 'bogus'") {
		t.Errorf("unknown variable: exit %d, stderr %q", code, stderr)
	}
}

func TestHashBar(t *testing.T) {
	now := time.Now()
	m := newMeter("u", now, 0, 1000)
	m.set(500, 1000)
	line := (hashBar{m}).view(now, 40)[0]
	if want := strings.Repeat("#", 16) + strings.Repeat(" ", 16) + "  50.0%"; line != want {
		t.Errorf("%q, want %q", line, want)
	}
	m.set(1000, 1000)
	line = (hashBar{m}).view(now, 0)[0]
	if len(line) != hashWidth-1 || !strings.HasSuffix(line, "# 100.0%") {
		t.Errorf("%q", line)
	}
	u := newMeter("u", now, 0, -1)
	u.set(2048, -1)
	line = (hashBar{u}).view(now, 40)[0]
	if !strings.HasPrefix(line, "2.0 KiB") {
		t.Errorf("unknown size: %q", line)
	}
}
