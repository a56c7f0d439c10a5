package telnet

import (
	"os"
	"os/signal"

	"golang.org/x/term"
)

// isTerminal reports whether fd is a terminal.
func isTerminal(fd int) bool { return term.IsTerminal(fd) }

// makeRaw puts the terminal in raw mode and returns the function that
// restores it; the session defers it, so every way out restores the
// terminal (a panic included).
func makeRaw(fd int) (restore func(), err error) {
	old, err := term.MakeRaw(fd)
	if err != nil {
		return nil, err
	}
	return func() { term.Restore(fd, old) }, nil
}

// windowSize returns the terminal's columns and rows.
func windowSize(fd int) (w, h int, ok bool) {
	w, h, err := term.GetSize(fd)
	if err != nil || w <= 0 || h <= 0 || w > 0xffff || h > 0xffff {
		return 0, 0, false
	}
	return w, h, true
}

// notifyResize returns a channel that receives on window size changes when
// interactive (nil otherwise: it never receives) and the function that
// stops the notification.
func notifyResize(interactive bool) (<-chan os.Signal, func()) {
	if !interactive || resizeSignal == nil {
		return nil, func() {}
	}
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, resizeSignal)
	return ch, func() { signal.Stop(ch) }
}
