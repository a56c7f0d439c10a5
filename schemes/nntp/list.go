package nntp

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// maxGroups bounds the groups read from LIST ACTIVE.
const maxGroups = 1 << 20

// activeGroup is one line of LIST ACTIVE (RFC 3977 §7.6.3):
// "group high low status".
type activeGroup struct {
	Name      string
	High, Low int64
	Status    string // y, n, m, x, j, =other.group
	Raw       string
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
	return activeGroup{Name: f[0], High: high, Low: low, Status: f[3], Raw: line}, nil
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
// keyword (RFC 977 servers).
func (h *Handler) listGroups(ctx context.Context, c *conn, p *plan) (*schemes.Response, error) {
	var groups []activeGroup
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
		return nil, replyError(p.scheme, "list", p.url, r)
	}
	err := c.s.readBlock(h.maxBytes(), func(line string) error {
		g, err := parseActiveLine(line)
		if err != nil {
			return err
		}
		if len(groups) >= maxGroups {
			return badReply(fmt.Sprintf("more than %d groups", maxGroups))
		}
		groups = append(groups, g)
		return nil
	})
	if err != nil {
		return nil, h.blockError(ctx, p, "list", err)
	}
	entries := make([]schemes.Entry, 0, len(groups))
	var b strings.Builder
	for _, g := range groups {
		// Size is the estimated number of articles; Type the status letter.
		entries = append(entries, schemes.Entry{Name: g.Name, Kind: schemes.EntryDir, Size: g.estimate(),
			URL: newsGroupURL(g.Name), Type: g.Status, Raw: g.Raw})
		fmt.Fprintf(&b, "%s\t%d\t%d\t%d\t%s\n", oneLine(g.Name), g.estimate(), g.Low, g.High, statusText(oneLine(g.Status)))
	}
	c.finish(true)
	return listing(b.String(), entries, "groups", 215), nil
}

// newsGroupURL is the news: URL of a group, "" for a name that is not a
// valid RFC 1738 group (the server may have others).
func newsGroupURL(name string) string {
	if !validGroup(name) {
		return ""
	}
	return "news:" + schemes.Escape(name, "")
}
