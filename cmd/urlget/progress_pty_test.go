package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// TestProgressOnATerminalNeverJoinsMessages runs a download whose every
// try is cut, with stderr on a pseudo-terminal: the progress line is
// drawn, and the retry note and the error each get a line of their own.
func TestProgressOnATerminalNeverJoinsMessages(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "100000")
		w.Write(bytes.Repeat([]byte("x"), 40000))
		w.(http.Flusher).Flush()
		c, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			c.Close() // cut after 40 %
		}
	}))
	defer srv.Close()
	ptm, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptm.Close()
	pty.Setsize(ptm, &pty.Winsize{Rows: 30, Cols: 120})
	var shown bytes.Buffer
	read := make(chan struct{})
	go func() {
		io.Copy(&shown, ptm) // ends when tty is closed
		close(read)
	}()
	dest := filepath.Join(t.TempDir(), "f")
	code := run(context.Background(), []string{"--retry", "1", "--retry-delay", "0.01", "-o", dest, srv.URL + "/f"},
		strings.NewReader(""), io.Discard, tty)
	tty.Close()
	<-read
	if code != 5 {
		t.Fatalf("exit %d:\n%s", code, shown.String())
	}
	lines := screen(shown.String())
	var bars, notes int
	for _, l := range lines {
		isBar := strings.Contains(l, "% [")
		switch {
		case strings.HasPrefix(l, "urlget: ") && !isBar:
			notes++
		case isBar && !strings.Contains(l, "urlget:"):
			bars++
		default:
			t.Errorf("line %q mixes progress and a message", l)
		}
	}
	// The final progress line; the retry's notes and the error.
	if bars != 1 || notes < 2 || !strings.Contains(lines[len(lines)-1], "urlget: ") {
		t.Fatalf("screen:\n%s\n(raw %q)", strings.Join(lines, "\n"), shown.String())
	}
	if !strings.Contains(shown.String(), "40% [========") {
		t.Errorf("no progress drawn: %q", shown.String())
	}
}
