package lockfile

import (
	"errors"
	"io/fs"
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

// TestNamedLocksTheFileNamed: a file that lost its name between the open
// and the lock (the run that held it removed it as it ended) guards
// nothing; Named opens again and locks the file the name leads to.
func TestNamedLocksTheFileNamed(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no flock(2) here")
	}
	name := filepath.Join(t.TempDir(), "lock")
	opens := 0
	f, err := Named(func() (*os.File, error) {
		opens++
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
		if opens == 1 {
			os.Remove(name) // the holder ends between this open and the lock
		}
		return f, err
	}, func() (fs.FileInfo, error) { return os.Lstat(name) }, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	held, _ := f.Stat()
	now, err := os.Lstat(name)
	if opens != 2 || err != nil || !os.SameFile(held, now) {
		t.Fatalf("%d opens; the lock is on the file named: %v (%v)", opens, err == nil && os.SameFile(held, now), err)
	}
	// A second taker is refused while f holds it.
	if _, err := Named(func() (*os.File, error) { return os.Open(name) }, func() (fs.FileInfo, error) { return os.Lstat(name) }, nil); !errors.Is(err, ErrLocked) {
		t.Fatalf("second taker: %v, want ErrLocked", err)
	}
}
