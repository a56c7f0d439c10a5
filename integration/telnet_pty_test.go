//go:build integration && linux

package integration

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/internal/await"
)

// buildURLGet builds the urlget command into a temporary directory.
func buildURLGet(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..")
	bin := filepath.Join(t.TempDir(), "urlget")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/urlget")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// ptyOutput collects what the program writes to its terminal.
type ptyOutput struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (p *ptyOutput) has(s string) bool { return p.hasAfter(0, s) }

// hasAfter reports whether what the terminal showed after its first from
// bytes holds s.
func (p *ptyOutput) hasAfter(from int, s string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return bytes.Contains(p.b.Bytes()[from:], []byte(s))
}

// index is where s first is in what the terminal has shown, -1 if it is
// not.
func (p *ptyOutput) index(s string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return bytes.Index(p.b.Bytes(), []byte(s))
}

// String is what the terminal has shown.
func (p *ptyOutput) String() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.b.String()
}

// size is how many bytes the terminal has shown.
func (p *ptyOutput) size() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.b.Len()
}

// ptyWait bounds each wait for the terminal: a login through PAM and a
// shell start on a busy machine take a while.
const ptyWait = 15 * time.Second

// waitFor waits until the terminal has shown s.
func (p *ptyOutput) waitFor(t *testing.T, s string) {
	t.Helper()
	p.waitForAfter(t, 0, s)
}

// waitForAfter waits until the terminal shows s after its first from
// bytes.
func (p *ptyOutput) waitForAfter(t *testing.T, from int, s string) {
	t.Helper()
	if !await.Within(ptyWait, func() bool { return p.hasAfter(from, s) }) {
		t.Fatalf("terminal never showed %q after its first %d bytes; it shows:\n%q", s, from, p)
	}
}

// TestTelnetTerminal runs urlget on a pseudo-terminal against the line
// service: the terminal is raw during the session, typed lines reach the
// server, and the terminal's settings are restored afterwards — when Ctrl-]
// then q quits, and when the server ends the session.
func TestTelnetTerminal(t *testing.T) {
	testbed.Require(t, "line")
	bin := buildURLGet(t)
	for _, how := range []string{"escape", "server-close", "telnetd"} {
		t.Run(how, func(t *testing.T) {
			ptmx, tty, err := pty.Open()
			if err != nil {
				t.Skipf("no pseudo-terminal: %v", err)
			}
			defer ptmx.Close()
			defer tty.Close()
			pty.Setsize(ptmx, &pty.Winsize{Rows: 30, Cols: 100})
			before, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
			if err != nil {
				t.Fatal(err)
			}
			args := []string{"telnet://alice@" + testbed.Addr(testbed.LinePort) + "/"}
			if how == "telnetd" {
				testbed.Require(t, "telnet")
				args = []string{"--login", "telnet://alice:secret@" + testbed.Addr(testbed.TelnetPort) + "/"}
			}
			cmd := exec.Command(bin, args...)
			cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
			cmd.Env = append(os.Environ(), "TERM=xterm")
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			out := &ptyOutput{}
			go func() {
				buf := make([]byte, 4096)
				for {
					n, err := ptmx.Read(buf)
					out.mu.Lock()
					out.b.Write(buf[:n])
					out.mu.Unlock()
					if err != nil {
						return
					}
				}
			}()
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			defer func() {
				if cmd.ProcessState == nil {
					cmd.Process.Kill()
				}
			}()

			out.waitFor(t, "suggested login: alice")
			if how == "telnetd" {
				// --login types the password; NAWS tells the shell the
				// window size, which stty reports, and again after a
				// resize; exit ends the session.
				out.waitFor(t, "$ ")
				ptmx.WriteString("stty size; echo term=$TERM\r")
				out.waitFor(t, "30 100")
				out.waitFor(t, "term=xterm")
				// A resize (SIGWINCH) is sent on by NAWS. Nothing on this
				// side tells when the signal and NAWS have gone through:
				// stty size is asked again, each time once the shell has
				// answered the last one (its next prompt), until it
				// shows the new size.
				pty.Setsize(ptmx, &pty.Winsize{Rows: 40, Cols: 120})
				for i := 0; !out.has("40 120"); i++ {
					if i == 50 {
						t.Fatalf("stty size never showed 40 120 after the resize, asked %d times; the terminal shows:\n%q", i, out)
					}
					from := out.size()
					ptmx.WriteString("stty size\r")
					out.waitForAfter(t, from, "$ ")
				}
				raw, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
				if err != nil || raw.Lflag&(unix.ICANON|unix.ECHO) != 0 {
					t.Errorf("terminal not raw during the session: %v %+v", err, raw)
				}
				ptmx.WriteString("exit\r")
				out.waitFor(t, "logout")
			} else {
				// The server's prompt, after its greeting: the "login: "
				// of urlget's own "suggested login: alice", written
				// before the session (and the raw terminal) begins, is
				// not it.
				out.waitFor(t, "urlget line service ready")
				out.waitForAfter(t, out.index("urlget line service ready"), "login: ")
				during, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
				if err != nil {
					t.Fatal(err)
				}
				if during.Lflag&(unix.ICANON|unix.ECHO) != 0 {
					t.Errorf("terminal not raw during the session: lflag %#x", during.Lflag)
				}
				ptmx.WriteString("alice\r")
				out.waitFor(t, "Password: ")
				ptmx.WriteString("secret\r")
				out.waitFor(t, "> ")
				ptmx.WriteString("typed on a terminal\r")
				out.waitFor(t, "echo: typed on a terminal")
				if how == "escape" {
					ptmx.WriteString("\x1d")
					out.waitFor(t, "quit?")
					ptmx.WriteString("q")
					out.waitFor(t, "Connection closed.")
				} else {
					ptmx.WriteString("quit\r")
					out.waitFor(t, "Goodbye.")
				}
			}
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("urlget: %v", err)
				}
			case <-time.After(15 * time.Second):
				t.Fatal("urlget did not exit")
			}
			after, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
			if err != nil {
				t.Fatal(err)
			}
			if after.Lflag != before.Lflag || after.Iflag != before.Iflag || after.Oflag != before.Oflag || after.Cflag != before.Cflag {
				t.Errorf("terminal not restored: before %+v\nafter %+v", *before, *after)
			}
		})
	}
}
