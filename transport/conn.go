package transport

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// aLongTimeAgo is a deadline in the past: setting it makes blocked and
// future Reads and Writes return at once.
var aLongTimeAgo = time.Unix(1, 0)

// maxWriteChunk bounds one underlying Write so that a large Write to a
// slow-but-reading peer renews its idle deadline as it makes progress.
const maxWriteChunk = 32 << 10

// Conn is a connection opened by Dialer (or adopted with Wrap) with the
// policies every handler needs:
//
//   - idle timeout: each Read and Write gets a fresh deadline of the idle
//     timeout, so a stalled peer fails with an error wrapping
//     os.ErrDeadlineExceeded while a slow transfer that keeps moving goes on;
//   - cancellation: while a context is bound (Wrap, Bind), canceling it makes
//     a blocked Read or Write return at once with an error wrapping
//     ctx.Err(); the connection is then unusable and must be closed;
//   - byte counters, safe to read from other goroutines.
//
// Deadlines set by the caller (SetDeadline and friends) still apply: the
// earlier of the caller's deadline and the idle deadline wins.
type Conn struct {
	net.Conn
	idle time.Duration
	// firstReply is, on a datagram socket, the Dialer's ConnectTimeout:
	// see FirstReplyTimeout.
	firstReply time.Duration

	nread, nwritten atomic.Int64

	mu  sync.Mutex
	rdl time.Time // caller's read deadline
	wdl time.Time // caller's write deadline
	// armedR and armedW are the deadlines arm last set on the socket,
	// zero once anything else set one: see arm.
	armedR, armedW time.Time
	stop           func() bool // detaches the bound context's AfterFunc
	// bound is the bound context, asked before each Read and Write: its
	// AfterFunc runs a moment after it is done, and bytes already
	// buffered would be read in that moment as if it were not.
	bound   context.Context
	bindSeq uint64 // identifies the current binding for its release func
	ctxErr  error  // sticky: the error of the context that canceled the conn
}

// Wrap adopts c (a TLS connection, a tunneled connection, one accepted
// elsewhere) so that it gets the same treatment as a dialed one: idle
// deadlines of idle per Read/Write (0 disables them), cancellation by ctx
// (nil or a never-canceled context binds nothing) and byte counting. Wrap
// does not re-wrap a *Conn: it binds ctx to it and returns it.
func Wrap(ctx context.Context, c net.Conn, idle time.Duration) *Conn {
	wc, ok := c.(*Conn)
	if !ok {
		wc = &Conn{Conn: c, idle: idle}
	}
	if ctx != nil {
		wc.Bind(ctx)
	}
	return wc
}

// ConnOf finds the *Conn under c: c itself, or the connection under a TLS
// connection (anything with a NetConn method). Handlers use it to rebind a
// reused connection or read its byte counts.
func ConnOf(c net.Conn) (*Conn, bool) { return Under[*Conn](c) }

// BytesReadOf is how many bytes the *Conn under c has read, -1 when c is
// not over one. A handler compares it before and after a request on a
// pooled session: a failure with nothing read in between met a
// connection the server had closed while idle (stale), not a reply.
func BytesReadOf(c net.Conn) int64 {
	if tc, ok := ConnOf(c); ok {
		return tc.BytesRead()
	}
	return -1
}

// Under finds the layer of type T in c: c itself, or a connection under
// it reached through NetConn methods (a TLS connection, a handler's own
// wrapper), the outermost first.
func Under[T net.Conn](c net.Conn) (T, bool) {
	for range 8 { // layers are few; the bound only guards against cycles
		if v, ok := c.(T); ok {
			return v, true
		}
		n, ok := c.(interface{ NetConn() net.Conn })
		if !ok {
			break
		}
		c = n.NetConn()
	}
	var zero T
	return zero, false
}

// Bind attaches ctx to the connection, replacing any context bound before,
// so that canceling ctx unblocks and fails its I/O. Reused connections (an
// FTP control connection serving a second request) are bound to each
// request's context in turn. release detaches ctx if it is still the bound
// one; call it when the request is done, before the connection goes back to
// a pool. Binding a context that is already done fails the connection at
// once. ctx must not be nil.
func (c *Conn) Bind(ctx context.Context) (release func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.detachLocked()
	if err := ctx.Err(); err != nil {
		c.failLocked(err)
		return func() {}
	}
	if ctx.Done() == nil {
		return func() {}
	}
	seq := c.bindSeq
	c.bound = ctx
	c.stop = context.AfterFunc(ctx, func() { c.cancel(seq, ctx.Err()) })
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.bindSeq == seq {
			c.detachLocked()
		}
	}
}

// Stop detaches the bound context, if any: its cancellation no longer
// affects the connection. It does not clear a cancellation that already
// happened (see Err).
func (c *Conn) Stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.detachLocked()
}

func (c *Conn) detachLocked() {
	if c.stop != nil {
		c.stop()
		c.stop = nil
	}
	c.bound = nil
	c.bindSeq++
}

// cancel runs when the bound context is done. It does nothing if that
// context was detached meanwhile (release raced with cancellation).
func (c *Conn) cancel(seq uint64, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if seq != c.bindSeq {
		return
	}
	c.stop = nil
	c.failLocked(err)
}

// failLocked records why the connection was canceled and sets a deadline in
// the past, which unblocks any Read or Write in progress without closing
// the descriptor under it.
func (c *Conn) failLocked(err error) {
	if c.ctxErr == nil {
		c.ctxErr = err
	}
	c.armedR, c.armedW = time.Time{}, time.Time{}
	c.Conn.SetDeadline(aLongTimeAgo)
}

// Err returns the error of the context that canceled the connection, or
// nil. A pool checks it before reusing a connection.
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ctxErr
}

// BytesRead is the number of bytes read so far.
func (c *Conn) BytesRead() int64 { return c.nread.Load() }

// BytesWritten is the number of bytes written so far.
func (c *Conn) BytesWritten() int64 { return c.nwritten.Load() }

// IdleTimeout returns the idle timeout applied to each Read and Write.
func (c *Conn) IdleTimeout() time.Duration { return c.idle }

// FirstReplyTimeout is, on a datagram socket (DialDatagram), the Dialer's
// ConnectTimeout: opening a UDP socket sends nothing, so what a connect
// timeout bounds there is the wait for the peer's first datagram, which
// the protocol's exchange enforces (its retries run meanwhile). 0 on a
// stream connection, whose connecting the Dialer bounded already, and
// when there is no connect timeout.
func (c *Conn) FirstReplyTimeout() time.Duration { return c.firstReply }

// arm prepares one Read (write false) or Write: it fails fast on a canceled
// connection and otherwise sets the earlier of the caller's deadline and the
// idle deadline. It runs under mu so that it cannot undo a concurrent
// cancel's past deadline.
//
// A deadline set less than idle/16 before the one wanted is left as it
// is: setting one resets a runtime timer, and a search or listing that
// reads a few hundred bytes at a time would do so thousands of times a
// second (1 % of an LDAP search's CPU). A stalled peer is then caught
// after 15/16 of the idle timeout at the earliest, never later.
func (c *Conn) arm(write bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ctxErr == nil && c.bound != nil {
		if err := c.bound.Err(); err != nil {
			c.failLocked(err) // as its AfterFunc is about to
		}
	}
	if c.ctxErr != nil {
		return c.ctxErr
	}
	if c.idle <= 0 {
		return nil
	}
	dl := time.Now().Add(c.idle)
	user := c.rdl
	if write {
		user = c.wdl
	}
	if !user.IsZero() && user.Before(dl) {
		dl = user
	}
	armed := &c.armedR
	if write {
		armed = &c.armedW
	}
	if !armed.IsZero() && !armed.After(dl) && dl.Sub(*armed) < c.idle/16 {
		return nil
	}
	var err error
	if write {
		err = c.Conn.SetWriteDeadline(dl)
	} else {
		err = c.Conn.SetReadDeadline(dl)
	}
	if err != nil {
		*armed = time.Time{}
		return err
	}
	*armed = dl
	return nil
}

// Read reads from the connection under the idle deadline and the bound
// context.
func (c *Conn) Read(p []byte) (int, error) {
	if err := c.arm(false); err != nil {
		return 0, c.opError("read", err)
	}
	n, err := c.Conn.Read(p)
	c.nread.Add(int64(n))
	if err != nil {
		err = c.explain("read", err, false)
	}
	return n, err
}

// Write writes to the connection under the idle deadline and the bound
// context, renewing the deadline every maxWriteChunk bytes.
func (c *Conn) Write(p []byte) (int, error) {
	total := 0
	for {
		chunk := p[total:]
		if len(chunk) > maxWriteChunk && c.idle > 0 {
			chunk = chunk[:maxWriteChunk]
		}
		if err := c.arm(true); err != nil {
			return total, c.opError("write", err)
		}
		n, err := c.Conn.Write(chunk)
		total += n
		c.nwritten.Add(int64(n))
		if err != nil {
			return total, c.explain("write", err, true)
		}
		if total >= len(p) {
			return total, nil
		}
	}
}

// explain rewrites an I/O error caused by this wrapper's own policies: a
// canceled context becomes an error wrapping ctx.Err(), an expired idle
// deadline one that says so (still wrapping os.ErrDeadlineExceeded).
func (c *Conn) explain(op string, err error, write bool) error {
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		return err
	}
	c.mu.Lock()
	ctxErr, user := c.ctxErr, c.rdl
	if write {
		user = c.wdl
	}
	c.mu.Unlock()
	if ctxErr != nil {
		return c.opError(op, ctxErr)
	}
	if c.idle > 0 && (user.IsZero() || time.Now().Before(user)) {
		return &IdleTimeoutError{Idle: c.idle, Err: err}
	}
	return err
}

func (c *Conn) opError(op string, err error) error {
	return &net.OpError{Op: op, Net: "tcp", Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: err}
}

// SetDeadline sets the caller's read and write deadlines; see Conn.
func (c *Conn) SetDeadline(t time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.rdl, c.wdl = t, t
	c.armedR, c.armedW = time.Time{}, time.Time{}
	if c.ctxErr != nil {
		return nil
	}
	return c.Conn.SetDeadline(t)
}

// SetReadDeadline sets the caller's read deadline; see Conn.
func (c *Conn) SetReadDeadline(t time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.rdl = t
	c.armedR = time.Time{}
	if c.ctxErr != nil {
		return nil
	}
	return c.Conn.SetReadDeadline(t)
}

// SetWriteDeadline sets the caller's write deadline; see Conn.
func (c *Conn) SetWriteDeadline(t time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.wdl = t
	c.armedW = time.Time{}
	if c.ctxErr != nil {
		return nil
	}
	return c.Conn.SetWriteDeadline(t)
}

// Close detaches the bound context and closes the connection.
func (c *Conn) Close() error {
	c.mu.Lock()
	c.detachLocked()
	c.mu.Unlock()
	return c.Conn.Close()
}

// NetConn returns the connection under the wrapper.
func (c *Conn) NetConn() net.Conn { return c.Conn }

// IdleTimeoutError is the error of a Read or Write that saw no progress for
// the idle timeout. It wraps os.ErrDeadlineExceeded, so errors.Is and
// schemes.KindOf see a timeout.
type IdleTimeoutError struct {
	Idle time.Duration
	Err  error // the net.OpError reporting the expired deadline
}

// Error says how long the peer was silent, and no more: the socket's
// "read tcp A->B: i/o timeout" is Go's words, not a person's.
func (e *IdleTimeoutError) Error() string {
	return fmt.Sprintf("no progress for %v", e.Idle)
}

// Unwrap returns the underlying deadline error.
func (e *IdleTimeoutError) Unwrap() error { return e.Err }

// Timeout reports true, as net.Error timeouts do.
func (e *IdleTimeoutError) Timeout() bool { return true }

// Temporary reports false; it exists to satisfy net.Error.
func (e *IdleTimeoutError) Temporary() bool { return false }
