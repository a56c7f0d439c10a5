package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// urlget runs the command in-process and returns stdout, stderr and status.
func urlget(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

func TestExitCodesByFailureKind(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	os.WriteFile(src, []byte("data"), 0o644)
	tests := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"bad typecode", []string{"ftp://h/x;type=q"}, 2, `ftp://h/x;type=q: bad typecode "q" (want a, i or d)`},
		{"bad port", []string{"http://h:99999/"}, 2, `bad port "99999"`},
		{"bad escape", []string{"news:12345667123%asdghfh@info.cern.ch"}, 2, "malformed escape"},
		{"unknown flag", []string{"--no-such-flag", "http://h/"}, 2, "unknown flag"},
		{"not found", []string{"file://" + dir + "/missing"}, 3, "missing"},
		{"port policy", []string{"--connect-timeout", "1", "http://127.0.0.1:25/"}, 7, "25"},
		{"unsupported scheme", []string{"zork://h/"}, 8, `unsupported scheme "zork"`},
		{"no file: over ftp", []string{"--no-file-ftp", "file://elsewhere.example/etc/motd"}, 8, "no-file-ftp"},
		{"password redacted", []string{"ftp://u:hunter2@h:0/"}, 2, "u:****@h"},
		// A local file that cannot be written is exit 23 (curl's write
		// error), never a remote failure's code: not 3 for ENOENT, not 4
		// for EACCES.
		{"local: under /proc", []string{"-o", "/proc/urlget-x", "file://" + src}, 23, "cannot create local file /proc/urlget-x.part: no such file or directory"},
		{"local: full disk", []string{"-o", "/dev/full", "file://" + src}, 23, "cannot write local file /dev/full: no space left on device"},
		{"local: parent is a file", []string{"-o", src + "/x", "file://" + src}, 23, src + " is not a directory"},
		{"local: no directory", []string{"-o", dir + "/none/x", "file://" + src}, 23, "there is no directory " + dir + "/none"},
		{"local: -o names a directory", []string{"-o", dir, "file://" + src}, 23, dir + " is a directory"},
		{"local: output-dir", []string{"--output-dir", "/proc/urlget-x", "-O", "file://" + src}, 23, "--output-dir /proc/urlget-x: cannot create it"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := urlget(t, "", tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.msg) {
				t.Fatalf("exit %d, stderr %q; want exit %d mentioning %q", code, stderr, tc.code, tc.msg)
			}
			if strings.Contains(stderr, "hunter2") {
				t.Fatalf("password in stderr: %q", stderr)
			}
		})
	}
}

func TestParsePrintsEveryPart(t *testing.T) {
	out, stderr, code := urlget(t, "", "parse", "FTP://foo:@Host.COM:21//etc/motd;type=A#top")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"url": "FTP://foo:@Host.COM:21//etc/motd;type=A#top", "canonical": "ftp://foo:@host.com//etc/motd;type=a#top",
		"scheme": "FTP", "user": "foo", "password": "", "host": "Host.COM", "port": float64(21), "fragment": "top",
		"ftp": map[string]any{"cwd": []any{"", "etc"}, "name": "motd", "type": "a"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("parse =\n%v\nwant\n%v", got, want)
	}
	out, _, _ = urlget(t, "", "parse", "news:comp.infosystems.www.misc")
	if !strings.Contains(out, `"user": null`) || !strings.Contains(out, `"host": null`) || !strings.Contains(out, `"group": "comp.infosystems.www.misc"`) {
		t.Fatalf("news parse: %s", out)
	}
}

func TestTextSubcommands(t *testing.T) {
	tests := []struct {
		args []string
		out  string
		code int
	}{
		{[]string{"canon", "HTTP://WWW.Example.COM:80/a%2db%2Fc"}, "http://www.example.com/a-b%2Fc\n", 0},
		{[]string{"same", "http://a/bertram/marie%2Dclaude", "http://a/bertram/marie-claude"}, "same\n", 0},
		{[]string{"same", "http://a/bertram%2Fmarie-claude", "http://a/bertram/marie-claude"}, "different\n", 1},
		{[]string{"resolve", "magic://a/b/c//d/e/f", "g"}, "magic://a/b/c//d/e/g\n", 0},
		{[]string{"resolve", "magic://a/b/c//d/e/f", "//g"}, "magic://g\n", 0},
		{[]string{"resolve", "magic://a/b/c//d/e/f", "g:a"}, "g:a\n", 0},
		{[]string{"same", "only-one"}, "", 2},
	}
	for _, tc := range tests {
		out, stderr, code := urlget(t, "", tc.args...)
		if out != tc.out || code != tc.code {
			t.Errorf("%q: %q exit %d (%s); want %q exit %d", tc.args, out, code, stderr, tc.out, tc.code)
		}
	}
	appendix := "Yes, Jim, I found it under <URL:ftp://info.cern.ch/pub/www/doc;\n      type=d> but you can probably pick it up from <URL:ftp://ds.in\n      ternic.net/rfc>.  Note the warning in <URL:http://ds.internic.\n      net/instructions/overview.html#WARNING>.\n"
	out, _, code := urlget(t, appendix, "extract")
	want := "ftp://info.cern.ch/pub/www/doc;type=d\nftp://ds.internic.net/rfc\nhttp://ds.internic.net/instructions/overview.html#WARNING\n"
	if out != want || code != 0 {
		t.Fatalf("extract = %q (exit %d), want %q", out, code, want)
	}
}

func TestOutputFilesAndJSON(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src.txt")
	os.WriteFile(src, []byte("payload\n"), 0o644)
	out := filepath.Join(dir, "out")
	os.Mkdir(out, 0o755)
	stdout, stderr, code := urlget(t, "", "--json", "-s", "--output-dir", out, "-O", "file://"+src, "file://"+dir+"/none")
	if code != 3 {
		t.Fatalf("exit %d (%s)", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 2 {
		t.Fatalf("want one JSON object per URL, got %q", stdout)
	}
	var ok, bad report
	json.Unmarshal([]byte(lines[0]), &ok)
	json.Unmarshal([]byte(lines[1]), &bad)
	if ok.Bytes != 8 || ok.Output == nil || *ok.Output != filepath.Join(out, "src.txt") || ok.Error != nil {
		t.Errorf("first report %+v", ok)
	}
	if bad.Error == nil || bad.Error.Kind != "not_found" {
		t.Errorf("second report %+v", bad)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "src.txt")); string(b) != "payload\n" {
		t.Errorf("file holds %q", b)
	}
}

func TestVerboseTraceRedactsPasswords(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != "alice" || p != "s3cret-pw" {
			http.Error(w, "who are you", http.StatusUnauthorized)
			return
		}
		fmt.Fprint(w, "welcome")
	}))
	defer srv.Close()
	raw := strings.Replace(srv.URL, "http://", "http://alice:s3cret-pw@", 1) + "/x"
	stdout, stderr, code := urlget(t, "", "-v", "--json", raw)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "> GET /x HTTP/1.1") || !strings.Contains(stderr, "< HTTP/1.1 200") {
		t.Errorf("trace lacks the exchange:\n%s", stderr)
	}
	if strings.Contains(stderr+stdout, "s3cret-pw") {
		t.Fatalf("password leaked:\n%s\n%s", stderr, stdout)
	}
	if !strings.Contains(stdout, "alice:****@") {
		t.Errorf("json url not redacted: %s", stdout)
	}
}

func TestResumeContinuesPartialFile(t *testing.T) {
	srv := httptest.NewServer(http.FileServer(http.Dir("testdata")))
	defer srv.Close()
	dir := t.TempDir()
	dest := filepath.Join(dir, "f.txt")
	full, err := os.ReadFile("testdata/f.txt")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(dest, full[:10], 0o644)
	_, stderr, code := urlget(t, "", "-s", "-S", "-C", "-", "-o", dest, srv.URL+"/f.txt")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got, _ := os.ReadFile(dest); !bytes.Equal(got, full) {
		t.Fatalf("resumed file differs: %q", got)
	}
}

func TestExplainPrintsPlanWithoutConnecting(t *testing.T) {
	out, stderr, code := urlget(t, "", "--explain", "http://u:pw@h.invalid/a%20b?q#frag")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "GET /a%20b?q HTTP/1.1") || strings.Contains(out, "frag") || strings.Contains(out, "pw") {
		t.Fatalf("plan:\n%s", out)
	}
}

// registryFor parses args as the command does (with a URL added) and
// builds the registry the flags make.
func registryFor(t *testing.T, args ...string) (*schemes.Registry, error) {
	t.Helper()
	o, err := parseFlags(append(args, "http://h.invalid/"), strings.NewReader(""), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	return fetch.NewRegistry(o.config())
}

// handlerFor is the handler of scheme that the flags in args make.
func handlerFor[H any](t *testing.T, scheme string, args ...string) H {
	t.Helper()
	r, err := registryFor(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := r.Lookup(scheme)
	h, ok := s.Handler.(H)
	if !ok {
		t.Fatalf("%s: handler %T", scheme, s.Handler)
	}
	return h
}
