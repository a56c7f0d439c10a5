package main

import (
	"fmt"
	"strings"
	"time"
)

// cacheMaxAge is --cache-max-age: one duration for documents and
// listings alike, or each kind's own ("documents=10m,listings=30s"; a
// kind not named keeps its default). 0 makes caches ask again each time
// (no-cache); it is the gateway's Options.DocumentMaxAge and
// ListingMaxAge, where that is a negative value. An answer fetched with
// a login or to a form's words is never stored whatever it says.
type cacheMaxAge struct {
	documents, listings time.Duration // 0: the default
	text                string
}

func (c *cacheMaxAge) String() string { return c.text }

func (c *cacheMaxAge) Type() string { return "AGE" }

func (c *cacheMaxAge) Set(v string) error {
	age := func(s string) (time.Duration, error) {
		d, err := time.ParseDuration(strings.TrimSpace(s))
		switch {
		case err != nil:
			return 0, fmt.Errorf("%q: want a duration such as 5m or 30s, or documents=D,listings=D", s)
		case d < 0:
			return 0, fmt.Errorf("%q: want 0 or more", s)
		case d == 0:
			return -1, nil // no-cache: the gateway's spelling
		case d%time.Second != 0:
			return 0, fmt.Errorf("%q: want whole seconds (max-age counts seconds)", s)
		}
		return d, nil
	}
	if !strings.Contains(v, "=") {
		d, err := age(v)
		if err != nil {
			return err
		}
		c.documents, c.listings, c.text = d, d, v
		return nil
	}
	for _, part := range strings.Split(v, ",") {
		kind, val, _ := strings.Cut(part, "=")
		d, err := age(val)
		if err != nil {
			return err
		}
		switch strings.TrimSpace(kind) {
		case "documents":
			c.documents = d
		case "listings":
			c.listings = d
		default:
			return fmt.Errorf("%q: the kinds are documents and listings", kind)
		}
	}
	c.text = v
	return nil
}
