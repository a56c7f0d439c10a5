package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

var forPeopleTests = []struct{ in, want string }{
	{"plain text", "plain text"},
	{"héllo ✓ 日本", "héllo ✓ 日本"},
	{"esc\x1b[31mred", `esc\x1b[31mred`},
	{"over\rwrite", `over\rwrite`},
	{"name\nurlget: fake line", `name\nurlget: fake line`},
	{"tab\there", `tab\there`},
	{"del\x7f nul\x00", `del\x7f nul\x00`},
	{"c1 \u009b2J", `c1 \u009b2J`},
	{"file\u202eexe.txt", `file\u202eexe.txt`},
	{"nbsp\u00a0zwsp\u200b", `nbsp\u00a0zwsp\u200b`},
	{"bad \xff\xfe utf8", `bad \xff\xfe utf8`},
	{"ok \uFFFD replacement", "ok \uFFFD replacement"},
	{strings.Repeat("a", 250), strings.Repeat("a", 200) + "…"},
	{"http://h/" + strings.Repeat("x", 300) + ": not found", "http://h/" + strings.Repeat("x", 191) + "…: not found"},
	{strings.Repeat("é", 201), strings.Repeat("é", 200) + "…"},
	{strings.Repeat("w ", 150), strings.Repeat("w ", 150)},
}

func TestForPeople(t *testing.T) {
	for _, tc := range forPeopleTests {
		if got := forPeople(tc.in); got != tc.want {
			t.Errorf("forPeople(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

func FuzzForPeople(f *testing.F) {
	for _, tc := range forPeopleTests {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := forPeople(s)
		if !utf8.ValidString(got) || strings.ContainsFunc(got, func(r rune) bool { return !unicode.IsPrint(r) && r != ' ' && r != '\uFFFD' }) {
			t.Fatalf("forPeople(%q) = %q: not safe to print", s, got)
		}
		for _, w := range strings.Split(got, " ") {
			if n := utf8.RuneCountInString(w); n > maxShownWord+2 {
				t.Fatalf("forPeople(%q) keeps a word of %d runes", s, n)
			}
		}
		if forPeople(got) != got {
			t.Fatalf("forPeople is not idempotent on %q", s)
		}
	})
}

func TestMaxTimeExpirySaysSo(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "100")
		w.Write([]byte("partial"))
		w.(http.Flusher).Flush()
		<-r.Context().Done() // never finishes: only --max-time ends it
	}))
	defer srv.Close()
	stdout, stderr, code := urlget(t, "", "--json", "--max-time", "0.3", srv.URL+"/slow")
	if code != 5 || !strings.Contains(stderr, srv.URL+"/slow: --max-time 0.3s expired\n") || strings.Contains(stderr, "deadline") {
		t.Fatalf("exit %d, stderr %q; want exit 5 saying --max-time 0.3s expired", code, stderr)
	}
	var rep report
	if err := json.Unmarshal([]byte(lastLine(stdout)), &rep); err != nil || rep.Error == nil || rep.Error.Kind != "timeout" ||
		rep.Error.Message != srv.URL+"/slow: --max-time 0.3s expired" {
		t.Fatalf("report %+v (%v) from %q", rep.Error, err, stdout)
	}
}

func TestLongURLsAreShortenedInMessagesOnly(t *testing.T) {
	dir := t.TempDir()
	raw := "file://" + dir + "/" + strings.Repeat("n", 250) // a file name may not be longer
	stdout, stderr, code := urlget(t, "", "--json", raw)
	if code != 3 || !strings.Contains(stderr, "…") || strings.Contains(stderr, raw) {
		t.Fatalf("exit %d, %d bytes on stderr: %q", code, len(stderr), stderr)
	}
	var rep report
	if err := json.Unmarshal([]byte(lastLine(stdout)), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.URL != raw || rep.Input != raw || !strings.Contains(rep.Error.Message, raw) {
		t.Fatalf("--json shortened the URL: url %d bytes, input %d, message %q", len(rep.URL), len(rep.Input), rep.Error.Message)
	}
}

func TestInputFileLineTooLong(t *testing.T) {
	in := "http://h.invalid/a\n# a comment\nhttp://h.invalid/" + strings.Repeat("x", maxURLLine) + "\n"
	_, stderr, code := urlget(t, in, "-i", "-")
	if code != 2 || !strings.Contains(stderr, "-i -: line 3 is longer than 1.0 MiB") {
		t.Fatalf("exit %d: %q", code, stderr)
	}
}

func TestFormNeedsAFormURL(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--form", "Name=x", "gopher://127.0.0.1:7070/1menu"}, 2, "gopher://127.0.0.1:7070/1menu: --form answers a Gopher+ +ASK form, and this URL asks for none"},
		{[]string{"--form-json", "testdata/form.json", "gopher://127.0.0.1:70/0t%09%09+"}, 2, "end it with %09%09?"},
		{[]string{"--form", "Name=x", "http://127.0.0.1/"}, 2, "give a gopher URL ending in %09%09?"},
		{[]string{"--form", "Name=x", "--explain", "gopher://127.0.0.1/1form%09%09?"}, 0, ""},
		{[]string{"--explain", "gopher://127.0.0.1/1menu"}, 0, ""},
	} {
		_, stderr, code := urlget(t, "", tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.msg) {
			t.Errorf("%q: exit %d %q; want %d with %q", tc.args, code, stderr, tc.code, tc.msg)
		}
	}
}

func TestOutputDirIsCreated(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src.txt")
	os.WriteFile(src, []byte("data"), 0o644)
	out := filepath.Join(dir, "new", "sub")
	if _, stderr, code := urlget(t, "", "-s", "-S", "--output-dir", out, "-O", "file://"+src); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if b, err := os.ReadFile(filepath.Join(out, "src.txt")); string(b) != "data" {
		t.Fatalf("%q %v", b, err)
	}
}

func TestOutputIntoMissingDirectoryNamesIt(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src.txt")
	os.WriteFile(src, []byte("data"), 0o644)
	dest := filepath.Join(dir, "missing", "x")
	_, stderr, code := urlget(t, "", "-o", dest, "file://"+src)
	if code != 23 || !strings.Contains(stderr, "there is no directory "+filepath.Join(dir, "missing")) ||
		strings.Contains(stderr, ".part") || strings.Contains(stderr, ".urlget-") {
		t.Fatalf("exit %d: %q", code, stderr)
	}
}

// rawHTTP serves one canned response to every connection.
func rawHTTP(t *testing.T, response string) string {
	t.Helper()
	return "http://" + serveConns(t, func(c net.Conn) {
		br := bufio.NewReader(c)
		for { // the request's head
			line, err := br.ReadString('\n')
			if err != nil || line == "\r\n" {
				break
			}
		}
		c.Write([]byte(response))
	})
}

// serveConns listens on 127.0.0.1 until the test ends, calls serve on
// each connection in a goroutine of its own and closes it after, and
// returns the listener's host:port.
func serveConns(t *testing.T, serve func(c net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				serve(c)
			}()
		}
	}()
	return ln.Addr().String()
}

// TestServerTextInErrorsIsEscaped: a reason phrase with control
// characters is shown escaped, in the failure under -f and in the note
// of the page written without it.
func TestServerTextInErrorsIsEscaped(t *testing.T) {
	base := rawHTTP(t, "HTTP/1.1 404 Gone\x1b]0;pwned\x07\x1b[2J\rurlget: fake\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
	for _, tc := range []struct {
		flags []string
		code  int
	}{{[]string{"-f"}, 22}, {nil, 0}} {
		_, stderr, code := urlget(t, "", append(tc.flags, base+"/x")...)
		if code != tc.code {
			t.Fatalf("%q: exit %d: %q", tc.flags, code, stderr)
		}
		if strings.ContainsFunc(strings.TrimSuffix(stderr, "\n"), unicode.IsControl) {
			t.Fatalf("%q: control characters reached stderr: %q", tc.flags, stderr)
		}
		if !strings.Contains(stderr, `404 Gone\x1b]0;pwned\x07\x1b[2J\rurlget: fake`) {
			t.Fatalf("%q: server text not shown escaped: %q", tc.flags, stderr)
		}
	}
}

func lastLine(s string) string {
	s = strings.TrimSuffix(s, "\n")
	return s[strings.LastIndexByte(s, '\n')+1:]
}

func TestSizeFlagsReachTheClient(t *testing.T) {
	o, err := parseFlags([]string{"--limit-rate", "200K", "--max-filesize", "3m", "http://h.invalid/"}, strings.NewReader(""), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	c, err := o.client(strings.NewReader(""), newConsole(nil, false))
	if err != nil {
		t.Fatal(err)
	}
	if c.LimitRate != 200<<10 || c.MaxFileSize != 3<<20 {
		t.Fatalf("LimitRate %d, MaxFileSize %d", c.LimitRate, c.MaxFileSize)
	}
	for _, bad := range [][]string{{"--limit-rate", "fast"}, {"--max-filesize", "-1"}, {"--max-filesize", "2T"}} {
		_, stderr, code := urlget(t, "", append(bad, "http://h.invalid/")...)
		if code != 2 || !strings.Contains(stderr, fmt.Sprintf("%s %q", bad[0], bad[1])) {
			t.Errorf("%q: exit %d %q, want a usage error", bad, code, stderr)
		}
	}
}

func TestExplainShowsControlCharactersEscaped(t *testing.T) {
	out, stderr, code := urlget(t, "", "--explain", "gopher://127.0.0.1/0a%1B%5B2Jb")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.ContainsRune(out, 0x1b) || !strings.Contains(out, `a\x1b[2Jb`) {
		t.Fatalf("plan %q", out)
	}
}
