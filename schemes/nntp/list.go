package nntp

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/urlget/urlget/schemes"
)

// activeGroup is one line of LIST ACTIVE (RFC 3977 §7.6.3):
// "group high low status".
type activeGroup struct {
	Name      string
	High, Low int64
	Status    string // y, n, m, x, j, =other.group
}

// parseActiveLine reads one LIST ACTIVE line. INN pads the numbers with
// zeros ("0000000003"), which ParseInt accepts.
func parseActiveLine(line string) (activeGroup, error) {
	f := strings.Fields(line)
	if len(f) < 4 {
		return activeGroup{}, badReply(fmt.Sprintf("bad LIST ACTIVE line %q (want group high low status)", clip(line)))
	}
	high, err1 := strconv.ParseInt(f[1], 10, 64)
	low, err2 := strconv.ParseInt(f[2], 10, 64)
	if err1 != nil || err2 != nil || high < 0 || low < 0 {
		return activeGroup{}, badReply(fmt.Sprintf("bad LIST ACTIVE line %q (want numbers for high and low)", clip(line)))
	}
	return activeGroup{Name: f[0], High: high, Low: low, Status: f[3]}, nil
}

// estimate is the article count the water marks suggest (RFC 3977
// §6.1.1.2: high < low means empty).
func (g activeGroup) estimate() int64 {
	if g.High < g.Low {
		return 0
	}
	return g.High - g.Low + 1
}

// statusText says what the posting status letter means.
func statusText(s string) string {
	switch {
	case s == "y":
		return "posting"
	case s == "n":
		return "no-posting"
	case s == "m":
		return "moderated"
	case s == "x":
		return "no-local-posting"
	case s == "j":
		return "junk"
	case strings.HasPrefix(s, "="):
		return "alias-of:" + s[1:]
	}
	return s
}

// listGroups reads LIST ACTIVE, or LIST when the server does not know the
// keyword (RFC 977 servers), streaming one entry a group (groupEntry).
func (h *Handler) listGroups(ctx context.Context, c *conn, p *plan) (*schemes.Response, error) {
	for i, line := range []string{"LIST ACTIVE", "LIST"} {
		r, err := h.command(ctx, c, p, "list", line)
		if err != nil {
			return nil, err
		}
		if r.Code == 215 {
			break
		}
		if i == 0 && (r.Code == 500 || r.Code == 501 || r.Code == 503) {
			continue
		}
		return nil, p.replyError("list", r)
	}
	c.s.conn.SetDeadline(time.Time{}) // req.Timeout covers the wait for the reply only
	b := c.s.block(h.maxBytes())
	read := func() (schemes.Entry, error) {
		line, err := b.next()
		if err != nil {
			return schemes.Entry{}, err
		}
		g, err := parseActiveLine(line)
		if err != nil {
			return schemes.Entry{}, err
		}
		return p.groupEntry(g), nil
	}
	return h.listingResponse(ctx, c, p, "list", read, "groups", 215), nil
}

// groupEntry is the listing entry of a group: Name the group's name, Kind
// dir, Size -1, Locator its URL (plan.groupLocator), Extra "articles"
// (the count its water marks suggest), "low" and "high" (the water
// marks), and "status" (its posting status, statusText).
func (p *plan) groupEntry(g activeGroup) schemes.Entry {
	e := schemes.Entry{Kind: schemes.EntryDir, Size: -1}
	e.SetName(g.Name)
	if loc := p.groupLocator(g.Name); loc != nil {
		e.Locator = loc
	}
	e.Extra.Set("articles", strconv.FormatInt(g.estimate(), 10))
	e.Extra.Set("low", strconv.FormatInt(g.Low, 10))
	e.Extra.Set("high", strconv.FormatInt(g.High, 10))
	e.Extra.Set("status", statusText(g.Status))
	return e
}
