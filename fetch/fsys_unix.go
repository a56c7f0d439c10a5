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

// openFile opens name as os.OpenFile does, but does not offer the
// descriptor to the runtime's network poller. os.OpenFile tries every
// file it opens (four fcntl calls and an epoll_ctl that a regular file
// refuses with EPERM); NAME.part and NAME are regular files, written
// with blocking calls, and a download of many small files paid those five
// calls each (issue 36). os.NewFile asks one fcntl whether the descriptor
// is non-blocking, which it is not.
func openFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	for {
		fd, err := syscall.Open(name, flag|syscall.O_CLOEXEC, uint32(perm.Perm()))
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, &os.PathError{Op: "open", Path: name, Err: err}
		}
		return os.NewFile(uintptr(fd), name), nil
	}
}

// rename is os.Rename without the Lstat of to that os.Rename makes first
// (so that a directory there is refused the same on every system): to is
// never a directory here, which notRegular refused before NAME.part was
// opened, and rename(2) itself refuses to put a file over a directory.
// One path lookup less for each file (issue 36).
func rename(from, to string) error {
	if err := syscall.Rename(from, to); err != nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
	}
	return nil
}

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
