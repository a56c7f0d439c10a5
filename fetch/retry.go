package fetch

import (
	"context"
	"errors"
	"time"

	"github.com/urlget/urlget/schemes"
)

const maxRetryDelay = 10 * time.Minute

// retry runs op, and again up to c.Retries more times while it fails with
// an error marked retryable, waiting RetryDelay, then twice that, and so on.
// A server's Retry-After (schemes.Error.RetryAfter) longer than the wait
// replaces it, up to maxRetryDelay. The wait ends early, with the last
// error, if ctx is done. The note says what is tried again; then, if
// set, adds to it where the next try starts (a download held bytes).
func (c *Client) retry(ctx context.Context, op func() error, then func() string) error {
	delay := c.RetryDelay
	if delay <= 0 {
		delay = time.Second
	}
	for attempt := 0; ; attempt++ {
		err := op()
		if err == nil || attempt >= c.Retries || !schemes.IsRetryable(err) {
			return err
		}
		wait := delay
		var se *schemes.Error
		if errors.As(err, &se) && se.RetryAfter > wait {
			wait = min(se.RetryAfter, maxRetryDelay)
		}
		next := ""
		if then != nil {
			next = then()
		}
		c.notify("%v; retrying in %v (%d of %d)%s", err, wait, attempt+1, c.Retries, next)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
		delay = min(2*delay, maxRetryDelay)
	}
}
