package main

import (
	"context"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// lookaheadURLs is how many of the URLs after the one being fetched a
// request names (schemes.WithNext): more than a handler sends ahead
// (nntp.DefaultWindow, 64), so that its window stays full.
const lookaheadURLs = 128

// lookahead tells a handler whose scheme pipelines (schemes.Pipelines:
// NNTP) which URLs of the command come after the one it fetches, so that
// it sends their requests ahead on its connection: 1,000 news:<id> URLs
// then cost a round trip for every 64 rather than for each. The URLs are
// parsed once, as the window reaches them.
type lookahead struct {
	c    *fetch.Client
	urls []string
	locs map[int]schemes.Locator // parsed URLs of the window; nil for one that does not parse
}

func newLookahead(c *fetch.Client, urls []string) *lookahead {
	return &lookahead{c: c, urls: urls, locs: map[int]schemes.Locator{}}
}

// context is ctx for the request of URL i: naming the URLs after it, up
// to the first that does not parse, when its scheme pipelines.
func (l *lookahead) context(ctx context.Context, i int) context.Context {
	loc := l.parse(i)
	delete(l.locs, i)
	if loc == nil || !l.c.Caps(loc).Has(schemes.Pipelines) {
		return ctx
	}
	var next []schemes.Locator
	for j := i + 1; j < len(l.urls) && j <= i+lookaheadURLs; j++ {
		n := l.parse(j)
		if n == nil {
			break
		}
		next = append(next, n)
	}
	return schemes.WithNext(ctx, next)
}

// parse is URL i parsed, nil when it does not parse.
func (l *lookahead) parse(i int) schemes.Locator {
	if loc, ok := l.locs[i]; ok {
		return loc
	}
	loc, err := l.c.Parse(l.urls[i])
	if err != nil {
		loc = nil
	}
	l.locs[i] = loc
	return loc
}
