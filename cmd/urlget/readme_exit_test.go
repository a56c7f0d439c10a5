package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/urlget/urlget/schemes"
)

// readmeSection is the README's text from the heading title to the next
// heading of its level.
func readmeSection(t *testing.T, title string) string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "\n"+title+"\n")
	if !ok {
		t.Fatalf("README.md has no %q", title)
	}
	level := title[:strings.IndexByte(title, ' ')+1]
	if i := strings.Index(rest, "\n"+level); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

// readmeExitTable is the README's "Exit status" table: each code's
// meaning.
func readmeExitTable(t *testing.T) map[int]string {
	t.Helper()
	rows := map[int]string{}
	for _, m := range regexp.MustCompile(`(?m)^\| (\d+) \| (.*?) \|`).FindAllStringSubmatch(readmeSection(t, "## Exit status"), -1) {
		code, _ := strconv.Atoi(m[1])
		if _, dup := rows[code]; dup {
			t.Errorf("README: exit %d has two rows", code)
		}
		rows[code] = m[2]
	}
	return rows
}

// TestREADMEExitTable: the README's exit status table is the program's.
// Each kind of failure (schemes.Kind.ExitCode) has the row of its code,
// which says what it is; so do the command's own statuses — success,
// curl's 22 for an HTTP error status under -f, Ctrl-C's 130 —; the table
// has no row the program never exits with; and the command exits as the
// table says on a failure of each kind a test can cause here, the two
// local write errors of issue 33 among them (a missing -o directory and
// an -o that is a directory: 23, curl's write error, in the table and in
// --output-dir's row alike).
func TestREADMEExitTable(t *testing.T) {
	rows := readmeExitTable(t)
	says := map[schemes.Kind]string{
		schemes.KindOther: "other failure", schemes.KindUsage: "usage error", schemes.KindNotFound: "not found",
		schemes.KindPermission: "permission refused", schemes.KindConnect: "could not connect",
		schemes.KindTimeout: "timeout", schemes.KindProtocol: "protocol error", schemes.KindSafety: "safety rule",
		schemes.KindUnsupported: "not supported", schemes.KindCanceled: "other failure",
		schemes.KindBusy: "busy server", schemes.KindLocal: "local write error",
	}
	codes := map[int]bool{}
	// Every kind, one added after KindLocal too: past the last, String
	// says "other".
	for k := schemes.Kind(0); k == schemes.KindOther || k.String() != "other"; k++ {
		word, ok := says[k]
		if !ok {
			t.Errorf("kind %v (exit %d): the test does not know what its README row says", k, k.ExitCode())
			continue
		}
		codes[k.ExitCode()] = true
		if row, ok := rows[k.ExitCode()]; !ok || !strings.Contains(row, word) {
			t.Errorf("kind %v exits %d, whose README row %q does not say %q", k, k.ExitCode(), row, word)
		}
	}
	own := map[int]string{
		0:             "success",
		exitHTTPError: "HTTP error status",
		(&interrupt{sig: syscall.SIGINT}).exitCode(): "Ctrl-C",
	}
	for code, word := range own {
		codes[code] = true
		if row, ok := rows[code]; !ok || !strings.Contains(row, word) {
			t.Errorf("the command exits %d, whose README row %q does not say %q", code, row, word)
		}
	}
	for code := range rows {
		if !codes[code] {
			t.Errorf("README: a row for exit %d, which urlget never exits with", code)
		}
	}

	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	os.WriteFile(src, []byte("data"), 0o644)
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"file://" + src}, 0},
		{[]string{"--no-such-flag", "file://" + src}, 2},
		{[]string{"file://" + dir + "/missing"}, 3},
		{[]string{"zork://h/"}, 8},
		{[]string{"-f", srv.URL + "/missing"}, exitHTTPError},
		{[]string{srv.URL + "/missing"}, 0},
		{[]string{"-o", filepath.Join(dir, "none", "f"), "file://" + src}, 23},
		{[]string{"-o", dir, "file://" + src}, 23},
	} {
		_, stderr, code := urlget(t, "", append([]string{"-S"}, tc.args...)...)
		if code != tc.code {
			t.Errorf("%q: exit %d, want %d: %s", tc.args, code, tc.code, stderr)
		}
		if _, ok := rows[code]; !ok {
			t.Errorf("%q: exit %d, which README's table lacks", tc.args, code)
		}
	}
	flags := readmeSection(t, "## Usage")
	if i := strings.Index(flags, "| `--output-dir DIR` |"); i < 0 || !strings.Contains(flags[i:i+strings.Index(flags[i+1:], "\n")], "exit 23") {
		t.Errorf("README's --output-dir row does not say a missing -o directory is exit 23")
	}
}
