package fetch

import (
	"context"
	"errors"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/urlget/urlget/schemes"
)

const maxRetryDelay = 10 * time.Minute

// retryUnder is the one retry layer: it runs op, and again up to c.Retries
// more times while it fails with an error marked retryable, waiting
// RetryDelay, then twice that, and so on. A server's Retry-After
// (schemes.Error.RetryAfter) longer than the wait replaces it, up to
// maxRetryDelay. The wait ends early, with the last error, if ctx is done.
// The note says what is tried again; then, if set, adds to it where the
// next try starts (a download held bytes).
//
// Each try is an attempt (Client.attempt): op gets a context of its own,
// bounded by MaxTime, as curl's -m bounds each try. Past RetryMaxTime
// since the first try began, or when the wait would pass it, no try
// starts; one already running is not cut short by it (as with curl).
//
// rs are the request's retries (newRetries), which op may ask too: a
// download in segments shares them with its connections (segRun), so
// that a range asked for again takes one of the same Retries, and an
// error page is asked for again only while one is left (page).
func (c *Client) retryUnder(ctx context.Context, rs *retries, op func(ctx context.Context, hold func(*Response)) error, then func() string) error {
	for {
		err := c.attempt(ctx, op)
		if err == nil || !rs.again(ctx, err, then) {
			return err
		}
	}
}

// retries is the retry rule's account of one request: how many of
// Client.Retries are spent, the next wait, and when the first try began.
// Whatever a request tries again asks it (again): the request as a whole
// (retry), or, in a download in segments, one connection's range. It is
// safe for concurrent use.
type retries struct {
	c     *Client
	begin time.Time

	mu    sync.Mutex
	delay time.Duration // the next wait, unless a Retry-After is longer
	spent int
}

func (c *Client) newRetries() *retries {
	delay := c.RetryDelay
	if delay <= 0 {
		delay = time.Second
	}
	return &retries{c: c, begin: time.Now(), delay: delay}
}

// again decides whether what failed with err is tried again: err is
// marked retryable, a retry is left, and the wait (the delay, or the
// server's longer Retry-After) passes no RetryMaxTime. Then it says so
// (Notify) and waits, and reports true; false, with nothing waited, when
// not, or once ctx is done during the wait.
func (rs *retries) again(ctx context.Context, err error, then func() string) bool {
	c := rs.c
	rs.mu.Lock()
	wait, ok, pastMax := rs.waitLocked(err)
	if !ok {
		rs.mu.Unlock()
		if pastMax {
			rs.notRetried(err, wait)
		}
		return false
	}
	rs.spent++
	n := rs.spent
	rs.delay = min(2*rs.delay, maxRetryDelay)
	rs.mu.Unlock()
	next := ""
	if then != nil {
		next = then()
	}
	c.notify("%v; retrying in %v (%d of %d)%s", err, wait, n, c.Retries, next)
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// waitLocked is the wait before err is tried again, and whether it is:
// err is retryable, a retry is left, and the wait passes no
// RetryMaxTime (pastMax says it would). rs.mu is held.
func (rs *retries) waitLocked(err error) (wait time.Duration, ok, pastMax bool) {
	c := rs.c
	if rs.spent >= c.Retries || !schemes.IsRetryable(err) {
		return 0, false, false
	}
	wait = rs.delay
	var se *schemes.Error
	if errors.As(err, &se) && se.RetryAfter > wait {
		wait = min(se.RetryAfter, maxRetryDelay)
	}
	if c.RetryMaxTime > 0 && time.Since(rs.begin)+wait > c.RetryMaxTime {
		return wait, false, true
	}
	return wait, true, false
}

// notRetried says that err is not tried again: the wait would pass
// RetryMaxTime.
func (rs *retries) notRetried(err error, wait time.Duration) {
	c := rs.c
	c.notify("%v; not retried: waiting %v would pass %s %s", err, wait, c.word(SettingRetryMaxTime), seconds(c.RetryMaxTime))
}

// page is the error that has r, an error reply's page the caller asked
// for (Request.ErrorPages, Response.Failure), asked for again: its
// Failure, when again would try it once more (r is closed then, unread);
// nil when r is to be taken as it is — no page, or the last try's.
func (rs *retries) page(r *Response) error {
	if r == nil || r.Failure == nil {
		return nil
	}
	rs.mu.Lock()
	wait, ok, pastMax := rs.waitLocked(r.Failure)
	rs.mu.Unlock()
	if pastMax {
		rs.notRetried(r.Failure, wait)
	}
	if !ok {
		return nil
	}
	r.Close()
	return r.Failure
}

// attempt runs op once under a context bounded by MaxTime. The context
// ends when op returns, unless op holds it for a Response it returns
// whose Body or Listing is read later (Get, List): then it ends when that
// Response is closed, so that MaxTime bounds the reading too. A failure
// after MaxTime passed is the timeout it is (MaxTimeExpired), retryable,
// whatever broke when the deadline passed (a read, a dial): every
// scheme's answer to an expired attempt is the same.
func (c *Client) attempt(ctx context.Context, op func(ctx context.Context, hold func(*Response)) error) error {
	if c.MaxTime <= 0 {
		return op(ctx, func(*Response) {})
	}
	actx, cancel := context.WithTimeoutCause(ctx, c.MaxTime, &MaxTimeExpired{Limit: c.MaxTime, Name: c.word(SettingMaxTime)})
	held := false
	explain := func(err error) error { return expired(ctx, actx, err) }
	err := explain(op(actx, func(r *Response) {
		held = true
		r.release = cancel
		if r.Listing != nil {
			r.Listing = &heldListing{Listing: r.Listing, explain: explain, release: cancel}
		}
	}))
	if err != nil || !held {
		cancel()
	}
	return err
}

// MaxTimeExpired is the cause, in an error's chain, of an attempt that
// Client.MaxTime cut short. Its text names curl's flag, which MaxTime is.
type MaxTimeExpired struct {
	Limit time.Duration
	// Name is how the Client's caller names MaxTime (Client.SettingName):
	// "--max-time" for urlget; "" reads as SettingMaxTime.
	Name string
}

// Error says which limit expired, in the caller's words: "--max-time 2s
// expired".
func (e *MaxTimeExpired) Error() string {
	name := e.Name
	if name == "" {
		name = SettingMaxTime
	}
	return name + " " + seconds(e.Limit) + " expired"
}

// seconds is d as the flags take it: "2s", "0.5s", "1.61s" — to the
// millisecond, and divided rather than taken from Duration.Seconds, whose
// sum of whole and fractional parts shows 1.61s as 1.6099999999999999.
func seconds(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Round(time.Millisecond))/float64(time.Second), 'f', -1, 64) + "s"
}

// expired replaces err, when the attempt's context actx ran out of
// MaxTime while its caller's ctx goes on, by a retryable timeout that
// says so, keeping the scheme, phase and URL of the failure.
func expired(ctx, actx context.Context, err error) error {
	var mt *MaxTimeExpired
	if err == nil || ctx.Err() != nil || actx.Err() == nil || !errors.As(context.Cause(actx), &mt) {
		return err
	}
	e := &schemes.Error{Kind: schemes.KindTimeout, Retryable: true, Err: mt}
	var se *schemes.Error
	if errors.As(err, &se) {
		e.Scheme, e.Phase, e.URL = se.Scheme, se.Phase, se.URL
	}
	return e
}

// heldListing is a Listing read after its attempt returned (List, Get):
// its failures are explained as the attempt's, and closing it ends the
// attempt.
type heldListing struct {
	schemes.Listing
	explain func(error) error
	release context.CancelFunc
}

func (l *heldListing) Next() (schemes.Entry, error) {
	e, err := l.Listing.Next()
	if err != nil && !errors.Is(err, io.EOF) {
		err = l.explain(err)
	}
	return e, err
}

func (l *heldListing) Close() error {
	err := l.explain(l.Listing.Close())
	l.release()
	return err
}

// Close closes the Body or Listing, and ends the attempt that retrieved
// them (MaxTime's timer); closing a Response again does nothing.
func (r *Response) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	err := r.Response.Close()
	if r.release != nil {
		r.release()
	}
	return err
}
