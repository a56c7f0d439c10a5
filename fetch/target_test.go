package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/urlget/urlget/schemes"
)

// notes collects a Client's Notify messages.
type notes struct {
	mu  sync.Mutex
	all []string
}

func (n *notes) add(m string) {
	n.mu.Lock()
	n.all = append(n.all, m)
	n.mu.Unlock()
}

func (n *notes) String() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return strings.Join(n.all, "\n")
}

func noting(c *Client) *notes {
	n := &notes{}
	c.Notify = n.add
	return n
}

// TestDownloadInPlace: a destination that is not a regular file is
// written as the user named it, and stays what it was: no work file, no
// rename over it, and -C - is a usage error.
func TestDownloadInPlace(t *testing.T) {
	const data = "in-place-data-without-newlines"
	for _, tc := range []struct {
		name string
		// setup returns the destination, what it received (read after the
		// download), and the mode it must still have.
		setup func(t *testing.T, dir string) (dest string, got func() string, mode fs.FileMode)
	}{
		{"/dev/null", func(t *testing.T, dir string) (string, func() string, fs.FileMode) {
			return os.DevNull, func() string { return data }, fs.ModeDevice | fs.ModeCharDevice
		}},
		{"symlink to /dev/null", func(t *testing.T, dir string) (string, func() string, fs.FileMode) {
			link := filepath.Join(dir, "null")
			if err := os.Symlink(os.DevNull, link); err != nil {
				t.Fatal(err)
			}
			return link, func() string { return data }, fs.ModeSymlink
		}},
		{"FIFO", func(t *testing.T, dir string) (string, func() string, fs.FileMode) {
			fifo := filepath.Join(dir, "fifo")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Fatal(err)
			}
			return fifo, readerOf(t, func() (io.ReadCloser, error) { return os.Open(fifo) }), fs.ModeNamedPipe
		}},
		{"terminal", func(t *testing.T, dir string) (string, func() string, fs.FileMode) {
			ptm, tty, err := pty.Open()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ptm.Close(); tty.Close() })
			return tty.Name(), readN(t, ptm, len(data)), fs.ModeDevice | fs.ModeCharDevice
		}},
		{"descriptor name of a regular file", func(t *testing.T, dir string) (string, func() string, fs.FileMode) {
			// The shell's "urlget -o /dev/stdout URL >> out": the bytes go
			// after what out holds, in out itself.
			out := filepath.Join(dir, "out")
			os.WriteFile(out, []byte("before:"), 0o644)
			f, err := os.OpenFile(out, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { f.Close() })
			dest := fmt.Sprintf("/proc/self/fd/%d", f.Fd())
			if _, err := os.Stat(dest); err != nil {
				t.Fatalf("no /proc here: %v", err)
			}
			return dest, func() string { b, _ := os.ReadFile(out); return strings.TrimPrefix(string(b), "before:") }, fs.ModeSymlink
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			dest, got, mode := tc.setup(t, dir)
			before, _ := os.Lstat(dest)
			h := &fakeHandler{data: map[string]string{"x": data}}
			c := newClient(h)
			if _, err := c.Download(context.Background(), "t:x", dest, DownloadOptions{Resume: true}); schemes.KindOf(err) != schemes.KindUsage {
				t.Fatalf("-C -: err = %v, want a usage error", err)
			}
			res, err := c.Download(context.Background(), "t:x", dest, DownloadOptions{RemoteTime: true})
			if err != nil {
				t.Fatal(err)
			}
			if res.Bytes != int64(len(data)) || res.Path != dest {
				t.Errorf("result %+v", res)
			}
			if s := got(); s != data {
				t.Errorf("the destination received %q, want %q", s, data)
			}
			after, err := os.Lstat(dest)
			if err != nil || after.Mode().Type() != mode.Type() || !os.SameFile(before, after) {
				t.Errorf("%s is now %v (%v), want the same %v it was", dest, after.Mode(), err, mode.Type())
			}
			if _, err := os.Lstat(dest + PartSuffix); err == nil {
				t.Errorf("a work file %s was made", dest+PartSuffix)
			}
			if tc.name != "descriptor name of a regular file" {
				ents, _ := os.ReadDir(dir)
				for _, e := range ents {
					if strings.HasSuffix(e.Name(), PartSuffix) {
						t.Errorf("work file %s left in %s", e.Name(), dir)
					}
				}
			}
		})
	}
}

// readerOf opens a reader (the other end of a FIFO, which blocks until the
// download opens it) in a goroutine and returns what it read.
func readerOf(t *testing.T, open func() (io.ReadCloser, error)) func() string {
	ch := make(chan string, 1)
	go func() {
		r, err := open()
		if err != nil {
			ch <- err.Error()
			return
		}
		defer r.Close()
		b, _ := io.ReadAll(r)
		ch <- string(b)
	}()
	return func() string {
		select {
		case s := <-ch:
			return s
		case <-time.After(10 * time.Second):
			t.Fatal("the reader got no end of data")
			return ""
		}
	}
}

// readN reads n bytes from r in a goroutine (a terminal's master side
// sees no end of file).
func readN(t *testing.T, r io.Reader, n int) func() string {
	ch := make(chan string, 1)
	go func() {
		b := make([]byte, n)
		k, _ := io.ReadFull(r, b)
		ch <- string(b[:k])
	}()
	return func() string {
		select {
		case s := <-ch:
			return s
		case <-time.After(10 * time.Second):
			t.Fatal("the terminal got too few bytes")
			return ""
		}
	}
}

// TestDownloadToSocketFailsCleanly: a socket cannot be opened as a file;
// the error says so, and the socket is left as it was.
func TestDownloadToSocketFailsCleanly(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	h := &fakeHandler{data: map[string]string{"x": "data"}}
	if _, err := newClient(h).Download(context.Background(), "t:x", sock, DownloadOptions{}); err == nil || !strings.Contains(err.Error(), sock) {
		t.Fatalf("err = %v, want one naming %s", err, sock)
	}
	if st, err := os.Lstat(sock); err != nil || st.Mode().Type() != fs.ModeSocket {
		t.Fatalf("the socket is now %v (%v)", st.Mode(), err)
	}
	if h.fetches != 0 {
		t.Errorf("%d fetches for a destination that cannot be opened", h.fetches)
	}
	assertOnly(t, dir, "sock")
}

// TestDownloadFullDisk: a local write error is KindLocal (exit 23),
// names the file, and is not retried.
func TestDownloadFullDisk(t *testing.T) {
	const full = "/dev/full"
	if _, err := os.Stat(full); err != nil {
		t.Fatalf("%s: %v", full, err)
	}
	h := &fakeHandler{data: map[string]string{"x": strings.Repeat("x", 100000)}}
	c := newClient(h)
	c.Retries = 3
	_, err := c.Download(context.Background(), "t:x", full, DownloadOptions{})
	if schemes.KindOf(err) != schemes.KindLocal || schemes.IsRetryable(err) ||
		!errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), full) {
		t.Fatalf("err = %v, want a local write error naming %s, not retryable", err, full)
	}
	if h.fetches != 1 {
		t.Errorf("%d fetches, want 1: a full disk is not retried", h.fetches)
	}
}

// TestDownloadLocalErrorsAreLocal: whatever the system says of a local
// file that cannot be made or written (ENOENT, ENOTDIR, EACCES, ENOSPC),
// the error is KindLocal (exit 23), names the local path, keeps the
// system's error in its chain, and is not retried: a missing directory
// is not a missing remote file (exit 3), nor a read-only one a login
// refused (exit 4). The server is asked once at most.
func TestDownloadLocalErrorsAreLocal(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	ro := filepath.Join(dir, "ro")
	os.Mkdir(ro, 0o555)
	for _, tc := range []struct {
		name, dest, path string
		errno            syscall.Errno
		rootless         bool // permissions do not bind root
	}{
		{"missing directory", filepath.Join(dir, "missing", "x"), filepath.Join(dir, "missing", "x.part"), syscall.ENOENT, false},
		{"under /proc", "/proc/urlget-test", "/proc/urlget-test.part", syscall.ENOENT, false},
		{"parent is a file", filepath.Join(file, "x"), filepath.Join(file, "x"), syscall.ENOTDIR, false},
		{"full disk", "/dev/full", "/dev/full", syscall.ENOSPC, false},
		{"read-only directory", filepath.Join(ro, "x"), filepath.Join(ro, "x.part"), syscall.EACCES, true},
		// sysfs refuses new files even to root (EACCES, or EROFS where
		// it is mounted read-only): the permission error root can meet.
		{"under /sys", "/sys/urlget-test", "/sys/urlget-test.part", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.rootless && os.Geteuid() == 0 {
				t.Skip("root writes into a read-only directory")
			}
			h := &fakeHandler{data: map[string]string{"x": strings.Repeat("x", 10000)}}
			c := newClient(h)
			c.Retries = 2
			_, err := c.Download(context.Background(), "t:x", tc.dest, DownloadOptions{})
			if tc.errno == 0 && errors.Is(err, syscall.ENOENT) {
				t.Skip("no sysfs here")
			}
			if schemes.KindOf(err) != schemes.KindLocal || schemes.KindOf(err).ExitCode() != 23 || schemes.IsRetryable(err) ||
				(tc.errno != 0 && !errors.Is(err, tc.errno)) || !strings.Contains(err.Error(), tc.path) {
				t.Fatalf("err = %v (%v), want KindLocal naming %s, wrapping %v, not retried", err, schemes.KindOf(err), tc.path, tc.errno)
			}
			var pe *fs.PathError
			if !errors.As(err, &pe) {
				t.Errorf("no *fs.PathError in the chain of %v", err)
			}
			if h.fetches > 1 {
				t.Errorf("%d fetches: a local error is not retried", h.fetches)
			}
		})
	}
}

// TestDownloadRefusesLinksAndForeignFiles: NAME and NAME.part are never
// written through a symbolic link, and NAME.part must be a regular file
// of its own; such a plant is exit 7, and everything stays as it was.
func TestDownloadRefusesLinksAndForeignFiles(t *testing.T) {
	for _, tc := range []struct {
		name   string
		plant  func(t *testing.T, dest, victim string) // makes NAME or NAME.part
		resume bool
		kind   schemes.Kind
		names  string // the file the message names
	}{
		{"NAME links to a file", linkAt(""), false, schemes.KindSafety, ""},
		{"NAME links to a file, -C -", linkAt(""), true, schemes.KindSafety, ""},
		{"NAME links to nothing", func(t *testing.T, dest, victim string) { os.Symlink(victim+".missing", dest) }, false, schemes.KindSafety, ""},
		{"NAME.part links to a file", linkAt(PartSuffix), false, schemes.KindSafety, PartSuffix},
		{"NAME.part links to a file, -C -", linkAt(PartSuffix), true, schemes.KindSafety, PartSuffix},
		{"NAME.part links to nothing", func(t *testing.T, dest, victim string) { os.Symlink(victim+".missing", dest+PartSuffix) }, true, schemes.KindSafety, PartSuffix},
		{"NAME.part is a hard link", func(t *testing.T, dest, victim string) {
			if err := os.Link(victim, dest+PartSuffix); err != nil {
				t.Fatal(err)
			}
		}, true, schemes.KindSafety, PartSuffix},
		{"NAME.part is a FIFO", func(t *testing.T, dest, victim string) { syscall.Mkfifo(dest+PartSuffix, 0o600) }, false, schemes.KindSafety, PartSuffix},
		{"NAME is a directory", func(t *testing.T, dest, victim string) { os.Mkdir(dest, 0o755) }, false, schemes.KindLocal, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, outside := t.TempDir(), t.TempDir()
			dest := filepath.Join(dir, "out.bin")
			victim := filepath.Join(outside, "victim")
			os.WriteFile(victim, []byte("precious"), 0o644)
			tc.plant(t, dest, victim)
			before := snapshot(t, dir)
			h := &fakeHandler{data: map[string]string{"x": "0123456789abcdef"}}
			_, err := newClient(h).Download(context.Background(), "t:x", dest, DownloadOptions{Resume: tc.resume})
			if schemes.KindOf(err) != tc.kind || !strings.Contains(err.Error(), dest+tc.names+" ") {
				t.Fatalf("err = %v, want %v naming %s", err, tc.kind, dest+tc.names)
			}
			if b, _ := os.ReadFile(victim); string(b) != "precious" {
				t.Errorf("written through the plant: the victim holds %q", b)
			}
			if after := snapshot(t, dir); after != before {
				t.Errorf("the directory changed:\n%s\nwas\n%s", after, before)
			}
			if h.fetches != 0 {
				t.Errorf("%d fetches before the refusal", h.fetches)
			}
		})
	}
}

// linkAt plants a symbolic link to the victim at NAME+suffix.
func linkAt(suffix string) func(t *testing.T, dest, victim string) {
	return func(t *testing.T, dest, victim string) {
		if err := os.Symlink(victim, dest+suffix); err != nil {
			t.Fatal(err)
		}
	}
}

// snapshot describes dir's entries: name, type, size.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range ents {
		st, _ := os.Lstat(filepath.Join(dir, e.Name()))
		fmt.Fprintf(&b, "%s %v %d\n", e.Name(), st.Mode().Type(), st.Size())
	}
	return b.String()
}

// gate is a body that stops after its first byte until it is opened.
type gate struct {
	r      io.Reader
	first  bool
	opened chan struct{}
	held   chan struct{} // closed once the first byte is out
}

func (g *gate) Read(p []byte) (int, error) {
	if !g.first {
		g.first = true
		close(g.held)
		return g.r.Read(p[:1])
	}
	<-g.opened
	return g.r.Read(p)
}

// TestDownloadPartInUse: while one run writes NAME.part, a second run on
// the same NAME fails at once, says why, and disturbs nothing; the first
// run then completes.
func TestDownloadPartInUse(t *testing.T) {
	for _, resume := range []bool{false, true} {
		t.Run(fmt.Sprintf("resume=%v", resume), func(t *testing.T) {
			dir := t.TempDir()
			dest := filepath.Join(dir, "out.bin")
			g := &gate{opened: make(chan struct{}), held: make(chan struct{})}
			first := &fakeHandler{data: map[string]string{"x": "0123456789"},
				wrap: func(r io.Reader) io.Reader { g.r = r; return g }}
			done := make(chan error, 1)
			go func() {
				_, err := newClient(first).Download(context.Background(), "t:x", dest, DownloadOptions{})
				done <- err
			}()
			<-g.held
			second := &fakeHandler{data: map[string]string{"x": "second run"}}
			_, err := newClient(second).Download(context.Background(), "t:x", dest, DownloadOptions{Resume: resume})
			want := dest + PartSuffix + " is in use by another urlget"
			if schemes.KindOf(err) != schemes.KindUsage || !strings.Contains(err.Error(), want) {
				t.Errorf("second run: err = %v, want a usage error saying %q", err, want)
			}
			if second.fetches != 0 {
				t.Errorf("the second run fetched %d times", second.fetches)
			}
			close(g.opened)
			if err := <-done; err != nil {
				t.Fatalf("first run: %v", err)
			}
			if b, _ := os.ReadFile(dest); string(b) != "0123456789" {
				t.Fatalf("file %q", b)
			}
			assertOnly(t, dir, "out.bin")
		})
	}
}

// TestDownloadLeftoverPartStartsOver: without -C -, an earlier run's
// NAME.part is started over once the server answers, and the Client says
// so; a failure before that leaves it as it was.
func TestDownloadLeftoverPartStartsOver(t *testing.T) {
	dir := t.TempDir()
	dest := filepath.Join(dir, "out.bin")
	os.WriteFile(dest+PartSuffix, []byte("left by an earlier run"), 0o644)
	h := &fakeHandler{data: map[string]string{"x": "0123456789"}}
	c := newClient(h)
	n := noting(c)
	if _, err := c.Download(context.Background(), "t:missing", dest, DownloadOptions{}); schemes.KindOf(err) != schemes.KindNotFound {
		t.Fatalf("err = %v", err)
	}
	if b, _ := os.ReadFile(dest + PartSuffix); string(b) != "left by an earlier run" {
		t.Fatalf("a failure before the first byte changed the leftover: %q", b)
	}
	res, err := c.Download(context.Background(), "t:x", dest, DownloadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := "found " + dest + PartSuffix + " from an earlier run; starting over — use -C - to continue it"
	if !strings.Contains(n.String(), want) {
		t.Errorf("notes:\n%s\nwant %q", n, want)
	}
	if b, _ := os.ReadFile(dest); string(b) != "0123456789" || res.Offset != 0 || h.offsets[len(h.offsets)-1] != 0 {
		t.Fatalf("file %q, result %+v, offsets %v", b, res, h.offsets)
	}
	assertOnly(t, dir, "out.bin")
}

// cancelAfter is a body that cancels its download after n bytes.
type cancelAfter struct {
	r      io.Reader
	n      int
	cancel context.CancelFunc
}

func (c *cancelAfter) Read(p []byte) (int, error) {
	if c.n <= 0 {
		c.cancel()
		return 0, context.Canceled
	}
	k, err := c.r.Read(p[:min(len(p), c.n)])
	c.n -= k
	return k, err
}

// TestDownloadInterruptedKeepsPart: a failure after bytes arrived keeps
// them in NAME.part with its kind, says how to continue, and -C -
// continues it to the same bytes.
func TestDownloadInterruptedKeepsPart(t *testing.T) {
	const data = "0123456789abcdefghij"
	for _, tc := range []struct {
		name string
		set  func(h *fakeHandler, cancel context.CancelFunc)
		kind schemes.Kind
	}{
		{"connection broken after retries", func(h *fakeHandler, _ context.CancelFunc) { h.cutAfter = 7 }, schemes.KindConnect},
		{"canceled", func(h *fakeHandler, cancel context.CancelFunc) {
			h.wrap = func(r io.Reader) io.Reader { return &cancelAfter{r: r, n: 7, cancel: cancel} }
		}, schemes.KindCanceled},
		{"truncated", func(h *fakeHandler, _ context.CancelFunc) {
			h.wrap = func(r io.Reader) io.Reader { return io.LimitReader(r, 7) }
		}, schemes.KindProtocol},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			dest := filepath.Join(dir, "out.bin")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			h := &fakeHandler{data: map[string]string{"x": data}}
			tc.set(h, cancel)
			_, err := newClient(h).Download(ctx, "t:x", dest, DownloadOptions{})
			suffix := "the partial copy is kept in " + dest + PartSuffix + ": continue with -C -"
			var pk *PartialKept
			if schemes.KindOf(err) != tc.kind || !strings.HasSuffix(err.Error(), suffix) || !errors.As(err, &pk) || pk.Path != dest+PartSuffix {
				t.Fatalf("err = %v, want %v ending %q", err, tc.kind, suffix)
			}
			if b, _ := os.ReadFile(dest + PartSuffix); string(b) != data[:7] {
				t.Fatalf("NAME.part holds %q, want %q", b, data[:7])
			}
			assertOnly(t, dir, "out.bin"+PartSuffix)
			h.wrap = nil
			res, err := newClient(h).Download(context.Background(), "t:x", dest, DownloadOptions{Resume: true})
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(dest); string(b) != data || res.Offset != 7 {
				t.Fatalf("continued: file %q, result %+v", b, res)
			}
			assertOnly(t, dir, "out.bin")
		})
	}
}

// TestDownloadResumeDest: -C - on a NAME with no NAME.part (another
// tool's partial copy). When the server continues it, NAME is appended to
// in place (and an interruption leaves it longer, saying so); when the
// rule says start over, NAME stays as it is until the new copy, written to
// NAME.part, is complete.
func TestDownloadResumeDest(t *testing.T) {
	const data = "0123456789"
	for _, tc := range []struct {
		name      string
		noResume  bool
		cutAfter  int
		wantDest  string // NAME afterwards
		wantPart  string // NAME.part afterwards, "" for none
		keptIn    string // the file the error says holds the partial copy, "" for success
		sameInode bool
	}{
		{"continued", false, 0, data, "", "", true},
		{"continued, interrupted", false, 2, "0123456", "", "out.bin", true},
		{"started over", true, 0, data, "", "", false},
		{"started over, interrupted", true, 3, "01234", "012", "out.bin" + PartSuffix, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			dest := filepath.Join(dir, "out.bin")
			os.WriteFile(dest, []byte("01234"), 0o644)
			before, _ := os.Stat(dest)
			h := &fakeHandler{data: map[string]string{"x": data}, noResume: tc.noResume, cutAfter: tc.cutAfter}
			c := newClient(h)
			n := noting(c)
			_, err := c.Download(context.Background(), "t:x", dest, DownloadOptions{Resume: true})
			switch {
			case tc.keptIn == "" && err != nil:
				t.Fatal(err)
			case tc.keptIn != "" && (err == nil || !strings.HasSuffix(err.Error(), "kept in "+filepath.Join(dir, tc.keptIn)+": continue with -C -")):
				t.Fatalf("err = %v, want the partial copy kept in %s", err, tc.keptIn)
			}
			if b, _ := os.ReadFile(dest); string(b) != tc.wantDest {
				t.Errorf("NAME holds %q, want %q", b, tc.wantDest)
			}
			after, _ := os.Stat(dest)
			if os.SameFile(before, after) != tc.sameInode {
				t.Errorf("NAME replaced: %v, want %v", !os.SameFile(before, after), !tc.sameInode)
			}
			b, err := os.ReadFile(dest + PartSuffix)
			if tc.wantPart == "" && err == nil || tc.wantPart != "" && string(b) != tc.wantPart {
				t.Errorf("NAME.part: %q (%v), want %q", b, err, tc.wantPart)
			}
			if h.offsets[0] != 5 {
				t.Errorf("asked from %d, want 5 (NAME's size)", h.offsets[0])
			}
			if !strings.Contains(n.String(), dest+": resuming at byte 5") {
				t.Errorf("notes:\n%s", n)
			}
		})
	}
}

// recordingHandler records the Partial of each request.
type recordingHandler struct {
	*fakeHandler
	partials []schemes.Partial
}

func (h *recordingHandler) Fetch(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	h.partials = append(h.partials, req.Partial)
	return h.fakeHandler.Fetch(ctx, req)
}

// TestDownloadResumeDestHasNoRecord: NAME is not urlget's copy: the rule
// gets its time and no record, and NAME gets no record attribute.
func TestDownloadResumeDestHasNoRecord(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "out.bin")
	os.WriteFile(dest, []byte("01234"), 0o644)
	old := time.Date(2002, 2, 2, 0, 0, 0, 0, time.UTC)
	os.Chtimes(dest, old, old)
	h := &recordingHandler{fakeHandler: &fakeHandler{data: map[string]string{"x": "0123456789"}}}
	c := newClient(nil)
	c.Registry = schemes.NewRegistry()
	c.Registry.Register(schemes.Scheme{Name: "t", Parse: func(u *schemes.URL) (schemes.Locator, error) { return fakeLoc{u}, nil }, Handler: h})
	if _, err := c.Download(context.Background(), "t:x", dest, DownloadOptions{Resume: true}); err != nil {
		t.Fatal(err)
	}
	if p := h.partials[0]; p.Record != nil || !p.ModTime.Equal(old) {
		t.Errorf("partial %+v, want NAME's time and no record", p)
	}
	f, _ := os.Open(dest)
	defer f.Close()
	if rec := readRecord(f); rec != nil {
		t.Errorf("NAME got a record %+v", rec)
	}
}

// TestDownloadRemoteTime: -R gives the file the server's time; without it
// the file has the time it was written. Both for a new file and for one
// continued in place.
func TestDownloadRemoteTime(t *testing.T) {
	mod := time.Date(2001, 9, 9, 1, 46, 40, 0, time.UTC)
	for _, tc := range []struct {
		name   string
		remote bool
		dest   string // NAME's content before
	}{
		{"new, -R", true, ""},
		{"new", false, ""},
		{"continued, -R", true, "01234"},
		{"continued", false, "01234"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dest := filepath.Join(t.TempDir(), "out.bin")
			if tc.dest != "" {
				os.WriteFile(dest, []byte(tc.dest), 0o644)
				old := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
				os.Chtimes(dest, old, old)
			}
			h := &fakeHandler{data: map[string]string{"x": "0123456789"}, mod: mod}
			start := time.Now().Add(-time.Second)
			if _, err := newClient(h).Download(context.Background(), "t:x", dest, DownloadOptions{Resume: true, RemoteTime: tc.remote}); err != nil {
				t.Fatal(err)
			}
			st, _ := os.Stat(dest)
			if tc.remote && !st.ModTime().Equal(mod) {
				t.Errorf("mtime %v, want the server's %v", st.ModTime(), mod)
			}
			if !tc.remote && st.ModTime().Before(start) {
				t.Errorf("mtime %v, want the time of writing (after %v)", st.ModTime(), start)
			}
		})
	}
}

// TestDownloadRetryResumesFromPart: a retried download continues the bytes
// held, and the retry note says from where.
func TestDownloadRetryResumesFromPart(t *testing.T) {
	dir := t.TempDir()
	dest := filepath.Join(dir, "out.bin")
	h := &fakeHandler{data: map[string]string{"x": "0123456789"}, cutAfter: 4}
	c := newClient(h)
	c.Retries = 1
	n := noting(c)
	if _, err := c.Download(context.Background(), "t:x", dest, DownloadOptions{}); err != nil {
		t.Fatal(err)
	}
	if want := []int64{0, 4}; !slices.Equal(h.offsets, want) {
		t.Errorf("offsets %v, want %v", h.offsets, want)
	}
	want := "retrying in 1ms (1 of 1); resuming at byte 4 of " + dest + PartSuffix
	if !strings.Contains(n.String(), want) {
		t.Errorf("notes:\n%s\nwant %q", n, want)
	}
	assertOnly(t, dir, "out.bin")
}

// TestDownloadMaxFileSize: a size announced above the limit is refused
// before anything is written; an unannounced one is stopped as the limit
// is passed, and what was written goes (a continued NAME back to its
// length before).
func TestDownloadMaxFileSize(t *testing.T) {
	const data = "0123456789"
	for _, tc := range []struct {
		name     string
		max      int64
		noSize   bool
		resume   bool
		dest     string // NAME before, "" for none
		wantErr  bool
		wantDest string
	}{
		{"announced, larger", 9, false, false, "", true, ""},
		{"announced, larger, user's file", 9, false, false, "mine", true, "mine"},
		{"announced, equal", 10, false, false, "", false, data},
		{"unannounced, larger", 9, true, false, "", true, ""},
		{"unannounced, equal", 10, true, false, "", false, data},
		{"unannounced, larger, continued in place", 9, true, true, "012", true, "012"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			dest := filepath.Join(dir, "out.bin")
			if tc.dest != "" {
				os.WriteFile(dest, []byte(tc.dest), 0o644)
			}
			h := &fakeHandler{data: map[string]string{"x": data}, noSize: tc.noSize}
			c := newClient(h)
			c.MaxFileSize, c.Retries = tc.max, 2
			_, err := c.Download(context.Background(), "t:x", dest, DownloadOptions{Resume: tc.resume})
			if !tc.wantErr {
				if err != nil {
					t.Fatal(err)
				}
			} else if schemes.KindOf(err) != schemes.KindSafety || !strings.Contains(err.Error(), fmt.Sprintf("maximum file size of %d bytes", tc.max)) ||
				(!tc.noSize && !strings.Contains(err.Error(), "is 10 bytes")) || strings.Contains(err.Error(), "-C -") {
				t.Fatalf("err = %v", err)
			}
			if h.fetches != 1 {
				t.Errorf("%d fetches", h.fetches)
			}
			b, _ := os.ReadFile(dest)
			if string(b) != tc.wantDest {
				t.Errorf("NAME holds %q, want %q", b, tc.wantDest)
			}
			if tc.wantDest == "" {
				assertOnly(t, dir)
			} else {
				assertOnly(t, dir, "out.bin")
			}
		})
	}
}
