//go:build darwin || freebsd || netbsd

package file

import (
	"io/fs"
	"syscall"
	"time"
)

// changeTime is fi's inode change time (ctime), zero when unknown.
func changeTime(fi fs.FileInfo) time.Time {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return time.Time{}
	}
	return time.Unix(st.Ctimespec.Unix())
}
