//go:build integration

package integration

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/schemes/telnet"
	"github.com/urlget/urlget/transport"

	"github.com/urlget/urlget/integration/testbed"
)

// The telnet: scheme names a session, not a data object, so it is not run
// through the file-oriented conformance suite (bytes, resume, listings
// make no sense for it); these tests drive sessions instead.

// lockedBuffer collects a session's output (written from its reader
// goroutine).
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// telnetSession runs raw with h's settings, stdin as input, and returns
// stdout, stderr and the error.
func telnetSession(t *testing.T, h telnet.Handler, raw, stdin string, trace io.Writer) (string, string, error) {
	t.Helper()
	var out, errb lockedBuffer
	h.Stdin, h.Stdout, h.Stderr = strings.NewReader(stdin), &out, &errb
	c := &fetch.Client{
		Registry: mustRegistry(fetch.Config{Override: telnet.Schemes(&h)}),
		Dialer:   &transport.Dialer{ConnectTimeout: 10 * time.Second, IdleTimeout: 30 * time.Second},
	}
	if trace != nil {
		c.Trace = transport.NewTrace(trace)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	resp, err := c.Get(ctx, raw)
	if err == nil {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if len(b) != 0 {
			t.Errorf("telnet response body %q, want empty", b)
		}
	}
	return out.String(), errb.String(), err
}

// TestTelnetdLogin logs in to inetutils-telnetd as alice with --login, runs
// a command and reads its output.
func TestTelnetdLogin(t *testing.T) {
	testbed.Require(t, "telnet")
	var trace lockedBuffer
	url := fmt.Sprintf("telnet://%s:%s@%s/", testbed.AliceUser, testbed.AlicePassword, testbed.Addr(testbed.TelnetPort))
	out, stderr, err := telnetSession(t, telnet.Handler{Login: true}, url, "echo urlget-$((6*7))\nexit\n", &trace)
	if err != nil {
		t.Fatalf("session: %v\nstdout:\n%s\ntrace:\n%s", err, out, trace.String())
	}
	if !strings.Contains(out, "\nurlget-42\n") {
		t.Errorf("no urlget-42 line in the output:\n%s", out)
	}
	if !strings.Contains(stderr, "suggested login: alice") {
		t.Errorf("stderr %q lacks the suggested login", stderr)
	}
	tr := trace.String()
	for _, want := range []string{"> IAC WILL TERMINAL-TYPE", "> IAC SB TERMINAL-TYPE IS DUMB IAC SE", "> IAC DO ECHO",
		"> IAC DO SUPPRESS-GO-AHEAD", "> IAC DONT AUTHENTICATION", "> IAC WONT NAWS", "> alice"} {
		if !strings.Contains(tr, want) {
			t.Errorf("trace lacks %q:\n%s", want, tr)
		}
	}
	if strings.Contains(tr, testbed.AlicePassword) || strings.Contains(out, testbed.AlicePassword) {
		t.Errorf("password shown:\ntrace:\n%s\nstdout:\n%s", tr, out)
	}
}

// TestTelnetdWithoutLogin: without --login the URL's user is only
// suggested; the session shows the login prompt and ends, with input
// over, once the server is silent.
func TestTelnetdWithoutLogin(t *testing.T) {
	testbed.Require(t, "telnet")
	url := fmt.Sprintf("telnet://%s@%s/", testbed.AliceUser, testbed.Addr(testbed.TelnetPort))
	out, stderr, err := telnetSession(t, telnet.Handler{Idle: 3 * time.Second}, url, "", nil)
	if err != nil {
		t.Fatalf("session: %v", err)
	}
	if !strings.HasSuffix(strings.TrimSpace(out), "login:") || strings.Contains(out, "Password") {
		t.Errorf("output %q: want it to end at the login prompt", out)
	}
	if stderr != "suggested login: alice\n" {
		t.Errorf("stderr %q", stderr)
	}
}

// TestTelnetdTypedLogin types the login from stdin, paced: login(1)
// discards input typed ahead of its prompts, so each line waits for the
// server's answer.
func TestTelnetdTypedLogin(t *testing.T) {
	testbed.Require(t, "telnet")
	url := fmt.Sprintf("telnet://%s@%s/", testbed.AliceUser, testbed.Addr(testbed.TelnetPort))
	stdin := testbed.AliceUser + "\n" + testbed.AlicePassword + "\necho urlget-$((6*7))\nexit\n"
	out, _, err := telnetSession(t, telnet.Handler{Pace: 500 * time.Millisecond}, url, stdin, nil)
	if err != nil {
		t.Fatalf("session: %v\n%s", err, out)
	}
	if !strings.Contains(out, "\nurlget-42\n") || strings.Contains(out, testbed.AlicePassword) {
		t.Errorf("output (want urlget-42, no password):\n%s", out)
	}
}

func TestTelnetdLoginRefused(t *testing.T) {
	testbed.Require(t, "telnet")
	url := fmt.Sprintf("telnet://%s:wrong-password@%s/", testbed.AliceUser, testbed.Addr(testbed.TelnetPort))
	_, _, err := telnetSession(t, telnet.Handler{Login: true}, url, "echo never\n", nil)
	if schemes.KindOf(err) != schemes.KindPermission || strings.Contains(fmt.Sprint(err), "wrong-password") {
		t.Fatalf("err = %v, want a permission error (exit 4) without the password", err)
	}
}

// TestTelnetLineService drives the plain line service, which never
// negotiates: with --login, and with the login typed from stdin.
func TestTelnetLineService(t *testing.T) {
	testbed.Require(t, "line")
	want := "urlget line service ready\nlogin: Password: Welcome, alice. Type a line to have it echoed, quit to leave.\n" +
		"> echo: hello, world\n> Goodbye.\n"
	t.Run("login", func(t *testing.T) {
		url := fmt.Sprintf("telnet://%s:%s@%s", testbed.AliceUser, testbed.AlicePassword, testbed.Addr(testbed.LinePort))
		out, _, err := telnetSession(t, telnet.Handler{Login: true}, url, "hello, world\nquit\n", nil)
		if err != nil || out != want {
			t.Fatalf("session: %v\nstdout %q\nwant   %q", err, out, want)
		}
	})
	t.Run("typed", func(t *testing.T) {
		url := fmt.Sprintf("telnet://%s/", testbed.Addr(testbed.LinePort))
		out, stderr, err := telnetSession(t, telnet.Handler{}, url, "alice\nsecret\nhello, world\nquit\n", nil)
		if err != nil || out != want || stderr != "" {
			t.Fatalf("session: %v\nstdout %q\nwant   %q\nstderr %q", err, out, want, stderr)
		}
	})
	t.Run("refused", func(t *testing.T) {
		url := fmt.Sprintf("telnet://%s:nope@%s/", testbed.AliceUser, testbed.Addr(testbed.LinePort))
		_, _, err := telnetSession(t, telnet.Handler{Login: true}, url, "hello\n", nil)
		if schemes.KindOf(err) != schemes.KindPermission {
			t.Fatalf("err = %v, want permission", err)
		}
	})
}
