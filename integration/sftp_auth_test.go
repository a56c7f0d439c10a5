//go:build integration

package integration

import (
	"crypto/ed25519"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/transport/sshagenttest"
)

// sftpAgent starts an SSH agent holding keys (sshagenttest.Serve) and
// returns its socket's path.
func sftpAgent(t *testing.T, keys ...any) string {
	t.Helper()
	return sshagenttest.Serve(t, keys...).Path
}

// bobKey is the sftp service's key user's private key.
func bobKey(t *testing.T) (any, []byte) {
	t.Helper()
	pem, err := os.ReadFile(testbed.SFTPKeyFile())
	if err != nil {
		t.Fatal(err)
	}
	k, err := ssh.ParseRawPrivateKey(pem)
	if err != nil {
		t.Fatal(err)
	}
	return k, pem
}

// sftpRunAs runs urlget in a fresh directory with home as its home
// directory and agentSock as its agent ("" for none).
func sftpRunAs(t *testing.T, home, agentSock string, args ...string) (runResult, string) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("SSH_AUTH_SOCK", agentSock)
	return runURLGet(t, dir, args...), dir
}

// sftpWantOut fails t unless r succeeded and dir/out is the fixture p,
// byte for byte.
func sftpWantOut(t *testing.T, r runResult, dir, p string) {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	want, wantN := fileSHA256(t, filepath.Join(testbed.FixtureDir(), p))
	if sum, n := fileSHA256(t, filepath.Join(dir, "out")); sum != want || n != wantN {
		t.Fatalf("got %d bytes (%s), want %d (%s)", n, sum, wantN, want)
	}
}

// TestSFTPAgentAndDefaultKey: bob, who logs in by key alone, logs in
// with his key held by an SSH agent, and with his key as the default
// ~/.ssh/id_ed25519, with no --key either time; the file arrives byte
// for byte. An agent whose key the server refuses, and no password,
// is an auth refusal (exit 4).
func TestSFTPAgentAndDefaultKey(t *testing.T) {
	testbed.Require(t, testbed.SFTP)
	kh := sftpKnownHosts(t, sftpHostKey(t))
	const p = "bin/small.bin"
	u := fmt.Sprintf("sftp://%s@%s/srv/fixtures/%s", testbed.SFTPKeyUser, testbed.Addr(testbed.SFTPPort), escapePath(p))
	key, pem := bobKey(t)

	t.Run("agent", func(t *testing.T) {
		r, dir := sftpRunAs(t, t.TempDir(), sftpAgent(t, key), "-v", "--known-hosts", kh, "-o", "out", u)
		sftpWantOut(t, r, dir, p)
		if !strings.Contains(r.stderr, "the SSH agent offers 1 key") {
			t.Errorf("the trace does not show the agent's key:\n%s", r.stderr)
		}
	})

	t.Run("default identity file", func(t *testing.T) {
		home := t.TempDir()
		if err := os.Mkdir(filepath.Join(home, ".ssh"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(home, ".ssh", "id_ed25519"), pem, 0o600); err != nil {
			t.Fatal(err)
		}
		r, dir := sftpRunAs(t, home, "", "-v", "--known-hosts", kh, "-o", "out", u)
		sftpWantOut(t, r, dir, p)
		if !strings.Contains(r.stderr, "no SSH agent: SSH_AUTH_SOCK is not set") {
			t.Errorf("the trace does not say there is no agent:\n%s", r.stderr)
		}
	})

	t.Run("agent without a usable key", func(t *testing.T) {
		_, other, err := ed25519.GenerateKey(nil)
		if err != nil {
			t.Fatal(err)
		}
		r, _ := sftpRunAs(t, t.TempDir(), sftpAgent(t, other), "--known-hosts", kh, u)
		if r.code != 4 || !strings.Contains(r.stderr, `"`+testbed.SFTPKeyUser+`"`) ||
			!strings.Contains(r.stderr, "accepted none of the 1 key offered") {
			t.Errorf("exit %d, %s; want 4, an auth refusal naming %s and the key it refused", r.code, r.stderr, testbed.SFTPKeyUser)
		}
	})
}

// TestSFTPRequireTLS: --ssl-reqd does not refuse sftp (SSH encrypts and
// the host key authenticates the server), and the file arrives byte for
// byte, while a clear-text scheme is still refused (exit 7).
func TestSFTPRequireTLS(t *testing.T) {
	testbed.Require(t, testbed.SFTP)
	kh := sftpKnownHosts(t, sftpHostKey(t))
	r, dir := sftpRun(t, "--ssl-reqd", "--known-hosts", kh, "-o", "out", sftpURL("README.txt"))
	sftpWantOut(t, r, dir, "README.txt")
	if r, _ := sftpRun(t, "--ssl-reqd", "http://127.0.0.1:1/x"); r.code != 7 || !strings.Contains(r.stderr, "sftp") {
		t.Errorf("--ssl-reqd http: exit %d, %s; want 7 naming sftp among the schemes that can", r.code, r.stderr)
	}
}
