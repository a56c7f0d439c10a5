package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
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
	dest := filepath.Join(t.TempDir(), "f")
	code, shown := onTerminal(t, 120, "--retry", "1", "--retry-delay", "0.01", "-o", dest, srv.URL+"/f")
	if code != 5 {
		t.Fatalf("exit %d:\n%s", code, shown)
	}
	lines := screen(shown)
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
		t.Fatalf("screen:\n%s\n(raw %q)", strings.Join(lines, "\n"), shown)
	}
	if !strings.Contains(shown, "40% [========") {
		t.Errorf("no progress drawn: %q", shown)
	}
}
