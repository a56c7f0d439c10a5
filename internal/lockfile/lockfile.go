// Package lockfile takes the exclusive locks that keep two urlget runs
// from writing one target at once: a download's NAME.part (package fetch)
// and a mirror's directory (package mirror).
package lockfile

import "errors"

// ErrLocked is Lock's answer when another process holds the lock.
var ErrLocked = errors.New("locked by another process")
