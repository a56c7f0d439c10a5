//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package lockfile

import "os"

// Lock does nothing here: two runs on one target are not kept apart on
// systems without flock(2).
func Lock(*os.File) error { return nil }
