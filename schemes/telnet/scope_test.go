package telnet

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
)

// TestSessionScope: the connection's negotiation, and the Dialer's notes
// about connecting, are traced in a scope of their own.
func TestSessionScope(t *testing.T) {
	port, wait := fakeServer(t, func(c net.Conn, r *bufio.Reader) error {
		io.WriteString(c, will+"\x01hi\r\n") // IAC WILL ECHO
		return expect(r, do+"\x01")
	})
	tr := schemestest.NewScopeTrace()
	req := request(t, "telnet://127.0.0.1:"+itoa(port))
	req.Trace = tr
	h := &Handler{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}
	if _, err := h.Fetch(context.Background(), req); err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	if err := wait(); err != nil {
		t.Fatal(err)
	}
	text := tr.String()
	for _, want := range []string{"1 * Connecting to 127.0.0.1:", "1 < IAC WILL ECHO", "1 > IAC DO ECHO"} {
		if !strings.Contains(text, want) {
			t.Errorf("trace lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "\n0 ") || strings.HasPrefix(text, "0 ") {
		t.Errorf("lines in the root scope:\n%s", text)
	}
}

// TestSessionReset: a connection the server resets mid-session is
// KindConnect (exit 5), never retryable: a session cannot be replayed.
func TestSessionReset(t *testing.T) {
	port, wait := fakeServer(t, func(c net.Conn, r *bufio.Reader) error {
		io.WriteString(c, "hello\r\n")
		if _, err := r.ReadString('\n'); err != nil {
			return err
		}
		c.(*net.TCPConn).SetLinger(0) // close with RST
		return nil
	})
	pr, pw := io.Pipe() // input that never ends
	defer pw.Close()
	go pw.Write([]byte("x\n"))
	h := &Handler{Stdin: pr, Stdout: io.Discard, Stderr: io.Discard}
	raw := "telnet://127.0.0.1:" + itoa(port) + "/"
	_, err := h.Fetch(context.Background(), request(t, raw))
	if err := wait(); err != nil {
		t.Fatal(err)
	}
	var se *schemes.Error
	if !errors.As(err, &se) || se.Kind != schemes.KindConnect || se.Retryable || se.Kind.ExitCode() != 5 {
		t.Fatalf("err = %#v, want KindConnect, not retryable", err)
	}
}
