//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package fetch

import (
	"io/fs"
	"os"
	"time"
)

// oNoFollow is 0 where the os package has no O_NOFOLLOW: openNoFollow
// checks with Lstat instead, which a race can defeat.
const oNoFollow = 0

// oNoCTTY is 0: there are no controlling terminals to avoid here.
const oNoCTTY = 0

// openFile is os.OpenFile here.
func openFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag, perm)
}

// rename is os.Rename here.
func rename(from, to string) error { return os.Rename(from, to) }

// links reports one link: the count is not available here.
func links(fs.FileInfo) uint64 { return 1 }

// setTimes sets f's modification time by its name.
func setTimes(f *os.File, t time.Time) error { return os.Chtimes(f.Name(), t, t) }
