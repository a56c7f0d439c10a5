// Package lockfile takes the exclusive locks that keep two urlget runs
// from writing one target at once: a download's NAME.part (package fetch)
// and a mirror's directory (package mirror).
package lockfile

import (
	"errors"
	"io/fs"
	"os"
)

// ErrLocked is Lock's answer when another process holds the lock.
var ErrLocked = errors.New("locked by another process")

// Named opens (open) and locks the file a name leads to, and returns it
// once the name still leads to the file locked (lstat describes what the
// name leads to now). The run that held the lock may have renamed or
// removed the file meanwhile, a download's NAME.part becoming NAME, a
// mirror's lock file going as its run ends: a lock on a file no longer
// named guards nothing, so the open is tried again, up to 8 times, then
// ErrLocked. check, if set, refuses an opened file before it is locked
// (one that is not a regular file of one link, say). Lock's errors,
// ErrLocked among them, are returned as they are.
func Named(open func() (*os.File, error), lstat func() (fs.FileInfo, error), check func(fs.FileInfo) error) (*os.File, error) {
	for range 8 {
		f, err := open()
		if err != nil {
			return nil, err
		}
		st, err := f.Stat()
		if err == nil && check != nil {
			err = check(st)
		}
		if err == nil {
			err = Lock(f)
		}
		if err != nil {
			f.Close()
			return nil, err
		}
		if now, err := lstat(); err == nil && os.SameFile(st, now) {
			return f, nil
		}
		f.Close()
	}
	return nil, ErrLocked
}
