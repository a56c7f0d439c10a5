//go:build !unix

package telnet

import "os"

// resizeSignal is nil where there is no SIGWINCH: the size is sent once.
var resizeSignal os.Signal
