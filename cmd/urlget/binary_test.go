package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/creack/pty"
)

func TestBinaryGuard(t *testing.T) {
	for _, c := range []struct {
		name   string
		writes []string
		want   string
		err    bool
	}{
		{"text", []string{"hello\n", "world\n"}, "hello\nworld\n", false},
		{"nul first", []string{"\x00ELF"}, "", true},
		{"nul in a later write", []string{"text ", "more\x00"}, "text ", true},
		{"nul past the first 2000 bytes", []string{strings.Repeat("a", 2000), "\x00"}, strings.Repeat("a", 2000) + "\x00", false},
		{"nul at byte 1999", []string{strings.Repeat("a", 1999) + "\x00"}, "", true},
	} {
		var out bytes.Buffer
		g := &binaryGuard{w: &out}
		var err error
		for _, w := range c.writes {
			if _, err = g.Write([]byte(w)); err != nil {
				break
			}
		}
		if out.String() != c.want || (err != nil) != c.err {
			t.Errorf("%s: wrote %q, err %v", c.name, out.String(), err)
		}
		if err != nil && !errors.Is(err, errBinaryToTerminal) {
			t.Errorf("%s: err %v", c.name, err)
		}
	}
}

// TestBinaryToTerminalRefused: with stdout on a terminal a body with a
// NUL is refused as curl refuses it (exit 23, its message), text is
// shown, and -o - shows the binary anyway.
func TestBinaryToTerminalRefused(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/bin" {
			w.Write([]byte("\x7fELF\x00\x01\x02"))
			return
		}
		io.WriteString(w, "plain text\n")
	}))
	defer srv.Close()
	for _, c := range []struct {
		args   []string
		code   int
		shown  string
		stderr string
	}{
		{[]string{srv.URL + "/bin"}, 23, "", `Binary output can mess up your terminal. Use "--output -" to tell urlget`},
		{[]string{srv.URL + "/text"}, 0, "plain text", ""},
		{[]string{"-o", "-", srv.URL + "/bin"}, 0, "ELF", ""},
	} {
		ptm, tty, err := pty.Open()
		if err != nil {
			t.Fatal(err)
		}
		var shown bytes.Buffer
		read := make(chan struct{})
		go func() {
			io.Copy(&shown, ptm)
			close(read)
		}()
		var stderr bytes.Buffer
		code := run(context.Background(), c.args, strings.NewReader(""), tty, &stderr)
		tty.Close()
		<-read
		ptm.Close()
		if code != c.code || !strings.Contains(shown.String(), c.shown) || !strings.Contains(stderr.String(), c.stderr) {
			t.Errorf("%v: exit %d, terminal %q, stderr %q", c.args, code, shown.String(), stderr.String())
		}
	}
}
