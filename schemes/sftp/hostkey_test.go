package sftp

import (
	"crypto/ed25519"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/urlget/urlget/schemes"
)

func newKey(t *testing.T) ssh.PublicKey {
	t.Helper()
	pub, _, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	pk, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return pk
}

// check runs the host key check of a fresh hostKeys on key.
func check(t *testing.T, file string, acceptNew bool, address string, key ssh.PublicKey) error {
	t.Helper()
	hk := &hostKeys{file: file, acceptNew: acceptNew, scheme: "sftp", trace: schemes.NopTrace{}}
	cb, _, err := hk.callback(address)
	if err != nil {
		t.Fatal(err)
	}
	return cb(address, fakeAddr(address), key)
}

// TestHostKeys: an unknown key is refused with its fingerprint and the
// way to accept it; accepted, it is appended and then passes; a changed
// key is refused even with accept-new, and the file keeps the old one.
func TestHostKeys(t *testing.T) {
	file := filepath.Join(t.TempDir(), "ssh", "known_hosts")
	addr := "127.0.0.1:2222"
	key := newKey(t)
	err := check(t, file, false, addr, key)
	if schemes.KindOf(err) != schemes.KindSafety || !strings.Contains(err.Error(), ssh.FingerprintSHA256(key)) ||
		!strings.Contains(err.Error(), "ssh-accept-new") {
		t.Fatalf("unknown key: %v, want KindSafety with the fingerprint and the option", err)
	}
	if _, err := os.Stat(file); err == nil {
		t.Fatal("a refused key was written to the file")
	}
	if err := check(t, file, true, addr, key); err != nil {
		t.Fatalf("accept-new: %v", err)
	}
	data, _ := os.ReadFile(file)
	if !strings.HasPrefix(string(data), "[127.0.0.1]:2222 ssh-ed25519 ") {
		t.Fatalf("known_hosts after accept-new: %q", data)
	}
	if err := check(t, file, false, addr, key); err != nil {
		t.Fatalf("known key: %v", err)
	}
	if err := check(t, file, true, addr, key); err != nil {
		t.Fatalf("known key, accept-new: %v", err)
	}
	if again, _ := os.ReadFile(file); string(again) != string(data) {
		t.Fatalf("a known key was appended again: %q", again)
	}
	other := newKey(t)
	for _, accept := range []bool{false, true} {
		err := check(t, file, accept, addr, other)
		if schemes.KindOf(err) != schemes.KindSafety || !strings.Contains(err.Error(), "CHANGED") ||
			!strings.Contains(err.Error(), ssh.FingerprintSHA256(other)) {
			t.Fatalf("changed key (accept-new %v): %v, want KindSafety naming the change", accept, err)
		}
	}
	if again, _ := os.ReadFile(file); string(again) != string(data) {
		t.Fatalf("a changed key was written: %q", again)
	}
	// Another port of the same host is another host.
	if err := check(t, file, false, "127.0.0.1:22", key); schemes.KindOf(err) != schemes.KindSafety {
		t.Fatalf("other port: %v, want unknown", err)
	}
}
