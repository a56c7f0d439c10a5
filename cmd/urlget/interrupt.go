package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// interrupt is the cause of the run's context when Ctrl-C (SIGINT) or
// SIGTERM ended it: the command then exits 128 plus the signal's number
// (130 for Ctrl-C), as a shell reports a process the signal killed, and
// says "interrupted" rather than Go's "context canceled".
type interrupt struct{ sig os.Signal }

func (i *interrupt) Error() string { return "interrupted" }

// exitCode is 128 plus the signal's number: 130 for SIGINT, 143 for
// SIGTERM.
func (i *interrupt) exitCode() int {
	if s, ok := i.sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 130
}

// interruptible returns a context canceled, with an *interrupt as its
// cause, by the first SIGINT or SIGTERM. The signal is then given back
// its default effect, so that a second Ctrl-C ends urlget at once should
// it hang on its way out. stop releases the signals.
func interruptible(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			signal.Stop(ch)
			cancel(&interrupt{sig: sig})
		case <-done:
		}
	}()
	return ctx, func() {
		close(done)
		signal.Stop(ch)
		cancel(nil)
	}
}

// interruptedBy returns the interrupt that ended ctx, nil if none did.
func interruptedBy(ctx context.Context) *interrupt {
	var in *interrupt
	if errors.As(context.Cause(ctx), &in) {
		return in
	}
	return nil
}

// interruptedMessage is what a URL an interrupt cut short says: its URL,
// "interrupted", and, when a partial copy was kept, where and how to
// continue it — "URL: interrupted; the partial copy is kept in
// NAME.part: continue with -C -".
func interruptedMessage(err error) string {
	msg := "interrupted"
	var se *schemes.Error
	if errors.As(err, &se) && se.URL != "" {
		msg = se.URL + ": " + msg
	}
	var kept *fetch.PartialKept
	if errors.As(err, &kept) {
		msg += "; " + (&fetch.PartialKept{Path: kept.Path, Hint: kept.Hint}).Error()
	}
	return msg
}
