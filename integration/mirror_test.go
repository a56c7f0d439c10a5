//go:build integration

package integration

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/internal/await"
	"github.com/urlget/urlget/mirror"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// mirrorClient is a fetch Client as the urlget command makes one, with
// a trace kept for failure messages.
func mirrorClient(trace io.Writer) *fetch.Client {
	return &fetch.Client{
		Registry: mustRegistry(fetch.Config{Options: schemes.Options{"ftp-anon-password": ftpAnonPassword}}),
		Dialer:   &transport.Dialer{ConnectTimeout: 10 * time.Second, IdleTimeout: 30 * time.Second},
		Trace:    transport.NewTrace(trace),
	}
}

// countedClient is mirrorClient dialing from testbed.ClientIP, for a test
// that counts the commands an FTP server logs from it (ftpCommands).
// Only for servers reached directly on 127.0.0.1: not for IPv6, not
// through a proxy (which reaches the server from its own address), and
// not for gophernicus, which resets connections from other addresses.
func countedClient(trace io.Writer) *fetch.Client {
	c := mirrorClient(trace)
	c.Dialer.(*transport.Dialer).LocalIP = testbed.ClientIP
	return c
}

// mirrorEvents collects a run's events.
type mirrorEvents struct {
	mu  sync.Mutex
	all []mirror.Event
}

func (m *mirrorEvents) add(e mirror.Event) {
	m.mu.Lock()
	m.all = append(m.all, e)
	m.mu.Unlock()
}

// paths lists the paths of the events of type typ, sorted.
func (m *mirrorEvents) paths(typ mirror.EventType) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for _, e := range m.all {
		if e.Type == typ {
			out = append(out, e.Path)
		}
	}
	slices.Sort(out)
	return out
}

func (m *mirrorEvents) String() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var b strings.Builder
	for _, e := range m.all {
		fmt.Fprintf(&b, "%s %q %s %v\n", e.Type, e.Path, e.Reason, e.Err)
	}
	return b.String()
}

// runMirror mirrors src into dst with opt and the FTP commands the
// server logged meanwhile (for an ftp service; nil otherwise), waiting,
// bounded, until the log shows every session's QUIT. A server reached
// directly is dialed from testbed.ClientIP, and only that address's
// commands are counted; one reached through the fault proxy sees the
// proxy's address, whose commands (any process's) are all counted.
func runMirror(t *testing.T, service, src, dst string, opt mirror.Options) (*mirror.Summary, *mirrorEvents, []string, error) {
	t.Helper()
	if service != "" && direct(src) {
		return runMirrorWith(t, countedClient, service, src, dst, opt)
	}
	return runMirrorWith(t, mirrorClient, service, src, dst, opt)
}

// direct reports whether raw's server is the test bed's host itself, not
// a proxy in front of it.
func direct(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && u.Hostname() == testbed.Host
}

// runMirrorWith is runMirror with the Client newClient makes (given the
// trace's writer).
func runMirrorWith(t *testing.T, newClient func(io.Writer) *fetch.Client, service, src, dst string, opt mirror.Options) (*mirror.Summary, *mirrorEvents, []string, error) {
	t.Helper()
	off := int64(0)
	if service != "" {
		off = testbed.LogSize(service)
	}
	ev := &mirrorEvents{}
	opt.Events = ev.add
	var trace strings.Builder
	var mu sync.Mutex
	c := newClient(lockedWriter{&mu, &trace})
	sum, err := mirror.Run(context.Background(), c, src, dst, opt)
	c.CloseIdleConnections()
	if err != nil {
		mu.Lock()
		t.Logf("trace:\n%s", tail(trace.String()))
		mu.Unlock()
	}
	if service == "" {
		return sum, ev, nil, err
	}
	// Until every session's QUIT is logged, bounded: the callers judge
	// the commands.
	from := ""
	if direct(src) {
		from = testbed.ClientIP.String()
	}
	var cmds []string
	await.Poll(func() bool {
		cmds = ftpCommandsFrom(t, service, off, from)
		return count(cmds, "QUIT") >= count(cmds, "USER")
	})
	return sum, ev, cmds, err
}

// count is how many of cmds have the verb verb.
func count(cmds []string, verb string) int {
	n := 0
	for _, c := range cmds {
		if c == verb || strings.HasPrefix(c, verb+" ") {
			n++
		}
	}
	return n
}

// hostTree is path -> SHA-256 of every regular file under dir (paths
// with "/", relative to dir), leaving out the top-level names in skip.
func hostTree(t *testing.T, dir string, skip ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if slices.Contains(skip, strings.Split(rel, "/")[0]) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		h := sha256.New()
		if _, err := io.Copy(h, f); err != nil {
			return err
		}
		out[rel] = hex.EncodeToString(h.Sum(nil))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameTrees fails t unless got and want hold the same files with the
// same digests.
func sameTrees(t *testing.T, got, want map[string]string) {
	t.Helper()
	for p, sum := range want {
		switch g, ok := got[p]; {
		case !ok:
			t.Errorf("%s missing", p)
		case g != sum:
			t.Errorf("%s differs: SHA-256 %s, want %s", p, g, sum)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("%s is extra", p)
		}
	}
}

// TestMirrorFTPWholeTree mirrors each FTP server's whole fixture tree:
// byte for byte (SHA-256 of every file against the fixture tree on the
// host), at most 2.5 FTP commands per file, with the remote times; then
// a second run sends no RETR at all.
func TestMirrorFTPWholeTree(t *testing.T) {
	want := hostTree(t, testbed.FixtureDir(), testbed.ScratchDir)
	for _, s := range ftpServers {
		t.Run(s.service, func(t *testing.T) {
			testbed.Require(t, s.service)
			dst := t.TempDir()
			src := fmt.Sprintf("ftp://%s/", testbed.Addr(s.port))
			opt := mirror.Options{Parallel: 8, Exclude: []string{testbed.ScratchDir}}
			sum, ev, cmds, err := runMirror(t, s.service, src, dst, opt)
			if err != nil {
				t.Fatalf("%v\n%s", err, ev)
			}
			sameTrees(t, hostTree(t, dst, mirror.LockName), want)
			if sum.Got != len(want) || sum.Errors != 0 {
				t.Errorf("summary %+v, want %d files fetched", sum, len(want))
			}
			if perFile := float64(len(cmds)) / float64(len(want)); perFile > 2.5 {
				t.Errorf("%d commands for %d files: %.2f a file, want <= 2.5", len(cmds), len(want), perFile)
			} else {
				t.Logf("%d commands for %d files: %.2f a file", len(cmds), len(want), perFile)
			}
			if got := count(cmds, "RETR"); got != len(want) {
				t.Errorf("%d RETR for %d files", got, len(want))
			}
			// The mirror asks for the exact bytes (Request.Exact): no
			// TYPE is guessed, so no SYST is asked (issue 23).
			if got := count(cmds, "SYST"); got != 0 {
				t.Errorf("%d SYST: the mirror guessed a TYPE", got)
			}
			// The file gets the listing's time: to the second from MLSD
			// (proftpd, pure-ftpd), to the day from vsftpd's LIST of a
			// file older than six months.
			st, err := os.Stat(filepath.Join(dst, "README.txt"))
			fixed := testbed.FixtureModTime()
			if err != nil || st.ModTime().After(fixed) || fixed.Sub(st.ModTime()) >= 24*time.Hour ||
				(s.service != testbed.Vsftpd && !st.ModTime().Equal(fixed)) {
				t.Errorf("README.txt time %v, want the server's %v within its listing's precision (%v)", st.ModTime(), fixed, err)
			}
			sum, ev, cmds, err = runMirror(t, s.service, src, dst, opt)
			if err != nil {
				t.Fatalf("second run: %v\n%s", err, ev)
			}
			if n := count(cmds, "RETR"); n != 0 || sum.Got != 0 || sum.Unchanged != len(want) {
				t.Errorf("second run: %d RETR, summary %+v; want none and %d unchanged", n, sum, len(want))
			}
		})
	}
}

// scratchTree writes files (path -> content) under the test's scratch
// directory with the fixtures' time, and returns its host path and path
// relative to the fixture root.
func scratchTree(t *testing.T, files map[string]string) (host, rel string) {
	t.Helper()
	host, rel = testbed.ScratchPath(t)
	for p, content := range files {
		writeScratch(t, host, p, content, testbed.FixtureModTime())
	}
	return host, rel
}

// writeScratch writes one scratch file with the time mod.
func writeScratch(t *testing.T, host, p, content string, mod time.Time) {
	t.Helper()
	full := filepath.Join(host, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(full, mod, mod); err != nil {
		t.Fatal(err)
	}
}

// TestMirrorFTPChanges: after a first mirror, a changed and a new file
// on the server are the only ones fetched (the server's log shows their
// RETR and no other); a file removed on the server goes with Delete.
func TestMirrorFTPChanges(t *testing.T) {
	for _, s := range ftpServers {
		t.Run(s.service, func(t *testing.T) {
			testbed.Require(t, s.service)
			host, rel := scratchTree(t, map[string]string{"a.txt": "a\n", "keep.bin": "keep", "sub/b.txt": "b\n",
				"sub/gone.txt": "gone\n", "zero": ""})
			src := fmt.Sprintf("ftp://%s/%s/", testbed.Addr(s.port), rel)
			dst := t.TempDir()
			if _, ev, _, err := runMirror(t, s.service, src, dst, mirror.Options{}); err != nil {
				t.Fatalf("%v\n%s", err, ev)
			}
			// A change a minute later (LIST shows minutes), and a new file.
			writeScratch(t, host, "sub/b.txt", "b, changed\n", testbed.FixtureModTime().Add(time.Hour))
			writeScratch(t, host, "new.txt", "new\n", testbed.FixtureModTime())
			os.Remove(filepath.Join(host, "sub/gone.txt"))
			sum, ev, cmds, err := runMirror(t, s.service, src, dst, mirror.Options{Delete: true})
			if err != nil {
				t.Fatalf("%v\n%s", err, ev)
			}
			var retr []string
			for _, c := range cmds {
				if strings.HasPrefix(c, "RETR ") {
					retr = append(retr, strings.TrimPrefix(c, "RETR "))
				}
			}
			slices.Sort(retr)
			if !slices.Equal(retr, []string{"b.txt", "new.txt"}) {
				t.Errorf("RETR %q, want only b.txt and new.txt\n%s", retr, ev)
			}
			if !slices.Equal(ev.paths(mirror.EventDelete), []string{"sub/gone.txt"}) || sum.Deleted != 1 {
				t.Errorf("deleted %q, want sub/gone.txt", ev.paths(mirror.EventDelete))
			}
			sameTrees(t, hostTree(t, dst, mirror.LockName), hostTree(t, host))
		})
	}
}

// TestMirrorFileTree mirrors the fixture tree by file: byte for byte.
func TestMirrorFileTree(t *testing.T) {
	want := hostTree(t, testbed.FixtureDir(), testbed.ScratchDir)
	dst := t.TempDir()
	src := "file://" + filepath.ToSlash(testbed.FixtureDir()) + "/"
	sum, ev, _, err := runMirror(t, "", src, dst, mirror.Options{Exclude: []string{testbed.ScratchDir}})
	if err != nil {
		t.Fatalf("%v\n%s", err, ev)
	}
	sameTrees(t, hostTree(t, dst, mirror.LockName), want)
	if sum.Got != len(want) {
		t.Errorf("summary %+v", sum)
	}
	if sum, _, _, _ := runMirror(t, "", src, dst, mirror.Options{Exclude: []string{testbed.ScratchDir}}); sum.Got != 0 {
		t.Errorf("second run fetched %d files", sum.Got)
	}
}

// TestMirrorCutListingDeletesNothing: a listing cut in the middle by the
// fault-injection proxy makes the run fail and delete nothing in that
// directory, though Delete was asked and the local copy holds a file the
// (cut) listing does not show.
func TestMirrorCutListingDeletesNothing(t *testing.T) {
	c := toxics(t)
	files := map[string]string{}
	for i := range 60 {
		files[fmt.Sprintf("file-%02d.txt", i)] = "x\n"
	}
	_, rel := scratchTree(t, files)
	src := toxiURL("ftp", testbed.ToxiFTPHost, testbed.ToxiFTPPort, "/"+rel+"/")
	dst := t.TempDir()
	if _, ev, _, err := runMirror(t, "", src, dst, mirror.Options{}); err != nil {
		t.Fatalf("%v\n%s", err, ev)
	}
	stale := filepath.Join(dst, "stale.txt")
	if err := os.WriteFile(stale, []byte("local only"), 0o644); err != nil {
		t.Fatal(err)
	}
	poison(t, c, ftpDataProxies(), cutAfter(600)...) // a LIST line is about 60 bytes
	sum, ev, _, err := runMirror(t, "", src, dst, mirror.Options{Delete: true})
	if err == nil {
		t.Fatalf("a cut listing is no error\n%s", ev)
	}
	if _, serr := os.Stat(stale); serr != nil || sum.Deleted != 0 {
		t.Fatalf("deleted after a cut listing (summary %+v)\n%s", sum, ev)
	}
	if n := len(hostTree(t, dst, mirror.LockName)); n != len(files)+1 {
		t.Errorf("%d files left, want all %d and the stale one", n, len(files))
	}
}

// TestMirrorCommand runs `urlget mirror --json` against vsftpd: one JSON
// object per event and a summary last; --dry-run changes nothing.
func TestMirrorCommand(t *testing.T) {
	testbed.Require(t, testbed.Vsftpd)
	_, rel := scratchTree(t, map[string]string{"one.txt": "1\n", "d/two.txt": "2\n"})
	src := fmt.Sprintf("ftp://%s/%s/", testbed.Addr(testbed.VsftpdPort), rel)
	work := t.TempDir()
	dst := filepath.Join(work, "dst")
	r := runURLGet(t, work, "mirror", "--dry-run", src, dst)
	if r.code != 0 {
		t.Fatalf("dry run: exit %d: %s", r.code, r.stderr)
	}
	if entries, _ := os.ReadDir(dst); len(entries) > 1 { // the lock at most
		t.Fatalf("a dry run wrote %v", entries)
	}
	out, code := runURLGetOutput(t, work, "mirror", "--json", "-P", "2", src, dst)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var last map[string]any
	gets := 0
	for _, l := range lines {
		var obj map[string]any
		if err := json.Unmarshal([]byte(l), &obj); err != nil {
			t.Fatalf("not a JSON object: %q", l)
		}
		if obj["event"] == "get" {
			gets++
		}
		last = obj
	}
	if gets != 2 || last["event"] != "summary" || last["got"] != float64(2) {
		t.Fatalf("gets %d, last %v\n%s", gets, last, out)
	}
	if b, _ := os.ReadFile(filepath.Join(dst, "d", "two.txt")); string(b) != "2\n" {
		t.Fatalf("d/two.txt holds %q", b)
	}
}

// runURLGetOutput runs the urlget binary with args in dir and returns its
// standard output and exit status; standard error goes to the test log.
func runURLGetOutput(t *testing.T, dir string, args ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, urlgetBinary(t), args...)
	cmd.Dir = dir
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if stderr.Len() > 0 {
		t.Logf("stderr: %s", stderr.String())
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return stdout.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return stdout.String(), 0
}

// TestMirrorGopher mirrors the fixture tree from gophernicus (plain
// gopher, its own menus) and pygopherd (Gopher+): binaries byte for byte,
// text as urlget renders it (local line ends). A second run from
// gophernicus fetches every item again (plain menus give no size or time)
// but replaces nothing, so no file's time changes; from pygopherd it
// fetches nothing (each item's Mod-Date, from `$`, is the local file's
// time). An item whose content changed replaces its file.
//
// pygopherd ends its plain menus without the "." line; each is asked
// again the Gopher+ way, whose `+-2` reply is whole at the server's close,
// so its runs succeed and with Delete the stale files go from its menus
// as from gophernicus's (each behind the guard against a listing that
// shrank, which a `+-2` end, like FTP's 226, cannot rule out).
func TestMirrorGopher(t *testing.T) {
	for _, s := range []struct {
		service string
		url     string
		names   bool // the server's selectors keep the names (gophernicus writes #040 for a space)
		plus    bool // Gopher+ with Mod-Dates: incremental by time
	}{
		{testbed.Gophernicus, fmt.Sprintf("gopher://%s/", testbed.Addr(testbed.GophernicusPort)), false, false},
		{testbed.Pygopherd, fmt.Sprintf("gopher://%s/1/fixtures/", testbed.Addr(testbed.PygopherdPort)), true, true},
	} {
		t.Run(s.service, func(t *testing.T) {
			testbed.Require(t, s.service)
			dst := t.TempDir()
			opt := mirror.Options{Exclude: []string{testbed.ScratchDir, "many"}}
			sum, ev, _, err := runMirror(t, "", s.url, dst, opt)
			if err != nil {
				t.Fatalf("%v\n%s", err, ev)
			}
			want := map[string]string{
				"bin/small.bin": string(testbed.SmallBin()), "bin/empty.bin": "", "README.txt": testbed.FixtureFiles["README.txt"],
				"nested/level1/level2/level3/deep.txt": testbed.FixtureFiles["nested/level1/level2/level3/deep.txt"],
				"text/lf.txt":                          testbed.FixtureFiles["text/lf.txt"],
				"text/crlf.txt":                        strings.ReplaceAll(testbed.FixtureFiles["text/crlf.txt"], "\r\n", "\n"),
			}
			if s.names {
				for _, n := range []string{"names/a #b;c.txt", "names/file with space.txt", "names/percent%20literal.txt", "names/café.txt"} {
					want[n] = testbed.FixtureFiles[n]
				}
			}
			for p, content := range want {
				if b, err := os.ReadFile(filepath.Join(dst, filepath.FromSlash(p))); err != nil || string(b) != content {
					t.Errorf("%s: %q (%v), want %q", p, b, err, content)
				}
			}
			if got := hostTree(t, dst)["bin/big-64M.bin"]; got != testbed.BigFileSHA256 {
				t.Errorf("bin/big-64M.bin: SHA-256 %s", got)
			}
			before, err := os.Stat(filepath.Join(dst, "README.txt"))
			if err != nil {
				t.Fatal(err)
			}
			// Local files no menu names, at the top and in a menu below:
			// a second run with Delete removes them only where the menu
			// ended as the protocol says.
			stale := []string{"stale.txt", "text/stale.txt"}
			for _, p := range stale {
				if err := os.WriteFile(filepath.Join(dst, filepath.FromSlash(p)), []byte("local only\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			delOpt := opt
			delOpt.Delete = true
			again, ev, _, err := runMirror(t, "", s.url, dst, delOpt)
			if err != nil {
				t.Fatalf("second run: %v\n%s", err, ev)
			}
			if d := ev.paths(mirror.EventDelete); !slices.Equal(d, stale) || again.Deleted != len(stale) {
				t.Errorf("deleted %q (summary %+v), want %q\n%s", d, again, stale, ev)
			}
			if again.Got != 0 || again.Unchanged != sum.Got {
				t.Errorf("second run: %+v, want all %d unchanged", again, sum.Got)
			}
			if fetched := again.Bytes > 0; fetched == s.plus {
				t.Errorf("second run fetched %d bytes (Gopher+ with times: %v)", again.Bytes, s.plus)
			}
			if s.plus && !before.ModTime().Equal(testbed.FixtureModTime()) {
				t.Errorf("README.txt has the time %v, not the server's Mod-Date %v", before.ModTime(), testbed.FixtureModTime())
			}
			if after, _ := os.Stat(filepath.Join(dst, "README.txt")); !after.ModTime().Equal(before.ModTime()) {
				t.Errorf("an unchanged item got a new time: %v, was %v", after.ModTime(), before.ModTime())
			}
		})
	}
	t.Run("changed item", func(t *testing.T) {
		testbed.Require(t, testbed.Gophernicus)
		host, rel := scratchTree(t, map[string]string{"item.bin": "version 1"})
		src := fmt.Sprintf("gopher://%s/1/%s/", testbed.Addr(testbed.GophernicusPort), rel)
		dst := t.TempDir()
		if _, ev, _, err := runMirror(t, "", src, dst, mirror.Options{}); err != nil {
			t.Fatalf("%v\n%s", err, ev)
		}
		writeScratch(t, host, "item.bin", "version 2", testbed.FixtureModTime())
		sum, ev, _, err := runMirror(t, "", src, dst, mirror.Options{})
		if err != nil || sum.Got != 1 {
			t.Fatalf("err %v, summary %+v\n%s", err, sum, ev)
		}
		if b, _ := os.ReadFile(filepath.Join(dst, "item.bin")); string(b) != "version 2" {
			t.Fatalf("item.bin holds %q", b)
		}
	})
	// Gopher+ (pygopherd): an item whose Mod-Date changed is fetched again
	// and gets the new time; the others are not fetched.
	t.Run("changed Gopher+ item", func(t *testing.T) {
		testbed.Require(t, testbed.Pygopherd)
		host, rel := scratchTree(t, map[string]string{"item.bin": "version 1", "same.bin": "same"})
		src := fmt.Sprintf("gopher://%s/1/fixtures/%s/", testbed.Addr(testbed.PygopherdPort), rel)
		dst := t.TempDir()
		if _, ev, _, err := runMirror(t, "", src, dst, mirror.Options{}); err != nil {
			t.Fatalf("%v\n%s", err, ev)
		}
		mod := time.Date(2025, time.March, 4, 5, 6, 7, 0, time.UTC)
		writeScratch(t, host, "item.bin", "version 2", mod)
		sum, ev, _, err := runMirror(t, "", src, dst, mirror.Options{})
		if err != nil || sum.Got != 1 || sum.Unchanged != 1 || sum.Bytes != int64(len("version 2")) {
			t.Fatalf("%v, summary %+v\n%s", err, sum, ev)
		}
		fi, err := os.Stat(filepath.Join(dst, "item.bin"))
		if b, _ := os.ReadFile(filepath.Join(dst, "item.bin")); err != nil || string(b) != "version 2" || !fi.ModTime().Equal(mod) {
			t.Fatalf("item.bin holds %q, time %v (%v)", b, fi.ModTime(), err)
		}
	})
}

// TestMirrorInterruptedResumes: a transfer cut by the fault-injection
// proxy leaves its work file and no file under the final name; the next
// run continues it (REST) to a tree identical to the server's.
func TestMirrorInterruptedResumes(t *testing.T) {
	c := toxics(t)
	big := strings.Repeat("0123456789abcdef", 256<<10) // 4 MiB
	host, rel := scratchTree(t, map[string]string{"big.bin": big, "small.txt": "small\n"})
	src := toxiURL("ftp", testbed.ToxiFTPHost, testbed.ToxiFTPPort, "/"+rel+"/")
	dst := t.TempDir()
	poison(t, c, ftpDataProxies(), cutAfter(1<<20)...)
	if _, ev, _, err := runMirror(t, "", src, dst, mirror.Options{}); err == nil {
		t.Fatalf("a cut transfer is no error\n%s", ev)
	}
	part, err := os.Stat(filepath.Join(dst, "big.bin"+mirror.WorkSuffix))
	if err != nil || part.Size() == 0 || part.Size() > 1<<20 {
		t.Fatalf("work file: %v, %v", part, err)
	}
	if _, err := os.Stat(filepath.Join(dst, "big.bin")); err == nil {
		t.Fatal("a partial file under its final name")
	}
	cure(t, c)
	_, ev, cmds, err := runMirror(t, testbed.Vsftpd, src, dst, mirror.Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, ev)
	}
	sameTrees(t, hostTree(t, dst, mirror.LockName), hostTree(t, host))
	if count(cmds, "REST") != 1 {
		t.Errorf("the second run did not continue the work file: %q", cmds)
	}
}

// nginxGets is the paths nginx answered a GET for with 200 since offset
// in its access log, index pages (ending in "/") left out.
func nginxGets(t *testing.T, offset int64) []string {
	t.Helper()
	nginxSettled(t)
	b, err := testbed.ReadProtocolLogSince(testbed.Nginx, offset)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		// 127.0.0.1 127.0.0.1:8080 "-" "GET /a/b HTTP/1.1" 200 1234
		f := strings.Split(l, `"`)
		if len(f) < 5 || !strings.HasPrefix(f[3], "GET ") || !strings.HasPrefix(strings.TrimSpace(f[4]), "200 ") {
			continue
		}
		p := strings.Fields(f[3])[1]
		if !strings.HasSuffix(p, "/") {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// nginxBarriers numbers the requests of nginxSettled.
var nginxBarriers atomic.Int64

// nginxSettled returns nginx's log size once every request it had
// answered before the call is in its log. nginx writes a request's line
// after sending the response, so a client can be done with a response
// whose line is not written yet (on a busy machine, long enough for a
// test to take its next log offset before it). nginx runs one worker
// (nginx.conf), which handles requests in turn: once the line of a
// request sent now is in the log, so is every earlier one.
func nginxSettled(t *testing.T) int64 {
	t.Helper()
	path := fmt.Sprintf("/.settled-%d-%d", os.Getpid(), nginxBarriers.Add(1))
	resp, err := http.Get(fmt.Sprintf("http://%s%s", testbed.Addr(testbed.HTTPPort), path))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	await.Until(t, "nginx logging "+path, func() bool {
		b, err := testbed.ReadProtocolLog(testbed.Nginx)
		if err != nil {
			t.Fatal(err)
		}
		return bytes.Contains(b, []byte(" "+path+" "))
	})
	return testbed.LogSize(testbed.Nginx)
}

// TestMirrorHTTP mirrors nginx's autoindex of the fixture tree byte for
// byte; a second run asks nginx for no file (no 200 for a file in its
// log: the index pages' sizes and times say nothing changed); after a
// change only the changed and the new file are fetched, and a removed one
// goes with Delete. The pages themselves are left out here
// (NoIndexPages): TestMirrorHTTPPages has them.
func TestMirrorHTTP(t *testing.T) {
	testbed.Require(t, testbed.Nginx)
	// site/ has an index.html, which nginx serves for the directory
	// instead of an index; outside-link is a link to a host file.
	skip := []string{testbed.ScratchDir, "site", testbed.OutsideLink}
	want := hostTree(t, testbed.FixtureDir(), skip...)
	src := fmt.Sprintf("http://%s/", testbed.Addr(testbed.HTTPPort))
	dst := t.TempDir()
	opt := mirror.Options{Parallel: 8, Exclude: skip, NoIndexPages: true}
	sum, ev, _, err := runMirror(t, "", src, dst, opt)
	if err != nil {
		t.Fatalf("%v\n%s", err, ev)
	}
	sameTrees(t, hostTree(t, dst, mirror.LockName), want)
	if sum.Got != len(want) {
		t.Errorf("summary %+v, want %d fetched", sum, len(want))
	}
	off := nginxSettled(t)
	sum, ev, _, err = runMirror(t, "", src, dst, opt)
	if err != nil {
		t.Fatalf("second run: %v\n%s", err, ev)
	}
	if gets := nginxGets(t, off); len(gets) != 0 || sum.Got != 0 || sum.Unchanged != len(want) {
		t.Errorf("second run: GET %d files (%q...), summary %+v", len(gets), gets[:min(3, len(gets))], sum)
	}

	t.Run("changes", func(t *testing.T) {
		host, rel := scratchTree(t, map[string]string{"a.txt": "a\n", "sub/b.txt": "b\n", "sub/gone.txt": "gone\n", "zero": ""})
		src := fmt.Sprintf("http://%s/%s/", testbed.Addr(testbed.HTTPPort), rel)
		dst := t.TempDir()
		if _, ev, _, err := runMirror(t, "", src, dst, mirror.Options{NoIndexPages: true}); err != nil {
			t.Fatalf("%v\n%s", err, ev)
		}
		writeScratch(t, host, "sub/b.txt", "b, changed\n", testbed.FixtureModTime().Add(time.Hour))
		writeScratch(t, host, "new.txt", "new\n", testbed.FixtureModTime())
		os.Remove(filepath.Join(host, "sub/gone.txt"))
		off := nginxSettled(t)
		sum, ev, _, err := runMirror(t, "", src, dst, mirror.Options{Delete: true, NoIndexPages: true})
		if err != nil {
			t.Fatalf("%v\n%s", err, ev)
		}
		wantGets := []string{"/" + rel + "/new.txt", "/" + rel + "/sub/b.txt"}
		if gets := nginxGets(t, off); !slices.Equal(gets, wantGets) {
			t.Errorf("GET %q, want %q\n%s", gets, wantGets, ev)
		}
		if sum.Deleted != 1 {
			t.Errorf("deleted %q", ev.paths(mirror.EventDelete))
		}
		sameTrees(t, hostTree(t, dst, mirror.LockName), hostTree(t, host))
	})
}

// TestMirrorHTTPConditional: under a hand-made index page that shows no
// sizes or times (nginx serves a directory's index.html instead of its
// autoindex), a second run asks with If-Modified-Since and nginx answers
// 304 for every file (no 200 in its log); a changed file is fetched again.
// (The pages are left out: TestMirrorHTTPPages has them.)
func TestMirrorHTTPConditional(t *testing.T) {
	testbed.Require(t, testbed.Nginx)
	host, rel := scratchTree(t, map[string]string{
		"index.html": `<ul><li><a href="a.txt">a</a><li><a href="sub/">sub</a></ul>`,
		"a.txt":      "a\n", "sub/b.txt": "b\n",
	})
	src := fmt.Sprintf("http://%s/%s/", testbed.Addr(testbed.HTTPPort), rel)
	dst := t.TempDir()
	opt := mirror.Options{NoIndexPages: true}
	sum, ev, _, err := runMirror(t, "", src, dst, opt)
	if err != nil || sum.Got != 2 {
		t.Fatalf("err %v, summary %+v\n%s", err, sum, ev)
	}
	off := nginxSettled(t)
	sum, ev, _, err = runMirror(t, "", src, dst, opt)
	if err != nil || sum.Got != 0 || sum.Unchanged != 2 {
		t.Fatalf("second run: err %v, summary %+v\n%s", err, sum, ev)
	}
	if gets := nginxGets(t, off); len(gets) != 0 {
		t.Errorf("second run: 200 for %q", gets)
	}
	writeScratch(t, host, "a.txt", "a, changed\n", time.Now().Add(time.Minute))
	if sum, ev, _, err = runMirror(t, "", src, dst, opt); err != nil || sum.Got != 1 {
		t.Fatalf("after a change: err %v, summary %+v\n%s", err, sum, ev)
	}
	if b, _ := os.ReadFile(filepath.Join(dst, "a.txt")); string(b) != "a, changed\n" {
		t.Fatalf("a.txt holds %q", b)
	}
}

// TestMirrorFTPDotfiles: names starting with "." are mirrored from vsftpd,
// which hides them from a plain LIST (urlget sends "LIST -a"), and from
// proftpd's MLSD. (pure-ftpd's MLSD leaves them out, and takes no option.)
func TestMirrorFTPDotfiles(t *testing.T) {
	for _, s := range ftpServers[:2] {
		t.Run(s.service, func(t *testing.T) {
			testbed.Require(t, s.service)
			_, rel := scratchTree(t, map[string]string{".hidden": "h\n", "visible": "v\n", ".dir/inside": "i\n"})
			dst := t.TempDir()
			src := fmt.Sprintf("ftp://%s/%s/", testbed.Addr(s.port), rel)
			if _, ev, _, err := runMirror(t, "", src, dst, mirror.Options{}); err != nil {
				t.Fatalf("%v\n%s", err, ev)
			}
			if got := keysOf(hostTree(t, dst, mirror.LockName)); got != ".dir/inside .hidden visible" {
				t.Errorf("mirrored %s", got)
			}
		})
	}
}

// keysOf is m's keys, sorted, space-separated.
func keysOf(m map[string]string) string {
	var k []string
	for p := range m {
		k = append(k, p)
	}
	slices.Sort(k)
	return strings.Join(k, " ")
}

// TestMirrorNews mirrors a news group from INN: one file per article,
// named by its number, holding the article as urlget renders it (the
// same bytes as a plain fetch), with the article's Date as its time; a
// second run fetches nothing.
func TestMirrorNews(t *testing.T) {
	testbed.Require(t, testbed.INN)
	src := fmt.Sprintf("nntp://%s/%s", testbed.Addr(testbed.NNTPPort), testbed.GroupTest)
	dst := t.TempDir()
	sum, ev, _, err := runMirror(t, "", src, dst, mirror.Options{})
	if err != nil || sum.Got != 3 {
		t.Fatalf("err %v, summary %+v\n%s", err, sum, ev)
	}
	c := mirrorClient(io.Discard)
	lr, err := c.List(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	ents, err := schemes.ReadAll(lr.Listing)
	if err != nil || len(ents) != 3 {
		t.Fatalf("%d entries, %v", len(ents), err)
	}
	for _, e := range ents {
		if fi, err := os.Stat(filepath.Join(dst, e.Name)); err != nil || e.ModTime.IsZero() || !fi.ModTime().Equal(e.ModTime) {
			t.Errorf("article %s: time %v, want its Date %v (%v)", e.Name, fi.ModTime(), e.ModTime, err)
		}
	}
	for _, n := range []string{"1", "2", "3"} {
		resp, err := c.Get(context.Background(), src+"/"+n)
		if err != nil {
			t.Fatal(err)
		}
		want, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dst, n))
		if err != nil || string(got) != string(want) {
			t.Errorf("article %s: %q (%v), want %q", n, got, err, want)
		}
	}
	again, ev, _, err := runMirror(t, "", src, dst, mirror.Options{})
	if err != nil || again.Got != 0 || again.Unchanged != 3 || again.Bytes != 0 {
		t.Fatalf("second run: err %v, summary %+v\n%s", err, again, ev)
	}
}
