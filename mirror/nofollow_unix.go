//go:build unix

package mirror

import "syscall"

// noFollow keeps the lock file from being opened through a link.
const noFollow = syscall.O_NOFOLLOW
