//go:build unix

package telnet

import (
	"os"
	"syscall"
)

// resizeSignal is SIGWINCH, sent to the process when its terminal's window
// size changes.
var resizeSignal os.Signal = syscall.SIGWINCH
