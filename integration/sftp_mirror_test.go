//go:build integration

package integration

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/mirror"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// sftpClient makes Clients as the urlget command does, with the known
// hosts file kh, for runMirrorWith.
func sftpClient(kh string) func(io.Writer) *fetch.Client {
	return func(trace io.Writer) *fetch.Client {
		return &fetch.Client{
			Registry: mustRegistry(fetch.Config{Options: schemes.Options{"known-hosts": kh}}),
			Dialer:   &transport.Dialer{ConnectTimeout: 10 * time.Second, IdleTimeout: 30 * time.Second},
			Trace:    transport.NewTrace(trace),
		}
	}
}

// TestSFTPMirrorTree mirrors sshd's fixture tree (the 64 MiB file and the
// 2000 files of many/ among it) byte for byte, with the remote times to
// the second; a second run fetches nothing.
func TestSFTPMirrorTree(t *testing.T) {
	testbed.Require(t, testbed.SFTP)
	t.Setenv("SSH_AUTH_SOCK", "")
	want := hostTree(t, testbed.FixtureDir(), testbed.ScratchDir)
	newClient := sftpClient(sftpKnownHosts(t, sftpHostKey(t)))
	dst := t.TempDir()
	// outside-link points at /etc/hostname, which is the container's
	// file over sftp (links are followed), not the host's.
	opt := mirror.Options{Parallel: 8, Exclude: []string{testbed.ScratchDir, "outside-link"}}
	sum, ev, _, err := runMirrorWith(t, newClient, "", sftpURL(""), dst, opt)
	if err != nil {
		t.Fatalf("%v\n%s", err, ev)
	}
	sameTrees(t, hostTree(t, dst, mirror.LockName), want)
	if sum.Got != len(want) || sum.Errors != 0 {
		t.Errorf("summary %+v, want %d files fetched", sum, len(want))
	}
	st, err := os.Stat(filepath.Join(dst, "README.txt"))
	if err != nil || !st.ModTime().Equal(testbed.FixtureModTime()) {
		t.Errorf("README.txt time %v, want the server's %v (%v)", st.ModTime(), testbed.FixtureModTime(), err)
	}
	sum, ev, _, err = runMirrorWith(t, newClient, "", sftpURL(""), dst, opt)
	if err != nil {
		t.Fatalf("second run: %v\n%s", err, ev)
	}
	if got := ev.paths(mirror.EventGet); sum.Got != 0 || len(got) != 0 || sum.Unchanged != len(want) {
		t.Errorf("second run: summary %+v, fetched %v; want none and %d unchanged", sum, got, len(want))
	}
}

// mirrorJSON runs `urlget mirror --json` with args and returns its get
// events' paths and its summary line.
func mirrorJSON(t *testing.T, dir string, args ...string) ([]string, mirror.Summary) {
	t.Helper()
	out, code := runURLGetOutput(t, dir, append([]string{"mirror", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	var gets []string
	var sum mirror.Summary
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for i, l := range lines {
		var ev struct {
			Event string `json:"event"`
			Path  string `json:"path"`
		}
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatalf("not a JSON object: %q", l)
		}
		switch {
		case ev.Event == "get":
			gets = append(gets, ev.Path)
		case ev.Event == "summary" && i == len(lines)-1:
			if err := json.Unmarshal([]byte(l), &sum); err != nil {
				t.Fatal(err)
			}
		}
	}
	if strings.Contains(out, testbed.AlicePassword) {
		t.Errorf("the password is in the output:\n%s", out)
	}
	return gets, sum
}

// TestSFTPMirrorCommand runs `urlget mirror --json` on a scratch tree over
// sftp: every file fetched byte for byte, then a second run fetches
// none (its events and summary say so).
func TestSFTPMirrorCommand(t *testing.T) {
	testbed.Require(t, testbed.SFTP)
	t.Setenv("HOME", t.TempDir())
	t.Setenv("SSH_AUTH_SOCK", "")
	files := map[string]string{"one.txt": "1\n", "d/two.txt": "2\n", "d/e/three.txt": strings.Repeat("3", 70000)}
	host, rel := scratchTree(t, files)
	kh := sftpKnownHosts(t, sftpHostKey(t))
	work := t.TempDir()
	dst := filepath.Join(work, "dst")
	gets, sum := mirrorJSON(t, work, "--known-hosts", kh, "-P", "2", sftpURL(rel+"/"), dst)
	if len(gets) != len(files) || sum.Got != len(files) {
		t.Fatalf("first run: gets %v, summary %+v; want %d", gets, sum, len(files))
	}
	sameTrees(t, hostTree(t, dst, mirror.LockName), hostTree(t, host))
	gets, sum = mirrorJSON(t, work, "--known-hosts", kh, "-P", "2", sftpURL(rel+"/"), dst)
	if len(gets) != 0 || sum.Got != 0 || sum.Unchanged != len(files) {
		t.Fatalf("second run: gets %v, summary %+v; want none and %d unchanged", gets, sum, len(files))
	}
}

// TestSFTPMirrorDeleteSafe: with Delete, a stale local file goes where
// the remote listing was read whole (the top directory), and nothing
// goes in a directory whose listing failed — one alice may not read
// (mode 000) — though its local copy holds a file the remote lacks; the
// run fails and its summary says why deletions were held.
func TestSFTPMirrorDeleteSafe(t *testing.T) {
	testbed.Require(t, testbed.SFTP)
	t.Setenv("SSH_AUTH_SOCK", "")
	host, rel := scratchTree(t, map[string]string{"top.txt": "t\n", "open/a.txt": "a\n", "locked/b.txt": "b\n"})
	newClient := sftpClient(sftpKnownHosts(t, sftpHostKey(t)))
	src, dst := sftpURL(rel+"/"), t.TempDir()
	if _, ev, _, err := runMirrorWith(t, newClient, "", src, dst, mirror.Options{}); err != nil {
		t.Fatalf("%v\n%s", err, ev)
	}
	for _, p := range []string{"stale.txt", "locked/stale.txt"} {
		if err := os.WriteFile(filepath.Join(dst, p), []byte("local only"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	locked := filepath.Join(host, "locked")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	sum, ev, _, err := runMirrorWith(t, newClient, "", src, dst, mirror.Options{Delete: true})
	if err == nil {
		t.Errorf("a directory that could not be listed is no error\n%s", ev)
	}
	if got := ev.paths(mirror.EventDelete); sum.Deleted != 1 || len(got) != 1 || got[0] != "stale.txt" {
		t.Errorf("deleted %v (summary %+v), want stale.txt only\n%s", got, sum, ev)
	}
	for _, p := range []string{"locked/stale.txt", "locked/b.txt", "open/a.txt", "top.txt"} {
		if _, err := os.Stat(filepath.Join(dst, p)); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	if !strings.Contains(sum.NoDelete, "listing failed") {
		t.Errorf("summary's NoDelete %q does not say a listing failed", sum.NoDelete)
	}
}

// TestSFTPMirrorCutListingDeletesNothing: the SSH connection cut by
// toxiproxy in the middle of a directory's listing (SSH_FXP_READDIR
// replies) fails the run and deletes nothing, though Delete was asked
// and the local copy holds a file the cut listing does not name.
func TestSFTPMirrorCutListingDeletesNothing(t *testing.T) {
	c := sftpProxy(t)
	t.Setenv("SSH_AUTH_SOCK", "")
	files := map[string]string{}
	for i := range 300 {
		files[fmt.Sprintf("a-rather-long-file-name-to-fill-the-listing-%03d.txt", i)] = "x\n"
	}
	_, rel := scratchTree(t, files)
	newClient := sftpClient(sftpKnownHostsAt(t, sftpHostKey(t), testbed.ToxiSFTPPort))
	src, dst := sftpURLAt(testbed.ToxiSFTPPort, rel+"/"), t.TempDir()
	if _, ev, _, err := runMirrorWith(t, newClient, "", src, dst, mirror.Options{Parallel: 4}); err != nil {
		t.Fatalf("%v\n%s", err, ev)
	}
	stale := filepath.Join(dst, "stale.txt")
	if err := os.WriteFile(stale, []byte("local only"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The handshake, login and start of sftp take a few KB from the
	// server; the listing, two names and attributes an entry, about
	// 60 KB: cut in its middle.
	poison(t, c, []string{testbed.ToxiSFTP}, cutAfter(24<<10)...)
	sum, ev, _, err := runMirrorWith(t, newClient, "", src, dst, mirror.Options{Delete: true})
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

// TestSFTPMirrorMaxEntries: many/ (2000 files) mirrored with MaxEntries
// 100: the listing is abandoned at the bound (an sftp listing is read
// whole first, see schemes/sftp's listDir, but the mirror takes no more
// of it), at most 100 files are fetched, nothing is deleted, and the run
// fails naming the bound.
func TestSFTPMirrorMaxEntries(t *testing.T) {
	testbed.Require(t, testbed.SFTP)
	t.Setenv("SSH_AUTH_SOCK", "")
	newClient := sftpClient(sftpKnownHosts(t, sftpHostKey(t)))
	dst := t.TempDir()
	stale := filepath.Join(dst, "stale.txt")
	if err := os.WriteFile(stale, []byte("local only"), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, ev, _, err := runMirrorWith(t, newClient, "", sftpURL("many/"), dst, mirror.Options{MaxEntries: 100, Delete: true, Parallel: 4})
	if schemes.KindOf(err) != schemes.KindSafety {
		t.Errorf("err = %v, want the bound's KindSafety", err)
	}
	if n := len(ev.paths(mirror.EventGet)); n == 0 || n > 100 || sum.Got != n {
		t.Errorf("%d files fetched (summary %+v), want 1 to 100", n, sum)
	}
	if len(sum.Bounds) != 1 || sum.Bounds[0].Name != mirror.BoundEntries || sum.Bounds[0].Limit != 100 {
		t.Errorf("bounds %+v, want the entries bound at 100", sum.Bounds)
	}
	if _, err := os.Stat(stale); err != nil || sum.Deleted != 0 {
		t.Errorf("deleted under an abandoned listing (summary %+v): %v", sum, err)
	}
}
