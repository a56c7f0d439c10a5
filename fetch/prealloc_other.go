//go:build !linux

package fetch

import "os"

// preallocate makes f size bytes long: a sparse file, where the system
// has no fallocate(2) that reserves the blocks.
func preallocate(f *os.File, size int64) error { return f.Truncate(size) }
