//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package lockfile

import (
	"os"

	"golang.org/x/sys/unix"
)

// Lock takes an exclusive flock(2) on f without waiting: two runs on one
// target must not interleave, and the second should say so at once rather
// than hang (ErrLocked). The lock goes with the open file and is released
// when f is closed, or when the process dies (kill -9 included), so a
// crashed run never leaves a stale lock behind.
func Lock(f *os.File) error {
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		switch {
		case err == unix.EINTR:
			continue
		case err == unix.EWOULDBLOCK:
			return ErrLocked
		case err != nil:
			return &os.PathError{Op: "flock", Path: f.Name(), Err: err}
		}
		return nil
	}
}
