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

// links reports one link: the count is not available here.
func links(fs.FileInfo) uint64 { return 1 }

// setTimes sets f's modification time by its name.
func setTimes(f *os.File, t time.Time) error { return os.Chtimes(f.Name(), t, t) }
