//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fetch

import (
	"io/fs"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// oNoFollow makes opening NAME or NAME.part fail when the last component
// is a symbolic link, so that a link planted there is never written
// through. Only the last component: the directories on the way are the
// user's to choose. os.Root would not do: it follows a link that stays
// inside the directory (NAME.part -> NAME).
const oNoFollow = syscall.O_NOFOLLOW

// oNoCTTY keeps a terminal named as the destination from becoming the
// process's controlling terminal.
const oNoCTTY = syscall.O_NOCTTY

// links is the number of hard links of the file fi describes.
func links(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// setTimes gives the open file f the modification time t. It works on the
// descriptor, not the name, which may have been replaced meanwhile.
func setTimes(f *os.File, t time.Time) error {
	tv := unix.NsecToTimeval(t.UnixNano())
	if err := unix.Futimes(int(f.Fd()), []unix.Timeval{tv, tv}); err != nil {
		return &os.PathError{Op: "futimes", Path: f.Name(), Err: err}
	}
	return nil
}
