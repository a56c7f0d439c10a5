package telnet

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// fakeServer accepts one connection on 127.0.0.1 and runs script on it.
// The returned function waits for the script and reports its error.
func fakeServer(t *testing.T, script func(c net.Conn, r *bufio.Reader) error) (port int, wait func() error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	done := make(chan error, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			done <- err
			return
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(20 * time.Second)) // a hung test fails instead of hanging
		done <- script(c, bufio.NewReader(c))
	}()
	return ln.Addr().(*net.TCPAddr).Port, func() error { return <-done }
}

// expect reads len(want) bytes and compares them.
func expect(r *bufio.Reader, want string) error {
	got := make([]byte, len(want))
	if _, err := io.ReadFull(r, got); err != nil {
		return errors.New("reading " + quote([]byte(want)) + ": " + err.Error())
	}
	if string(got) != want {
		return errors.New("client sent " + quote(got) + ", want " + quote([]byte(want)))
	}
	return nil
}

func quote(b []byte) string {
	var out bytes.Buffer
	for _, c := range b {
		if c >= 0x20 && c < 0x7f {
			out.WriteByte(c)
		} else {
			out.WriteString("\\x" + string("0123456789abcdef"[c>>4]) + string("0123456789abcdef"[c&15]))
		}
	}
	return out.String()
}

// request builds the Request for raw with a direct transport.Dialer.
func request(t *testing.T, raw string) *schemes.Request {
	t.Helper()
	u, err := schemes.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	loc, err := Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	return &schemes.Request{URL: loc, Dialer: &transport.Dialer{}, Trace: schemes.NopTrace{}}
}

// syncBuffer is a bytes.Buffer safe for the session's writer goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

const (
	iac  = "\xff"
	will = iac + "\xfb"
	wont = iac + "\xfc"
	do   = iac + "\xfd"
	dont = iac + "\xfe"
)

// TestSessionTranscript runs a session against a server that negotiates
// like inetutils-telnetd, asks for login and echoes one command, and checks
// every byte the client sends.
func TestSessionTranscript(t *testing.T) {
	port, wait := fakeServer(t, func(c net.Conn, r *bufio.Reader) error {
		// inetutils-telnetd's real opening, then WILL ECHO, WILL SGA, DO NAWS, DO SGA.
		io.WriteString(c, will+"\x25"+will+"\x26"+do+"\x18"+do+"\x20"+do+"\x23"+do+"\x27"+do+"\x24"+
			will+"\x01"+will+"\x03"+do+"\x1f"+do+"\x03")
		// AUTHENTICATION and ENCRYPT refused, TTYPE accepted, TSPEED,
		// XDISPLOC, NEW-ENVIRON, OLD-ENVIRON refused, ECHO and SGA
		// accepted, NAWS refused (no terminal), SGA on our side accepted.
		if err := expect(r, dont+"\x25"+dont+"\x26"+will+"\x18"+wont+"\x20"+wont+"\x23"+wont+"\x27"+wont+"\x24"+
			do+"\x01"+do+"\x03"+wont+"\x1f"+will+"\x03"); err != nil {
			return err
		}
		io.WriteString(c, iac+"\xfa\x18\x01"+iac+"\xf0")
		if err := expect(r, iac+"\xfa\x18\x00VT100"+iac+"\xf0"); err != nil {
			return err
		}
		// The same offers again must not be answered (no loops).
		io.WriteString(c, will+"\x01"+do+"\x18"+wont+"\x25"+"\r\nhost login: ")
		if err := expect(r, "alice\r\n"); err != nil {
			return err
		}
		io.WriteString(c, "Password: ")
		if err := expect(r, "se\xff\xffcret\r\n"); err != nil {
			return err
		}
		io.WriteString(c, "\r\nWelcome\r\nalice@host:~$ ")
		if err := expect(r, "echo a\xff\xffb\r\n"); err != nil {
			return err
		}
		io.WriteString(c, "a"+iac+iac+"b\r\nbare\r\x00cr\r\n")
		return nil // close: the normal end of the session
	})
	var out, errb syncBuffer
	h := &Handler{Stdin: strings.NewReader("echo a\xffb\n"), Stdout: &out, Stderr: &errb, Login: true, TermType: "vt100"}
	req := request(t, "telnet://alice:se%FFcret@127.0.0.1:"+itoa(port)+"/")
	resp, err := h.Fetch(context.Background(), req)
	if serr := wait(); serr != nil {
		t.Fatalf("server: %v", serr)
	}
	if err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	if b, _ := io.ReadAll(resp.Body); len(b) != 0 || resp.Size != 0 {
		t.Fatalf("body %q size %d, want empty", b, resp.Size)
	}
	wantOut := "\nhost login: Password: \nWelcome\nalice@host:~$ a\xffb\nbare\rcr\n"
	if out.String() != wantOut {
		t.Errorf("stdout %q, want %q", out.String(), wantOut)
	}
	if errb.String() != "suggested login: alice\n" {
		t.Errorf("stderr %q", errb.String())
	}
}

// TestSessionFlood has the server send thousands of random negotiation
// commands: each gets at most one answer, nothing is answered twice in a
// row for the same request, and the session still ends normally.
func TestSessionFlood(t *testing.T) {
	const n = 5000
	rng := rand.New(rand.NewSource(7))
	var flood bytes.Buffer
	for i := 0; i < n; i++ {
		flood.Write([]byte{cmdIAC, byte(cmdWILL + rng.Intn(4)), byte(rng.Intn(40))})
	}
	flood.WriteString("done\r\n")
	var answers int
	port, wait := fakeServer(t, func(c net.Conn, r *bufio.Reader) error {
		go c.Write(flood.Bytes()) // write while reading, or both sides could block
		// Read the answers until the client closes.
		var d decoder
		cnt := &counter{}
		buf := make([]byte, 4096)
		for {
			k, err := r.Read(buf)
			d.feed(buf[:k], cnt)
			if err != nil {
				answers = cnt.n
				return nil
			}
		}
	})
	var out syncBuffer
	h := &Handler{Stdin: strings.NewReader(""), Stdout: &out, Stderr: io.Discard, Idle: 200 * time.Millisecond}
	_, err := h.Fetch(context.Background(), request(t, "telnet://127.0.0.1:"+itoa(port)))
	if err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	wait()
	if answers == 0 || answers > n {
		t.Fatalf("%d answers to %d commands", answers, n)
	}
	if out.String() != "done\n" {
		t.Fatalf("stdout %q", out.String())
	}
}

type counter struct{ n int }

func (c *counter) data([]byte)               {}
func (c *counter) negotiate(byte, byte)      { c.n++ }
func (c *counter) subnegotiate(byte, []byte) {}
func (c *counter) command(byte)              {}
func itoa(i int) string                      { return strconv.Itoa(i) }

// TestSessionLineService talks to a plain line service that never
// negotiates: nothing but the typed lines may reach it.
func TestSessionLineService(t *testing.T) {
	port, wait := fakeServer(t, func(c net.Conn, r *bufio.Reader) error {
		io.WriteString(c, "ready\r\nlogin: ")
		if err := expect(r, "alice\r\n"); err != nil {
			return err
		}
		io.WriteString(c, "Password: ")
		if err := expect(r, "secret\r\n"); err != nil {
			return err
		}
		io.WriteString(c, "Welcome\r\n> ")
		if err := expect(r, "hello\r\nquit\r\n"); err != nil {
			return err
		}
		io.WriteString(c, "echo: hello\r\n> Goodbye.\r\n")
		return nil
	})
	var out syncBuffer
	h := &Handler{Stdin: strings.NewReader("hello\r\nquit\n"), Stdout: &out, Stderr: io.Discard, Login: true}
	req := request(t, "telnet://127.0.0.1:"+itoa(port))
	req.Credentials = func(string, string, int) (string, string, bool) { return "alice", "secret", true }
	if _, err := h.Fetch(context.Background(), req); err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	if err := wait(); err != nil {
		t.Fatalf("server: %v", err)
	}
	if want := "ready\nlogin: Password: Welcome\n> echo: hello\n> Goodbye.\n"; out.String() != want {
		t.Fatalf("stdout %q, want %q", out.String(), want)
	}
}

// TestSessionIdleEnd: the server never closes; the session ends once the
// input has ended and the server has been silent for Idle.
func TestSessionIdleEnd(t *testing.T) {
	port, wait := fakeServer(t, func(c net.Conn, r *bufio.Reader) error {
		if err := expect(r, "ping\r\n"); err != nil {
			return err
		}
		io.WriteString(c, "pong\r\n")
		io.Copy(io.Discard, r) // until the client closes
		return nil
	})
	var out syncBuffer
	h := &Handler{Stdin: strings.NewReader("ping\n"), Stdout: &out, Stderr: io.Discard, Idle: 100 * time.Millisecond}
	if _, err := h.Fetch(context.Background(), request(t, "telnet://127.0.0.1:"+itoa(port))); err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	if err := wait(); err != nil {
		t.Fatal(err)
	}
	if out.String() != "pong\n" {
		t.Fatalf("stdout %q", out.String())
	}
}

func TestSessionLoginRefused(t *testing.T) {
	port, wait := fakeServer(t, func(c net.Conn, r *bufio.Reader) error {
		io.WriteString(c, "login: ")
		if err := expect(r, "alice\r\n"); err != nil {
			return err
		}
		io.WriteString(c, "Password: ")
		if err := expect(r, "wrong\r\n"); err != nil {
			return err
		}
		io.WriteString(c, "\r\nLogin incorrect\r\nlogin: ")
		io.Copy(io.Discard, r)
		return nil
	})
	h := &Handler{Stdin: strings.NewReader("never typed\n"), Stdout: io.Discard, Stderr: io.Discard, Login: true}
	_, err := h.Fetch(context.Background(), request(t, "telnet://alice:wrong@127.0.0.1:"+itoa(port)))
	wait()
	var se *schemes.Error
	if !errors.As(err, &se) || se.Kind != schemes.KindPermission || strings.Contains(err.Error(), "wrong") {
		t.Fatalf("err = %v, want a permission error without the password", err)
	}
}

func TestSessionCanceled(t *testing.T) {
	port, wait := fakeServer(t, func(c net.Conn, r *bufio.Reader) error {
		io.Copy(io.Discard, r)
		return nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe() // input that never ends
	defer pw.Close()
	h := &Handler{Stdin: pr, Stdout: io.Discard, Stderr: io.Discard}
	go func() { pw.Write([]byte("x\n")); cancel() }()
	_, err := h.Fetch(ctx, request(t, "telnet://127.0.0.1:"+itoa(port)))
	wait()
	if schemes.KindOf(err) != schemes.KindCanceled {
		t.Fatalf("err = %v, want canceled", err)
	}
}

func TestUnsupportedSchemes(t *testing.T) {
	h := &Handler{}
	for _, raw := range []string{"rlogin://bob@host.example/", "tn3270://host.example/"} {
		req := request(t, raw)
		_, err := h.Fetch(context.Background(), req)
		var se *schemes.Error
		if !errors.As(err, &se) || se.Kind != schemes.KindUnsupported || se.Kind.ExitCode() != 8 || !strings.Contains(se.Msg, "try") {
			t.Errorf("%s: err = %v, want unsupported with a hint", raw, err)
		}
		if _, err := h.Explain(req); schemes.KindOf(err) != schemes.KindUnsupported {
			t.Errorf("%s: Explain err = %v", raw, err)
		}
	}
}

func TestExplain(t *testing.T) {
	h := &Handler{Login: true, TermType: "xterm"}
	plan, err := h.Explain(request(t, "telnet://alice:secret@127.0.0.1:2323/"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(plan, "\n")
	for _, want := range []string{"connect 127.0.0.1:2323", "suggested login: alice", "WILL TERMINAL-TYPE (xterm)",
		"DO ECHO", "WONT NAWS", "refuse", "2s of silence"} {
		if !strings.Contains(text, want) {
			t.Errorf("plan lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "secret") {
		t.Errorf("plan shows the password:\n%s", text)
	}
}

// TestLoginNeedsCredentials: Login without a user or password is a usage
// error naming the login option as the caller does; a line break in one
// is refused.
func TestLoginNeedsCredentials(t *testing.T) {
	callerWords := Declaration().ValuesOf(nil, func(s string) string { return "<" + s + ">" }).Words()
	for words, want := range map[*schemes.Words][]string{
		{}:           {"option login needs a user: put it in the URL", "option login needs a password: put it in the URL"},
		&callerWords: {"<login> needs a user: put it in the URL", "<login> needs a password: put it in the URL"},
	} {
		h := &Handler{Login: true, Stderr: io.Discard, words: *words}
		for i, raw := range []string{"telnet://127.0.0.1:1/", "telnet://alice@127.0.0.1:1/"} {
			_, err := h.Fetch(context.Background(), request(t, raw))
			if schemes.KindOf(err) != schemes.KindUsage || !strings.Contains(err.Error(), want[i]) {
				t.Fatalf("%s: err = %v, want usage saying %q", raw, err, want[i])
			}
		}
	}
	h := &Handler{Login: true, Stderr: io.Discard}
	var err error
	_, err = h.Fetch(context.Background(), request(t, "telnet://al%0Aice:x@127.0.0.1:1/"))
	if schemes.KindOf(err) != schemes.KindSafety {
		t.Fatalf("err = %v, want safety", err)
	}
}

// TestSessionPaced: with Pace, each input line waits for the server's
// answer, as login(1) needs (it discards input typed ahead of its
// prompts). The server checks that nothing arrived early.
func TestSessionPaced(t *testing.T) {
	port, wait := fakeServer(t, func(c net.Conn, r *bufio.Reader) error {
		for _, step := range []struct{ prompt, line string }{
			{"login: ", "alice\r\n"}, {"Password: ", "secret\r\n"}, {"$ ", "echo hi\r\n"}, {"hi\r\n$ ", "exit\r\n"},
		} {
			io.WriteString(c, step.prompt)
			if err := expect(r, step.line); err != nil {
				return err
			}
			if r.Buffered() > 0 {
				return errors.New("input typed ahead of the prompt after " + quote([]byte(step.line)))
			}
		}
		io.WriteString(c, "logout\r\n")
		return nil
	})
	var out syncBuffer
	h := &Handler{Stdin: strings.NewReader("alice\nsecret\necho hi\nexit"), Stdout: &out, Stderr: io.Discard, Pace: 20 * time.Millisecond}
	if _, err := h.Fetch(context.Background(), request(t, "telnet://127.0.0.1:"+itoa(port))); err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	if err := wait(); err != nil {
		t.Fatalf("server: %v", err)
	}
	if want := "login: Password: $ hi\n$ logout\n"; out.String() != want {
		t.Fatalf("stdout %q, want %q", out.String(), want)
	}
}

// TestSessionLargeInputToEcho pipes 4 MiB through a server that echoes
// everything: urlget must keep reading while it writes (a client that
// blocks writing while the server blocks writing back would deadlock).
func TestSessionLargeInputToEcho(t *testing.T) {
	port, wait := fakeServer(t, func(c net.Conn, r *bufio.Reader) error {
		io.Copy(c, r)
		return nil
	})
	input := strings.Repeat(strings.Repeat("a", 99)+"\n", 40<<10)
	var out syncBuffer
	h := &Handler{Stdin: strings.NewReader(input), Stdout: &out, Stderr: io.Discard, Idle: 300 * time.Millisecond}
	if _, err := h.Fetch(context.Background(), request(t, "telnet://127.0.0.1:"+itoa(port))); err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	wait()
	if got := out.String(); got != input {
		t.Fatalf("echoed %d bytes, want %d", len(got), len(input))
	}
}
