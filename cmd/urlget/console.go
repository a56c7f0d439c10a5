package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"
)

// console is the command's stderr: messages for people and, on a
// terminal, the progress line of the transfer under way. Everything the
// command writes to stderr while a transfer runs goes through it, so a
// message never lands inside the progress line: the line is erased, the
// message written on its own line, and the progress drawn again below it.
type console struct {
	w      io.Writer
	draw   bool                              // draw progress lines (a terminal, neither -s nor -v)
	now    func() time.Time                  // the clock of rates and times
	tick   func() (<-chan time.Time, func()) // the redraw clock and its stop
	width  func() int                        // the terminal's columns, 0 when unknown
	hashes bool                              // -#: curl's bar of "#" instead of the meter's line

	mu    sync.Mutex
	live  view // what is drawn: a transfer's meter, a mirror's board; nil between transfers
	shown int  // lines of live on screen, the cursor at the end of the last
	held  bool // a prompt has the terminal: draw nothing
}

// newConsole writes to stderr, drawing progress when draw is set.
func newConsole(stderr io.Writer, draw bool) *console {
	c := &console{w: stderr, draw: draw, now: time.Now, width: func() int { return 0 },
		tick: func() (<-chan time.Time, func()) {
			t := time.NewTicker(redrawEvery)
			return t.C, t.Stop
		}}
	if f, ok := stderr.(*os.File); ok {
		c.width = func() int {
			w, _, err := term.GetSize(int(f.Fd()))
			if err != nil {
				return 0
			}
			return w
		}
	}
	return c
}

// isTerminal reports whether w is a terminal; progress is drawn only
// there, so logs and pipes never receive control sequences.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// say writes "urlget: msg" on a line of its own, msg made safe to show
// (control characters escaped, over-long words shortened).
func (c *console) say(msg string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.eraseLocked()
	io.WriteString(c.w, "urlget: "+forPeople(msg)+"\n")
	c.drawLocked()
}

// hold gives the terminal to a prompt: the progress line is erased and
// not drawn again until release is called.
func (c *console) hold() (release func()) {
	c.mu.Lock()
	c.eraseLocked()
	c.held = true
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		c.held = false
		c.drawLocked()
		c.mu.Unlock()
	}
}

// eraseLocked removes the progress line, leaving the cursor at the start
// of the empty line.
func (c *console) eraseLocked() {
	if c.shown > 0 {
		io.WriteString(c.w, "\r\x1b[K"+strings.Repeat("\x1b[A\x1b[K", c.shown-1))
		c.shown = 0
	}
}

// drawLocked draws the progress line over the current one.
func (c *console) drawLocked() {
	if c.live == nil || c.held {
		return
	}
	lines := c.live.view(c.now(), c.width())
	if len(lines) == 0 {
		return
	}
	// Redraw the lines in place: up to the first, then each cleared.
	var b strings.Builder
	b.WriteString("\r")
	if c.shown > 1 {
		fmt.Fprintf(&b, "\x1b[%dA", c.shown-1)
	}
	for i, l := range lines {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(l + "\x1b[K")
	}
	for i := len(lines); i < c.shown; i++ { // fewer lines than before: clear the rest
		b.WriteString("\n\x1b[K")
	}
	if extra := c.shown - len(lines); extra > 0 {
		fmt.Fprintf(&b, "\x1b[%dA", extra)
	}
	io.WriteString(c.w, b.String())
	c.shown = len(lines)
}

// view is what a progress display draws: its lines, for the terminal's
// width (0 when unknown).
type view interface {
	view(now time.Time, width int) []string
}

// transfer is one retrieval's progress; a nil *transfer draws nothing.
type transfer struct {
	c    *console
	name string
	m    *meter        // set by the first update
	stop chan struct{} // ends the redraw loop
	done chan struct{} // closed when the redraw loop has ended
}

// start begins a retrieval's progress, named name (a redacted URL). The
// line appears with the first update (when the body starts, after any
// prompt for a password or a search), so nothing is drawn for a session
// or a transfer that never starts. nil when progress is not drawn.
func (c *console) start(name string) *transfer {
	if !c.draw {
		return nil
	}
	return &transfer{c: c, name: forPeople(name)}
}

// progress is the callback for fetch, nil when nothing is drawn (so the
// copy does not even count for it).
func (t *transfer) progress() func(done, total int64) {
	if t == nil {
		return nil
	}
	return t.update
}

// update records done bytes of total (-1: unknown). The first call draws
// the line and starts redrawing it every redrawEvery; later calls only
// record, so a fast copy does not pay for drawing.
func (t *transfer) update(done, total int64) {
	c := t.c
	c.mu.Lock()
	defer c.mu.Unlock()
	if t.m != nil {
		t.m.set(done, total)
		return
	}
	t.m = newMeter(t.name, c.now(), done, total)
	c.live = t.m
	if c.hashes {
		c.live = hashBar{t.m}
	}
	c.drawLocked()
	t.stop, t.done = make(chan struct{}), make(chan struct{})
	c.redraw(t.stop, t.done)
}

// redraw redraws the live view every redrawEvery, whether or not anything
// changed, until quit is closed; done is closed when it has stopped.
func (c *console) redraw(quit <-chan struct{}, done chan<- struct{}) {
	tick, stop := c.tick()
	go func() {
		defer close(done)
		defer stop()
		for {
			select {
			case <-tick:
				c.mu.Lock()
				c.drawLocked()
				c.mu.Unlock()
			case <-quit:
				return
			}
		}
	}()
}

// end stops redrawing and leaves the final line (100 % and the time taken,
// or where a failed transfer stopped) above what follows.
func (t *transfer) end() {
	if t == nil || t.m == nil {
		return
	}
	close(t.stop)
	<-t.done
	c := t.c
	c.mu.Lock()
	defer c.mu.Unlock()
	t.m.final = true
	c.drawLocked()
	if c.shown > 0 {
		io.WriteString(c.w, "\n")
	}
	c.live, c.shown = nil, 0
}

// show draws v, and redraws it every redrawEvery, until the returned stop
// is called, which draws it a last time and leaves it above what follows.
// It does nothing (and stop neither) when progress is not drawn.
func (c *console) show(v view) (stop func()) {
	if !c.draw {
		return func() {}
	}
	c.mu.Lock()
	c.live = v
	c.drawLocked()
	c.mu.Unlock()
	quit, done := make(chan struct{}), make(chan struct{})
	c.redraw(quit, done)
	return func() {
		close(quit)
		<-done
		c.mu.Lock()
		defer c.mu.Unlock()
		c.drawLocked()
		if c.shown > 0 {
			io.WriteString(c.w, "\n")
		}
		c.live, c.shown = nil, 0
	}
}
