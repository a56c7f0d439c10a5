package main

import (
	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// lookahead finds the URLs of the command that come after the one being
// fetched, for its Request's Next (fetch.Request.Next: a scheme that
// pipelines, NNTP, sends their requests ahead, so that 1,000 news:<id>
// URLs cost a round trip for every 64 rather than for each). The URLs are
// parsed once, as the window (fetch.MaxNext) reaches them, and only for a
// scheme that pipelines.
type lookahead struct {
	c    *fetch.Client
	urls []string
	locs map[int]schemes.Locator // parsed URLs of the window; nil for one that does not parse
}

func newLookahead(c *fetch.Client, urls []string) *lookahead {
	return &lookahead{c: c, urls: urls, locs: map[int]schemes.Locator{}}
}

// next are the URLs after URL i, up to the first that does not parse,
// when its scheme pipelines; nil otherwise.
func (l *lookahead) next(i int) []schemes.Locator {
	loc := l.parse(i)
	delete(l.locs, i)
	if loc == nil || !l.c.Caps(loc).Has(schemes.Pipelines) {
		return nil
	}
	var next []schemes.Locator
	for j := i + 1; j < len(l.urls) && j <= i+fetch.MaxNext; j++ {
		n := l.parse(j)
		if n == nil {
			break
		}
		next = append(next, n)
	}
	return next
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
