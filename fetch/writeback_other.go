//go:build !linux

package fetch

import "os"

// writebackWorks: only Linux has sync_file_range(2); elsewhere the kernel
// writes the file when it will, or a fsync (DownloadOptions.Sync) does.
const writebackWorks = false

func startWriteback(*os.File, int64, int64) {}
