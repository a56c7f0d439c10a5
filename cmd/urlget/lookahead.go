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
	// locs holds the URLs parsed, by index: nil where not parsed yet (or
	// fetched already, when the parsed value is dropped), bad for one
	// that does not parse. The window given out is a slice of it, so a
	// URL costs no allocation of its own.
	locs []schemes.Locator
}

// bad marks a URL that does not parse.
var bad schemes.Locator = badLocator{}

type badLocator struct{ schemes.Locator }

func newLookahead(c *fetch.Client, urls []string) *lookahead {
	return &lookahead{c: c, urls: urls, locs: make([]schemes.Locator, len(urls))}
}

// next are the URLs after URL i, up to the first that does not parse,
// when its scheme pipelines; nil otherwise. The slice is the lookahead's,
// valid until the next call.
func (l *lookahead) next(i int) []schemes.Locator {
	loc := l.parse(i)
	l.locs[i] = nil
	if loc == nil || !l.c.Caps(loc).Has(schemes.Pipelines) {
		return nil
	}
	end := i + 1
	for ; end < len(l.urls) && end <= i+fetch.MaxNext; end++ {
		if l.parse(end) == nil {
			break
		}
	}
	if end == i+1 {
		return nil
	}
	return l.locs[i+1 : end : end]
}

// parse is URL i parsed, nil when it does not parse.
func (l *lookahead) parse(i int) schemes.Locator {
	loc := l.locs[i]
	if loc == nil {
		var err error
		if loc, err = l.c.Parse(l.urls[i]); err != nil {
			loc = bad
		}
		l.locs[i] = loc
	}
	if loc == bad {
		return nil
	}
	return loc
}
