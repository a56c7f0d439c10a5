package transport

import (
	"context"
	"errors"
	"net"
	"sync/atomic"
	"testing"
	"time"
)

// doneNoSignal is a context that becomes done (Err) without its Done
// channel saying so: the moment between a deadline passing and the
// AfterFunc that reacts to it, made to last.
type doneNoSignal struct {
	context.Context
	done atomic.Bool
}

func (*doneNoSignal) Done() <-chan struct{} { return make(chan struct{}) }
func (d *doneNoSignal) Err() error {
	if d.done.Load() {
		return context.DeadlineExceeded
	}
	return nil
}

// TestBoundContextAskedBeforeRead: once the bound context is done, a Read
// fails with its error even where bytes wait in the buffer and the
// context's AfterFunc has not run yet: a reply that had all arrived was
// read to its end after the deadline (the finger conformance test saw a
// size limit instead of the deadline).
func TestBoundContextAskedBeforeRead(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	go b.Write([]byte("waiting in the buffer"))
	c := Wrap(nil, a, time.Minute)
	ctx := &doneNoSignal{Context: context.Background()}
	c.Bind(ctx)
	ctx.done.Store(true)
	n, err := c.Read(make([]byte, 64))
	if n != 0 || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("read %d bytes, err %v; want none and the deadline", n, err)
	}
}
