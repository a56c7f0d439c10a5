package fetch

import (
	"os"

	"golang.org/x/sys/unix"
)

// writebackWorks: Linux has sync_file_range(2).
const writebackWorks = true

// startWriteback asks the kernel to start writing n bytes of f at off to
// disk, and returns without waiting for them. A failure is not reported:
// a fsync (DownloadOptions.Sync) reports what matters.
func startWriteback(f *os.File, off, n int64) {
	_ = unix.SyncFileRange(int(f.Fd()), off, n, unix.SYNC_FILE_RANGE_WRITE)
}
