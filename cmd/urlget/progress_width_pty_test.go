package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/creack/pty"
)

// TestProgressFitsTheTerminal runs a single transfer, a -Z set and a
// mirror with stderr on pseudo-terminals 40, 80 and 110 columns wide:
// no progress line ever drawn is wider than the terminal less its last
// column, and each keeps its counts — the mirror's files fetched, -Z's
// files done, a transfer's percentage.
func TestProgressFitsTheTerminal(t *testing.T) {
	const dirs = 12
	long := "/" + strings.Repeat("a-rather-long-directory/", 6) + "file.iso"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/tree/":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<html><body><pre>\n")
			for i := range dirs {
				fmt.Fprintf(w, "<a href=\"d%d/\">d%d/</a>\n", i, i)
			}
			io.WriteString(w, "</pre></body></html>\n")
		case strings.HasPrefix(r.URL.Path, "/tree/d") && strings.HasSuffix(r.URL.Path, "/"):
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, `<html><body><a href="f.bin">f.bin</a> 02-Jan-2024 03:04 100000</body></html>`)
		default:
			w.Header().Set("Content-Length", "100000")
			w.Write(bytes.Repeat([]byte("x"), 100000))
		}
	}))
	defer srv.Close()
	for _, width := range []int{40, 80, 110} {
		dir := t.TempDir()
		for _, c := range []struct {
			name   string
			args   []string
			counts *regexp.Regexp // what every progress line drawn shows
		}{
			{"single", []string{"-o", filepath.Join(dir, "f"), srv.URL + long}, regexp.MustCompile(`\d+% `)},
			{"-Z", []string{"-Z", "-o", filepath.Join(dir, "a"), srv.URL + "/a", "-o", filepath.Join(dir, "b"), srv.URL + "/b"},
				regexp.MustCompile(`^\d+/2 files`)},
			{"mirror", []string{"mirror", srv.URL + "/tree/", filepath.Join(dir, "m")},
				regexp.MustCompile(`^(mirror: )?\d+ fetched, \d+ unchanged, \d+ failed`)},
		} {
			code, shown := onTerminal(t, width, c.args...)
			if code != 0 {
				t.Fatalf("%v: exit %d:\n%s", c.args, code, shown)
			}
			drawn := drawnLines(shown)
			n := 0
			for _, l := range drawn {
				if strings.HasPrefix(l, "urlget: ") || strings.HasPrefix(l, "  ") { // a message; a mirror's transfer
					continue
				}
				n++
				if w := utf8.RuneCountInString(l); w > width-1 || !c.counts.MatchString(l) {
					t.Errorf("%d columns, %s: a line of %d columns: %q", width, c.name, w, l)
				}
			}
			if n == 0 {
				t.Errorf("%d columns, %s: no progress drawn: %q", width, c.name, drawn)
			}
		}
	}
}

// onTerminal runs urlget with args, its stderr a pseudo-terminal width
// columns wide, and returns its exit status and all it wrote there.
func onTerminal(t *testing.T, width int, args ...string) (int, string) {
	t.Helper()
	ptm, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptm.Close()
	pty.Setsize(ptm, &pty.Winsize{Rows: 30, Cols: uint16(width)})
	var shown bytes.Buffer
	read := make(chan struct{})
	go func() {
		io.Copy(&shown, ptm) // ends when tty is closed
		close(read)
	}()
	code := run(context.Background(), args, strings.NewReader(""), io.Discard, tty)
	tty.Close()
	<-read
	return code, shown.String()
}

// drawnLines is every line drawn in shown, as it was drawn: each CR, LF
// and control sequence ends what was drawn before it.
func drawnLines(shown string) []string {
	var lines []string
	for _, l := range regexp.MustCompile(`\r|\n|\x1b\[\d*[A-Za-z]`).Split(shown, -1) {
		if l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}
