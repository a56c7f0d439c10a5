package mailto

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

// rawSMTP serves one SMTP session from a script: greeting first, then for
// each command the reply under its verb in replies ("250 ok" for others;
// DATA reads the message up to its "." line first). It returns the
// server's address and a channel that gets the commands received, joined
// by "|", when the session ends.
func rawSMTP(t *testing.T, greeting string, replies map[string]string) (string, <-chan string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	got := make(chan string, 1)
	go func() {
		var log []string
		defer func() { got <- strings.Join(log, "|") }()
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(10 * time.Second))
		if _, err := io.WriteString(c, greeting); err != nil {
			return
		}
		r := textprotoReader(c)
		for {
			line, err := r.ReadLine()
			if err != nil {
				return
			}
			log = append(log, line)
			verb, _, _ := strings.Cut(line, " ")
			reply, ok := replies[verb]
			switch {
			case ok:
			case verb == "DATA":
				io.WriteString(c, "354 go\r\n")
				if _, err := r.ReadDotLines(); err != nil {
					return
				}
				reply = "250 ok\r\n"
			case verb == "QUIT":
				io.WriteString(c, "221 bye\r\n")
				return
			default:
				reply = "250 ok\r\n"
			}
			if _, err := io.WriteString(c, reply); err != nil {
				return
			}
		}
	}()
	return ln.Addr().String(), got
}

// manyLines is a multi-line reply of n lines with code.
func manyLines(code string, n int) string {
	return strings.Repeat(code+"-line\r\n", n-1) + code + " last\r\n"
}

// TestLongRepliesRefused: a reply past maxReplyLines lines or
// maxReplyBytes bytes — the greeting, or a reply to a command, read by
// urlget or by go-smtp — fails as a protocol error before it is held
// whole; a reply at the bound is read.
func TestLongRepliesRefused(t *testing.T) {
	tests := []struct {
		name     string
		greeting string
		replies  map[string]string
		msg      string // "" for a message sent
	}{
		{"greeting of 1000 lines", manyLines("220", maxReplyLines), nil, ""},
		{"greeting of 1001 lines", manyLines("220", maxReplyLines+1), nil, "the greeting is longer than 1000 lines"},
		{"greeting line without end", "220 " + strings.Repeat("x", maxReplyBytes+1), nil, "the greeting is longer than 1 MiB"},
		{"EHLO reply of 1001 lines", "220 hi\r\n", map[string]string{"EHLO": manyLines("250", maxReplyLines+1)},
			"the reply to EHLO is longer than 1000 lines"},
		{"MAIL reply of 1001 lines", "220 hi\r\n", map[string]string{"MAIL": manyLines("250", maxReplyLines+1)},
			"the reply to MAIL is longer than 1000 lines"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			addr, got := rawSMTP(t, tt.greeting, tt.replies)
			h := testHandler("")
			h.DryRun, h.Server = false, addr
			_, err := h.Fetch(context.Background(), request(t, "mailto:joe@example.com?body=x"))
			log := <-got
			if tt.msg == "" {
				if err != nil || !strings.Contains(log, "DATA") {
					t.Fatalf("err %v, session %s", err, log)
				}
				return
			}
			var se *schemes.Error
			if !errors.As(err, &se) || se.Kind != schemes.KindProtocol || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("err %v, want a protocol error saying %q", err, tt.msg)
			}
		})
	}
}
