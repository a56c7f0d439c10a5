//go:build integration

package hostile_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/urlget/urlget/integration/hostile"
)

// maxRSS is the peak resident set the issue allows urlget against any
// hostile server, in KiB (Linux reports ru_maxrss in KiB).
const maxRSS = 256 << 10

// runLimit bounds one run of urlget: a hang fails the case, not the suite.
const runLimit = 45 * time.Second

// urlget is the path of the urlget binary TestMain builds.
var urlget string

// TestMain builds urlget once for every case: the suite asserts what the
// built program does as a process (exit code, files, peak memory), which
// an in-process call cannot show. $URLGET_BIN names a built urlget to run
// instead, to measure another version.
func TestMain(m *testing.M) {
	if urlget = os.Getenv("URLGET_BIN"); urlget != "" {
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "urlget-hostile-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	urlget = filepath.Join(dir, "urlget")
	build := exec.Command("go", "build", "-o", urlget, "github.com/urlget/urlget/cmd/urlget")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// result is one run of urlget.
type result struct {
	code    int
	stderr  string
	rssKiB  int64
	elapsed time.Duration
	cpu     time.Duration // user and system time
	stdout  string        // the first 1 MiB
}

// run starts urlget with args against s, with a clean environment (no
// proxy, no netrc) and the server's port allowed (after the word
// "mirror", which must come first), and waits for it.
func run(t *testing.T, s *hostile.Server, args ...string) result {
	t.Helper()
	return runFor(t, s, 0, args...)
}

// runFor is run, but a run still going after d (when d > 0) is killed
// there and its result (code -1) returned: for a server that never ends,
// whose client's memory is measured over a time.
func runFor(t *testing.T, s *hostile.Server, d time.Duration, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runLimit)
	defer cancel()
	bounded := false
	if d > 0 {
		var stop context.CancelFunc
		ctx, stop = context.WithTimeout(ctx, d)
		defer stop()
		bounded = true
	}
	allow := []string{"--allow-port", strconv.Itoa(s.Port())}
	if len(args) > 0 && args[0] == "mirror" {
		args = append(append([]string{"mirror"}, allow...), args[1:]...)
	} else {
		args = append(allow, args...)
	}
	cmd := exec.CommandContext(ctx, urlget, args...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "LC_ALL=C"}
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &limited{w: &stdout, n: 1 << 20}
	cmd.Stderr = &limited{w: &stderr, n: 64 << 10}
	start := time.Now()
	err := cmd.Run()
	r := result{elapsed: time.Since(start), stderr: stderr.String(), stdout: stdout.String()}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("urlget %q: %v", args, err)
	}
	if ctx.Err() != nil && !bounded {
		t.Fatalf("urlget %q: still running after %v; stderr:\n%s", args, runLimit, r.stderr)
	}
	r.code = cmd.ProcessState.ExitCode()
	r.rssKiB = cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
	r.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	t.Logf("urlget %s: exit %d, peak RSS %d MiB, %.1f s (CPU %.1f s); stderr: %s", strings.Join(args, " "), r.code,
		r.rssKiB>>10, r.elapsed.Seconds(), r.cpu.Seconds(), strings.TrimSpace(r.stderr))
	return r
}

// checkRSS fails the test if the run's peak RSS passed maxRSS.
func (r result) checkRSS(t *testing.T) {
	t.Helper()
	if r.rssKiB > maxRSS {
		t.Errorf("peak RSS %d MiB, want at most %d MiB", r.rssKiB>>10, maxRSS>>10)
	}
}

// limited writes the first n bytes to w and drops the rest.
type limited struct {
	w io.Writer
	n int
}

func (l *limited) Write(p []byte) (int, error) {
	if l.n > 0 {
		m := min(len(p), l.n)
		l.w.Write(p[:m])
		l.n -= m
	}
	return len(p), nil
}

// hostileCase is one hostile server and what urlget must do against it.
type hostileCase struct {
	name  string
	serve func(*hostile.Conn)
	// args are urlget's arguments; in each, ADDR stands for the server's
	// 127.0.0.1:PORT and OUT for the output file.
	args []string
	code int
	// stderr must match what urlget says (for a failure, after "urlget: ").
	stderr string
	// lines, for a listing that must arrive whole, is the number of lines
	// OUT must hold; 0 for a failure, where OUT must not exist.
	lines int
	// maxElapsed, if set, bounds the run's duration.
	maxElapsed time.Duration
}

// timedOut is what urlget says of a TLS handshake that saw no reply.
const timedOut = `(?i)tls.*(timed out|no progress)|(timed out|no progress).*tls`

// TestHostileServers runs urlget against one fake server a case, each
// breaking one rule, and asserts its exit code, its message, its output
// file and that its peak memory stays within maxRSS. The sizes are the
// issue's: each is many times what a client that held the reply, or its
// entries, could keep within maxRSS.
func TestHostileServers(t *testing.T) {
	for _, tc := range []hostileCase{
		{name: "ftp reply line of 300 MB without newline", serve: hostile.FTPLongLine(300 << 20),
			args: []string{"-o", "OUT", "ftp://ADDR/file.bin"}, code: 6, stderr: `(?i)line.*(too long|longer than)`},
		{name: "ftp reply longer than 1000 lines", serve: hostile.FTPLongReply("", 1001),
			args: []string{"-o", "OUT", "ftp://ADDR/file.bin"}, code: 6, stderr: `reply longer than 1000 lines`},
		{name: "ftp NLST of 16 M names", serve: hostile.FTPNLST(16 << 20),
			args: []string{"-o", "OUT", "ftp://ADDR/;type=d"}, lines: 16 << 20},
		{name: "ftps handshake never answered (implicit)", serve: hostile.Silent,
			args: []string{"--idle-timeout", "2", "-o", "OUT", "ftps://ADDR/file.bin"},
			code: 5, stderr: timedOut, maxElapsed: 10 * time.Second},
		{name: "ftps handshake never answered (AUTH TLS)", serve: hostile.FTPSilentTLS,
			args: []string{"--idle-timeout", "2", "--ftp-ssl", "-o", "OUT", "ftp://ADDR/file.bin"},
			code: 5, stderr: timedOut, maxElapsed: 10 * time.Second},
		{name: "ftps data connection handshake never answered", serve: hostile.FTPSSilentData,
			args: []string{"-k", "--idle-timeout", "2", "-o", "OUT", "ftps://ADDR/;type=d"},
			code: 5, stderr: timedOut, maxElapsed: 10 * time.Second},
		{name: "smtp greeting of 3 M lines", serve: hostile.SMTPGreeting(3 << 20),
			args: []string{"--smtp-server", "ADDR", "--from", "me@example.org", "mailto:you@example.org?body=hello"},
			code: 6, stderr: `greeting is longer than`},
		{name: "gopher menu of 1 M items", serve: hostile.GopherMenu(1 << 20),
			args: []string{"-o", "OUT", "gopher://ADDR/1"}, lines: 1 << 20},
		{name: "news:* with 1 M groups", serve: hostile.NNTPGroups(1 << 20),
			args: []string{"--nntp-server", "ADDR", "-o", "OUT", "news:*"}, lines: 1 << 20},
		{name: "gopher+ +-1 reply cut before its final dot", serve: hostile.GopherPlusCut,
			args: []string{"-o", "OUT", "gopher://ADDR/0file.txt%09%09+"}, code: 5, stderr: `ended before its "\." line`},
		// BER, whose lengths and nesting the server chooses: each reader
		// refuses before it holds what was announced (z39.50: 4 MiB an
		// APDU, 64 levels; ldap: 32 MiB a message, definite lengths only).
		{name: "z39.50 reply announcing 2 GiB", serve: hostile.Z3950HugeReply,
			args: []string{"-o", "OUT", "z39.50s://ADDR/db?word"}, code: 6, stderr: `longer than 4194304 bytes`},
		{name: "z39.50 reply nested without end", serve: hostile.Z3950DeepReply,
			args: []string{"-o", "OUT", "z39.50s://ADDR/db?word"}, code: 6, stderr: `(?i)nest|deep|levels`},
		{name: "z39.50 reply of indefinite length that never ends", serve: hostile.Z3950EndlessReply,
			args: []string{"-o", "OUT", "z39.50s://ADDR/db?word"}, code: 6, stderr: `longer than 4194304 bytes|values`},
		{name: "ldap message announcing 2 GiB", serve: hostile.LDAPHugeMessage,
			args: []string{"-o", "OUT", "ldap://ADDR/dc=hostile??sub"}, code: 6, stderr: `a message of more than the 33554432 bytes allowed`},
		{name: "ldap message of indefinite length", serve: hostile.LDAPIndefinite,
			args: []string{"-o", "OUT", "ldap://ADDR/dc=hostile??sub"}, code: 6, stderr: `a message of indefinite length, which LDAP forbids`},
		// Three LDIF lines an entry: "dn:", "cn:", the blank line.
		{name: "ldap search of 1 M entries", serve: hostile.LDAPEntries(1 << 20),
			args: []string{"-o", "OUT", "ldap://ADDR/dc=hostile??sub"}, lines: 3 << 20},
		// The idle timeout is waited out once, 2 s (each of three reads
		// used to wait it out, 6 s; gopher's TestTimeoutIsFinal holds the
		// fix); the bound leaves room for a loaded machine.
		{name: "silent gopher server with --idle-timeout 2", serve: hostile.Silent,
			args: []string{"--idle-timeout", "2", "-o", "OUT", "gopher://ADDR/0file.txt"},
			code: 5, stderr: `no progress for 2s`, maxElapsed: 10 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := start(t, tc.serve)
			out := filepath.Join(t.TempDir(), "out")
			r := run(t, s, expand(tc.args, s.HostPort(), out)...)
			if r.code != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", r.code, tc.code, r.stderr)
			}
			if tc.stderr != "" && !regexp.MustCompile(`(?m)^urlget: .*`+tc.stderr).MatchString(r.stderr) {
				t.Errorf("stderr does not match %q:\n%s", tc.stderr, r.stderr)
			}
			r.checkRSS(t)
			if tc.maxElapsed > 0 && r.elapsed > tc.maxElapsed {
				t.Errorf("took %v, want at most %v", r.elapsed.Round(time.Millisecond), tc.maxElapsed)
			}
			if tc.lines > 0 {
				if n := countLines(t, out); n != tc.lines {
					t.Errorf("%s holds %d lines, want %d", out, n, tc.lines)
				}
				return
			}
			noFile(t, out)
		})
	}
}

// TestLDAPFakeIsLDAP: the fake whose million entries urlget must stream
// speaks LDAP as OpenLDAP's ldapsearch reads it, so that the case tests
// urlget's bounds and not a fake that only urlget understands.
func TestLDAPFakeIsLDAP(t *testing.T) {
	s := start(t, hostile.LDAPEntries(2))
	out, err := exec.Command("ldapsearch", "-LLL", "-x", "-H", "ldap://"+s.HostPort(), "-b", "dc=hostile").CombinedOutput()
	if err != nil {
		t.Fatalf("ldapsearch: %v\n%s", err, out)
	}
	if want := "dn: cn=e0,dc=hostile\ncn: e0\n\ndn: cn=e1,dc=hostile\ncn: e1\n\n"; string(out) != want {
		t.Errorf("ldapsearch printed %q, want %q", out, want)
	}
}

// TestNULRefused: a NUL decoded from a gopher selector, search or
// Gopher+ string, or from a news message-id, is refused (exit 7) before
// anything is sent: a server written in C would act on what precedes it.
func TestNULRefused(t *testing.T) {
	for _, args := range [][]string{
		{"gopher://ADDR/0a%00b"},
		{"gopher://ADDR/7search%09a%00b"},
		{"gopher://ADDR/0file%09%09+%00"},
		{"--nntp-server", "ADDR", "news:a%00b@example.org"},
	} {
		t.Run(args[len(args)-1], func(t *testing.T) {
			s := start(t, hostile.Silent)
			out := filepath.Join(t.TempDir(), "out")
			// A request sent by mistake fails within the idle timeout.
			r := run(t, s, append([]string{"--idle-timeout", "2", "-o", out}, expand(args, s.HostPort(), out)...)...)
			if r.code != 7 || !strings.Contains(r.stderr, "decoded NUL") {
				t.Errorf("exit %d, want 7 with a message naming the NUL; stderr:\n%s", r.code, r.stderr)
			}
			if n, got := s.Conns(), s.Received(); n != 0 || got != "" {
				t.Errorf("the server saw %d connections and received %q, want none", n, got)
			}
			noFile(t, out)
		})
	}
}

// TestFullDiskNotRetried: a write that fails for want of space is a local
// error (exit 23, curl's write error), not a broken transfer: --retry 3
// does not connect again.
// The output is a symlink to /dev/full, a device written in place (a
// client that wrongly replaced the destination replaces only the link).
func TestFullDiskNotRetried(t *testing.T) {
	if st, err := os.Stat("/dev/full"); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("/dev/full is not a character device here (%v, %v)", st, err)
	}
	s := start(t, hostile.GopherBody(1<<20))
	out := filepath.Join(t.TempDir(), "full")
	if err := os.Symlink("/dev/full", out); err != nil {
		t.Fatal(err)
	}
	r := run(t, s, "--retry", "3", "--retry-delay", "0.1", "-o", out, "gopher://"+s.HostPort()+"/9file.bin")
	if r.code != 23 || !strings.Contains(strings.ToLower(r.stderr), "no space left") || !strings.Contains(r.stderr, out) {
		t.Errorf("exit %d, want 23 with a message naming %s and saying the disk is full; stderr:\n%s", r.code, out, r.stderr)
	}
	if n := s.Conns(); n != 1 {
		t.Errorf("the server saw %d connections, want 1 (no retry)", n)
	}
	if st, err := os.Lstat(out); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("%s is no longer the symlink to /dev/full: %v, %v", out, st, err)
	}
	r.checkRSS(t)
}

// expand replaces ADDR by addr and OUT by out in each of args.
func expand(args []string, addr, out string) []string {
	r := strings.NewReplacer("ADDR", addr, "OUT", out)
	x := make([]string, len(args))
	for i, a := range args {
		x[i] = r.Replace(a)
	}
	return x
}

// start starts a fake server for the test.
func start(t *testing.T, serve func(*hostile.Conn)) *hostile.Server {
	t.Helper()
	s, err := hostile.Start(serve)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// noFile fails the test if out exists. Its NAME.part may: an interrupted
// download keeps it for -C -.
func noFile(t *testing.T, out string) {
	t.Helper()
	if st, err := os.Lstat(out); err == nil {
		t.Errorf("%s exists (%d bytes) after a failure", out, st.Size())
	} else if !errors.Is(err, os.ErrNotExist) {
		t.Error(err)
	}
}

// countLines counts the lines of the file at path as it streams by.
func countLines(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var n lineCounter
	if _, err := io.Copy(&n, f); err != nil {
		t.Fatal(err)
	}
	return int(n)
}

// lineCounter counts the line ends written to it.
type lineCounter int

func (c *lineCounter) Write(p []byte) (int, error) {
	*c += lineCounter(bytes.Count(p, []byte{'\n'}))
	return len(p), nil
}
