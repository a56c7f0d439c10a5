package fetch

import (
	"errors"
	"fmt"
	"time"

	"github.com/urlget/urlget/schemes"
)

// step bounds one pass or write: maxPass, or under a rate cap a quarter
// second's worth, so that the sleeps that keep the average stay short.
func (c *copier) step() int {
	if c.rate > 0 {
		return int(min(max(c.rate/4, 1), maxPass))
	}
	return maxPass
}

// throttle sleeps until the average rate since the copy began is back
// under LimitRate, in sleeps of at most reportEvery (reporting between
// them) that end early when ctx is done.
func (c *copier) throttle() error {
	if c.rate <= 0 {
		return nil
	}
	due := c.begin.Add(time.Duration(float64(c.moved) / float64(c.rate) * float64(time.Second)))
	for {
		wait := time.Until(due)
		if wait <= 0 {
			return nil
		}
		t := time.NewTimer(min(wait, reportEvery))
		select {
		case <-c.ctx.Done():
			t.Stop()
			return c.ctx.Err()
		case now := <-t.C:
			if now.Sub(c.lastReport) >= reportEvery {
				c.report(now)
			}
		}
	}
}

// errTooLarge marks a resource larger than MaxFileSize.
var errTooLarge = errors.New("larger than the maximum file size")

// tooLargeCause is errTooLarge as an Error's cause: the message says it
// already, so the text adds nothing (it once read "…of 10 bytes; stopped:
// larger than the maximum file size").
var tooLargeCause = schemes.Reason("", errTooLarge)

func (c *copier) tooLarge() error {
	if c.limit == nil {
		c.limit = &schemes.Error{Scheme: c.loc.Generic().Scheme, Phase: "limit", Kind: schemes.KindSafety, URL: c.loc.Redacted(),
			Msg: fmt.Sprintf("the resource is larger than the maximum file size of %d bytes; stopped", c.max), Err: tooLargeCause}
	}
	return c.limit
}

// refuseSize is MaxFileSize applied before anything is written, to a
// resource whose size the server announced.
func (c *Client) refuseSize(loc schemes.Locator, size int64) error {
	if c.MaxFileSize <= 0 || size <= c.MaxFileSize {
		return nil
	}
	return &schemes.Error{Scheme: loc.Generic().Scheme, Phase: "limit", Kind: schemes.KindSafety, URL: loc.Redacted(),
		Msg: fmt.Sprintf("the resource is %d bytes, more than the maximum file size of %d bytes", size, c.MaxFileSize), Err: tooLargeCause}
}
