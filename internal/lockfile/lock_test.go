package lockfile

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestLockExcludes: a second open file description cannot take the lock
// while the first holds it, and can once it is closed.
func TestLockExcludes(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no flock(2) here")
	}
	name := filepath.Join(t.TempDir(), "lock")
	a, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := Lock(a); err != nil {
		t.Fatal(err)
	}
	b, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := Lock(b); !errors.Is(err, ErrLocked) {
		t.Fatalf("second lock: %v, want ErrLocked", err)
	}
	a.Close()
	if err := Lock(b); err != nil {
		t.Fatalf("after the holder closed: %v", err)
	}
}
