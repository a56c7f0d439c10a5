//go:build integration

package integration

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/integration/conformance"
	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/schemes"
)

// sftpHostKey is the sftp service's public host key.
func sftpHostKey(t *testing.T) ssh.PublicKey {
	t.Helper()
	b, err := os.ReadFile(testbed.SFTPHostKeyFile())
	if err != nil {
		t.Fatal(err)
	}
	k, _, _, _, err := ssh.ParseAuthorizedKey(b)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// sftpKnownHosts writes a known hosts file that names key for the sftp
// service (OpenSSH's form for a port other than 22).
func sftpKnownHosts(t *testing.T, key ssh.PublicKey) string {
	t.Helper()
	return sftpKnownHostsAt(t, key, testbed.SFTPPort)
}

// sftpKnownHostsAt is sftpKnownHosts for the sftp service reached at
// port, as through toxiproxy (testbed.ToxiSFTPPort): OpenSSH's known
// hosts name a host by its port too.
func sftpKnownHostsAt(t *testing.T, key ssh.PublicKey, port int) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "known_hosts")
	line := fmt.Sprintf("[127.0.0.1]:%d %s", port, ssh.MarshalAuthorizedKey(key))
	if err := os.WriteFile(f, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

// sftpURL is the URL of the fixture at p, logged in as alice: the
// fixture tree is mounted at /srv/fixtures.
func sftpURL(p string) string {
	return sftpURLAt(testbed.SFTPPort, p)
}

// sftpURLAt is sftpURL at port, as through toxiproxy.
func sftpURLAt(port int, p string) string {
	return fmt.Sprintf("sftp://%s:%s@%s/srv/fixtures/%s", testbed.AliceUser, testbed.AlicePassword,
		testbed.Addr(port), escapePath(p))
}

// TestConformanceSFTP runs the suite against OpenSSH's sftp-server.
func TestConformanceSFTP(t *testing.T) {
	testbed.Require(t, testbed.SFTP)
	conformance.Run(t, conformance.Target{
		Name:      "openssh-sftp",
		URL:       sftpURL,
		SecretURL: sftpURL,
		Secret:    testbed.AlicePassword,
		Options:   schemes.Options{"known-hosts": sftpKnownHosts(t, sftpHostKey(t))},
	})
}

// sftpRun runs urlget in a fresh directory with a home of its own (no
// known hosts, no agent, no terminal), returning the directory.
func sftpRun(t *testing.T, args ...string) (runResult, string) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("SSH_AUTH_SOCK", "")
	return runURLGet(t, dir, args...), dir
}

// TestSFTPByteExact fetches fixtures, the 64 MiB file among them, as alice
// (password) and bob (key), and compares them byte for byte.
func TestSFTPByteExact(t *testing.T) {
	testbed.Require(t, testbed.SFTP)
	kh := sftpKnownHosts(t, sftpHostKey(t))
	for _, p := range []string{"README.txt", "bin/small.bin", "bin/empty.bin", testbed.BigFile} {
		want, wantN := fileSHA256(t, filepath.Join(testbed.FixtureDir(), p))
		for _, login := range []struct {
			name string
			url  string
			args []string
		}{
			{"password", sftpURL(p), nil},
			{"key", fmt.Sprintf("sftp://%s@%s/srv/fixtures/%s", testbed.SFTPKeyUser, testbed.Addr(testbed.SFTPPort),
				escapePath(p)), []string{"--key", testbed.SFTPKeyFile()}},
		} {
			t.Run(p+"/"+login.name, func(t *testing.T) {
				args := append([]string{"--known-hosts", kh, "-o", "out"}, login.args...)
				r, dir := sftpRun(t, append(args, login.url)...)
				if r.code != 0 {
					t.Fatalf("exit %d: %s", r.code, r.stderr)
				}
				if sum, n := fileSHA256(t, filepath.Join(dir, "out")); sum != want || n != wantN {
					t.Fatalf("got %d bytes (%s), want %d (%s)", n, sum, wantN, want)
				}
			})
		}
	}
}

// TestSFTPResume continues a copy cut after 10 MiB with -C -: only the
// rest is read (the trace says from which byte), and the result is the
// file.
func TestSFTPResume(t *testing.T) {
	testbed.Require(t, testbed.SFTP)
	kh := sftpKnownHosts(t, sftpHostKey(t))
	src := filepath.Join(testbed.FixtureDir(), testbed.BigFile)
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	const cut = 10 << 20
	if err := os.WriteFile(filepath.Join(dir, "big.bin"), data[:cut], 0o644); err != nil {
		t.Fatal(err)
	}
	r := runURLGet(t, dir, "--known-hosts", kh, "-v", "-C", "-", "-o", "big.bin", sftpURL(testbed.BigFile))
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, fmt.Sprintf("from byte %d", cut)) {
		t.Errorf("the trace does not show a read from byte %d:\n%s", cut, r.stderr)
	}
	want, _ := fileSHA256(t, src)
	if sum, n := fileSHA256(t, filepath.Join(dir, "big.bin")); sum != want {
		t.Fatalf("resumed copy: %d bytes, %s, want %s", n, sum, want)
	}
	if strings.Contains(r.stderr, testbed.AlicePassword) {
		t.Errorf("the password is in the trace:\n%s", r.stderr)
	}
}

// TestSFTPListStat lists the fixture root (kinds, sizes, times, modes)
// and describes a file and a directory, on one SSH connection.
func TestSFTPListStat(t *testing.T) {
	testbed.Require(t, testbed.SFTP)
	r, err := fetch.NewRegistry(fetch.Config{Options: schemes.Options{"known-hosts": sftpKnownHosts(t, sftpHostKey(t))}})
	if err != nil {
		t.Fatal(err)
	}
	d := conformance.NewCountingDialer()
	c := &fetch.Client{Registry: r, Dialer: d}
	defer c.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	resp, err := c.List(ctx, sftpURL("bin/"))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := schemes.ReadAll(resp.Listing)
	resp.Close()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]schemes.Entry{}
	for _, e := range entries {
		got[e.Name] = e
	}
	e, ok := got["small.bin"]
	if !ok || e.Kind != schemes.EntryFile || e.Size != 256 || !e.ModTime.Equal(testbed.FixtureModTime()) {
		t.Errorf("small.bin: %+v (all: %v)", e, entries)
	}
	if m, _ := e.Extra.Get("mode"); !strings.HasPrefix(m, "-rw") {
		t.Errorf("small.bin mode %q", m)
	}
	st, err := c.Stat(ctx, sftpURL(testbed.BigFile))
	if err != nil || st.Kind != schemes.EntryFile || st.Size != testbed.BigFileSize {
		t.Errorf("stat %s: %+v, %v", testbed.BigFile, st, err)
	}
	st, err = c.Stat(ctx, sftpURL("bin"))
	if err != nil || st.Kind != schemes.EntryDir {
		t.Errorf("stat bin: %+v, %v", st, err)
	}
	_, err = c.Stat(ctx, sftpURL("no-such-file"))
	if schemes.KindOf(err) != schemes.KindNotFound || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("stat of a missing file: %v, want KindNotFound and fs.ErrNotExist", err)
	}
	if n := d.Dials.Load(); n != 1 {
		t.Errorf("%d SSH connections for a listing and four stats, want 1", n)
	}
}

// TestSFTPHostKeys: an unknown key is refused with its fingerprint and
// the option that accepts it; --ssh-accept-new accepts it and writes it
// down; a changed key is refused, with or without the option.
func TestSFTPHostKeys(t *testing.T) {
	testbed.Require(t, testbed.SFTP)
	key := sftpHostKey(t)
	fp := ssh.FingerprintSHA256(key)
	kh := filepath.Join(t.TempDir(), "known_hosts")
	u := sftpURL("README.txt")
	r, _ := sftpRun(t, "--known-hosts", kh, u)
	if r.code != 7 || !strings.Contains(r.stderr, fp) || !strings.Contains(r.stderr, "--ssh-accept-new") {
		t.Fatalf("unknown key: exit %d, %s; want 7 with %s and --ssh-accept-new", r.code, r.stderr, fp)
	}
	if _, err := os.Stat(kh); err == nil {
		t.Fatal("a refused key was written down")
	}
	r, dir := sftpRun(t, "--known-hosts", kh, "--ssh-accept-new", "-o", "out", u)
	if r.code != 0 {
		t.Fatalf("accept-new: exit %d: %s", r.code, r.stderr)
	}
	b, _ := os.ReadFile(kh)
	if !strings.HasPrefix(string(b), fmt.Sprintf("[127.0.0.1]:%d %s", testbed.SFTPPort, key.Type())) {
		t.Fatalf("known hosts after accept-new: %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	if r, _ := sftpRun(t, "--known-hosts", kh, "-o", "out", u); r.code != 0 {
		t.Fatalf("accepted key: exit %d: %s", r.code, r.stderr)
	}
	pub, _, _ := ed25519.GenerateKey(nil)
	other, _ := ssh.NewPublicKey(pub)
	changed := sftpKnownHosts(t, other)
	for _, args := range [][]string{{u}, {"--ssh-accept-new", u}} {
		r, _ := sftpRun(t, append([]string{"--known-hosts", changed}, args...)...)
		if r.code != 7 || !strings.Contains(r.stderr, "CHANGED") || !strings.Contains(r.stderr, fp) {
			t.Errorf("changed key %v: exit %d, %s; want 7 naming the change", args, r.code, r.stderr)
		}
	}
}

// TestSFTPAuth: a wrong password and a key user without the key are
// refused (exit 4) and the password is never shown.
func TestSFTPAuth(t *testing.T) {
	testbed.Require(t, testbed.SFTP)
	kh := sftpKnownHosts(t, sftpHostKey(t))
	wrong := fmt.Sprintf("sftp://%s:wrong-pw-42@%s/srv/fixtures/README.txt", testbed.AliceUser, testbed.Addr(testbed.SFTPPort))
	r, _ := sftpRun(t, "--known-hosts", kh, wrong)
	if r.code != 4 || strings.Contains(r.stderr, "wrong-pw-42") {
		t.Errorf("wrong password: exit %d, %s; want 4 without the password", r.code, r.stderr)
	}
	nokey := fmt.Sprintf("sftp://%s@%s/srv/fixtures/README.txt", testbed.SFTPKeyUser, testbed.Addr(testbed.SFTPPort))
	if r, _ := sftpRun(t, "--known-hosts", kh, nokey); r.code != 4 {
		t.Errorf("key user without a key: exit %d, %s; want 4", r.code, r.stderr)
	}
	if r, _ := sftpRun(t, "--known-hosts", kh, "-u", testbed.AliceUser+":"+testbed.AlicePassword, "-o", "out",
		fmt.Sprintf("sftp://%s/srv/fixtures/README.txt", testbed.Addr(testbed.SFTPPort))); r.code != 0 {
		t.Errorf("-u login: exit %d, %s", r.code, r.stderr)
	}
}
