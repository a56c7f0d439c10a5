package schemestest

import (
	"strings"
	"sync"

	"github.com/urlget/urlget/schemes"
)

// Trace is a schemes.Trace that records every line as "> line" (sent),
// "< line" (received) or "* line" (a note), for handler tests to read
// back with String. Secret does nothing: redaction is transport.Trace's
// business, and a test that checks it uses that.
type Trace struct {
	mu    sync.Mutex
	lines []string
}

var _ schemes.Trace = (*Trace)(nil)

func (t *Trace) add(s string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lines = append(t.lines, s)
}

// Sent records "> line".
func (t *Trace) Sent(l string) { t.add("> " + l) }

// Received records "< line".
func (t *Trace) Received(l string) { t.add("< " + l) }

// Info records "* line".
func (t *Trace) Info(l string) { t.add("* " + l) }

// Secret does nothing.
func (t *Trace) Secret(string) {}

// String returns the lines recorded so far, one a line.
func (t *Trace) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.Join(t.lines, "\n")
}
