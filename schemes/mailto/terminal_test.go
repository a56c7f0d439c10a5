package mailto

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// TestTerminalIsToldToType: a body read from a terminal is announced
// (Request.Notify) before the read waits, so the person knows the
// terminal is waiting for them and how to end; from a pipe or a file,
// nothing is said.
func TestTerminalIsToldToType(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	defer tty.Close()
	go io.Copy(io.Discard, ptmx) // the terminal's echo
	for _, tc := range []struct {
		name  string
		stdin io.Reader
		type_ func()
		told  bool
	}{
		{"a terminal", tty, func() { ptmx.Write([]byte("hello from a terminal\n\x04")) }, true},
		{"a pipe", strings.NewReader("hello from a pipe\n"), func() {}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := testHandler("")
			h.Stdin = tc.stdin
			req := request(t, "mailto:bob@example.org?subject=hi")
			var notes []string
			req.Notify = func(msg string) {
				notes = append(notes, msg)
				tc.type_() // the person reads the note, then types
			}
			if !tc.told {
				tc.type_()
			}
			resp, err := h.Fetch(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if !strings.Contains(string(b), "hello from") {
				t.Errorf("the message has no body:\n%s", b)
			}
			switch {
			case tc.told && (len(notes) != 1 || !strings.Contains(notes[0], "Ctrl-D")):
				t.Errorf("notes %q, want one that says how to end the message", notes)
			case !tc.told && len(notes) != 0:
				t.Errorf("notes %q, want none for a body that is not typed", notes)
			}
		})
	}
}
