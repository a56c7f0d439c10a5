package fetch

import (
	"context"
	"time"

	"github.com/urlget/urlget/schemes"
)

const maxRetryDelay = 10 * time.Minute

// retry runs op, and again up to c.Retries more times while it fails with
// an error marked retryable, waiting RetryDelay, then twice that, and so on.
// The wait ends early, with ctx's error, if ctx is done.
func (c *Client) retry(ctx context.Context, op func() error) error {
	delay := c.RetryDelay
	if delay <= 0 {
		delay = time.Second
	}
	for attempt := 0; ; attempt++ {
		err := op()
		if err == nil || attempt >= c.Retries || !schemes.IsRetryable(err) {
			return err
		}
		c.notify("%v; retrying in %v (%d of %d)", err, delay, attempt+1, c.Retries)
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
		delay = min(2*delay, maxRetryDelay)
	}
}
