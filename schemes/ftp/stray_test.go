package ftp

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/urlget/urlget/schemes"
)

// TestStrayReply: a reply the server sends unasked is never taken for the
// answer to a command. After a transfer's 226, it leaves the session out
// of step: the pool closes it and the next file comes whole over a new
// one. Waiting when a command is due, it fails the request (exit 6,
// retryable) before the command goes out — a stray "250" is not a CWD
// done — unless it is a 421, which is the server closing (busy, as
// before).
func TestStrayReply(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(f *fakeFTP)
		// kind is the error of the first file (0: none); msg a part of it.
		kind  schemes.Kind
		msg   string
		conns int
	}{
		{"after the 226", func(f *fakeFTP) { f.afterData = "226 Transfer complete\r\n226 Transfer complete" }, 0, "", 2},
		{"with PWD's reply, before CWD", func(f *fakeFTP) { f.reply("PWD", "257 \"/home/u\"\r\n250 Directory changed") },
			schemes.KindProtocol, `reply nobody asked for ("250 Directory changed")`, 2},
		{"a 421 waiting", func(f *fakeFTP) { f.reply("PWD", "257 \"/home/u\"\r\n421 Timeout") },
			schemes.KindBusy, "421 Timeout", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t)
			f.files["a"], f.files["b"] = "alpha", "beta"
			tc.set(f)
			e := newEnv(t)
			// Commands in their turn: pipelined, CWD goes with PWD
			// (TestPipelineStray).
			e.h.NoPipeline = true
			got, _, err := e.get(t, f.url("pub/a"))
			var se *schemes.Error
			switch {
			case tc.kind == 0 && (err != nil || got != "alpha"):
				t.Fatalf("a: %q, %v\n%s", got, err, e.trace)
			case tc.kind != 0 && (!errors.As(err, &se) || se.Kind != tc.kind || !strings.Contains(se.Msg, tc.msg) || !se.Retryable):
				t.Fatalf("a: %v, want a retryable %v error with %q\n%s", err, tc.kind, tc.msg, e.trace)
			case tc.kind != 0 && slices.Contains(f.commands(), "CWD pub"):
				t.Errorf("CWD was sent after the stray reply: %q", f.commands())
			}
			f.mu.Lock()
			clear(f.replies) // b's session answers PWD in step
			f.mu.Unlock()
			if got, _, err := e.get(t, f.url("pub/b")); err != nil || got != "beta" {
				t.Fatalf("b: %q, %v\n%s", got, err, e.trace)
			}
			if n := f.connCount(); n != tc.conns {
				t.Errorf("%d control connections, want %d: the session out of step is not used again", n, tc.conns)
			}
		})
	}
}
