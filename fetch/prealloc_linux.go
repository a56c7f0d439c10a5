package fetch

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// preallocate makes f size bytes long with its blocks reserved
// (fallocate(2)), so that a segmented download finds a full disk before
// its first byte rather than halfway, and its segments, written out of
// order, do not fragment the file. A file system without fallocate gets
// a sparse file of that length instead.
func preallocate(f *os.File, size int64) error {
	err := unix.Fallocate(int(f.Fd()), 0, 0, size)
	if errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.ENOSYS) {
		return f.Truncate(size)
	}
	if err != nil {
		return &os.PathError{Op: "fallocate", Path: f.Name(), Err: err}
	}
	return nil
}
