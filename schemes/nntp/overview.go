package nntp

import (
	"context"
	"fmt"
	"io"
	"net/mail"
	"strconv"
	"strings"
	"time"

	"github.com/urlget/urlget/schemes"
)

// overview is one article of a group overview.
type overview struct {
	Number    int64
	Subject   string
	From      string
	Date      string
	MessageID string // with its "<" ">", as the server sent it
	Bytes     int64  // -1 when unknown
	Lines     int64  // -1 when unknown
}

// parseOverLine reads one line of an OVER/XOVER reply (RFC 3977 §8.3):
// number, subject, from, date, message-id, references, bytes, lines,
// separated by TABs, then optional fields. A line without a valid article
// number is an error; missing or malformed counts are -1.
func parseOverLine(line string) (overview, error) {
	f := strings.SplitN(line, "\t", 9)
	n, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil || n < 0 {
		return overview{}, badReply(fmt.Sprintf("bad overview line %q (want an article number first)", clip(line)))
	}
	field := func(i int) string {
		if i < len(f) {
			return f[i]
		}
		return ""
	}
	return overview{Number: n, Subject: field(1), From: field(2), Date: field(3), MessageID: field(4),
		Bytes: count(field(6)), Lines: count(field(7))}, nil
}

// count reads a non-negative decimal, -1 when absent or malformed.
func count(s string) int64 {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || n < 0 {
		return -1
	}
	return n
}

// groupReply is what a 211 reply to GROUP says (RFC 3977 §6.1.1):
// "211 count low high group".
type groupReply struct {
	Count, Low, High int64
}

// parseGroupReply reads the text of a 211 reply.
func parseGroupReply(text string) (groupReply, error) {
	f := strings.Fields(text)
	if len(f) < 3 {
		return groupReply{}, fmt.Errorf("malformed GROUP reply %q", clip(text))
	}
	var g groupReply
	var err [3]error
	g.Count, err[0] = strconv.ParseInt(f[0], 10, 64)
	g.Low, err[1] = strconv.ParseInt(f[1], 10, 64)
	g.High, err[2] = strconv.ParseInt(f[2], 10, 64)
	for _, e := range err {
		if e != nil {
			return groupReply{}, fmt.Errorf("malformed GROUP reply %q", clip(text))
		}
	}
	if g.Count < 0 || g.Low < 0 || g.High < 0 {
		return groupReply{}, fmt.Errorf("malformed GROUP reply %q", clip(text))
	}
	return g, nil
}

// selectGroup sends GROUP and reads its counts.
func (h *Handler) selectGroup(ctx context.Context, c *conn, p *plan) (groupReply, error) {
	r, err := h.command(ctx, c, p, "group", "GROUP "+p.group)
	if err != nil {
		return groupReply{}, err
	}
	if r.Code != 211 {
		return groupReply{}, p.replyError("group", r)
	}
	c.s.group = p.group
	g, err := parseGroupReply(r.Text)
	if err != nil {
		return groupReply{}, &schemes.Error{Scheme: p.scheme, Phase: "group", Kind: schemes.KindProtocol,
			Msg: err.Error()}
	}
	return g, nil
}

// groupOverview lists the newest Max articles of the group, streaming:
// OVER, or XOVER when OVER is not known, or HEAD for each article when
// neither is.
func (h *Handler) groupOverview(ctx context.Context, c *conn, p *plan) (*schemes.Response, error) {
	g, err := h.selectGroup(ctx, c, p)
	if err != nil {
		return nil, err
	}
	if g.Count <= 0 || g.High < g.Low {
		c.finish(true)
		return &schemes.Response{Listing: schemes.ListingOf(nil), Kind: schemes.EntryDir, Size: -1, Name: p.group,
			Status: 211}, nil
	}
	start := max(g.Low, g.High-int64(h.max())+1)
	read, err := h.overviewReader(ctx, c, p, start, g.High)
	if err != nil {
		return nil, err
	}
	// req.Timeout covers the wait for the first reply; the listing then
	// goes at its reader's pace, under the connection's idle timeout.
	c.s.conn.SetDeadline(time.Time{})
	return h.listingResponse(ctx, c, p, "over", read, p.group, 211), nil
}

// overviewReader tries OVER, XOVER and HEAD in turn over start-high, and
// returns what reads the overview's entries one at a time.
func (h *Handler) overviewReader(ctx context.Context, c *conn, p *plan, start, high int64) (func() (schemes.Entry, error), error) {
	rng := fmt.Sprintf("%d-%d", start, high)
	cmds := []string{"OVER", "XOVER"}
	if has, known := c.s.has("OVER"); known && !has {
		cmds = cmds[1:] // OVER is announced when supported (RFC 3977 §8.3)
	}
	for _, word := range cmds {
		r, err := h.command(ctx, c, p, "over", word+" "+rng)
		if err != nil {
			return nil, err
		}
		switch r.Code {
		case 224:
			return h.overLines(c, p, start, high), nil
		case 420, 423: // no articles in the range
			return func() (schemes.Entry, error) { return schemes.Entry{}, io.EOF }, nil
		case 500, 501, 503: // unknown command, syntax, not available
			continue
		}
		return nil, p.replyError("over", r)
	}
	return h.headOverview(ctx, c, p, start, high), nil
}

// overLines reads the lines of an OVER/XOVER reply as they arrive. Lines
// for articles outside start-high (a server that sends more than asked)
// are skipped.
func (h *Handler) overLines(c *conn, p *plan, start, high int64) func() (schemes.Entry, error) {
	b, prefix := c.s.block(h.maxBytes()), p.articlePrefix()
	return func() (schemes.Entry, error) {
		for {
			line, err := b.next()
			if err != nil {
				return schemes.Entry{}, err
			}
			o, err := parseOverLine(line)
			if err != nil {
				return schemes.Entry{}, err
			}
			if o.Number >= start && o.Number <= high {
				return overviewEntry(prefix, o), nil
			}
		}
	}
}

// blockError classifies a failure while reading a data block: a malformed
// or oversized block is a protocol error, the rest I/O.
func (h *Handler) blockError(ctx context.Context, p *plan, phase string, err error) error {
	if ctx.Err() != nil {
		return schemes.IOError(p.scheme, phase, ctx.Err())
	}
	return ioError(p.scheme, phase, err)
}

// headOverview reads the overview from HEAD of each article, for servers
// without OVER and XOVER, one command per entry. Missing numbers (423,
// 430) are skipped.
func (h *Handler) headOverview(ctx context.Context, c *conn, p *plan, start, high int64) func() (schemes.Entry, error) {
	n, prefix := start, p.articlePrefix()
	return func() (schemes.Entry, error) {
		for ; n <= high; n++ {
			r, err := h.command(ctx, c, p, "head", "HEAD "+strconv.FormatInt(n, 10))
			if err != nil {
				return schemes.Entry{}, err
			}
			switch r.Code {
			case codeHead:
				if a := (articleRef{number: &n}); !a.matches(r) {
					return schemes.Entry{}, c.s.mismatch(p.scheme, "head", a, r)
				}
			case 423, 430:
				continue
			default:
				return schemes.Entry{}, p.replyError("head", r)
			}
			hdr, err := h.readHeaders(c)
			if err != nil {
				return schemes.Entry{}, err
			}
			o := overview{Number: n, Subject: hdr["subject"], From: hdr["from"], Date: hdr["date"],
				MessageID: hdr["message-id"], Bytes: count(hdr["bytes"]), Lines: count(hdr["lines"])}
			n++
			return overviewEntry(prefix, o), nil
		}
		return schemes.Entry{}, io.EOF
	}
}

// readHeaders reads a HEAD reply's header block into a map of lower-case
// names to unfolded values (the first of repeated fields).
func (h *Handler) readHeaders(c *conn) (map[string]string, error) {
	hdr := map[string]string{}
	last, n := "", 0
	err := c.s.readBlock(h.maxBytes(), func(line string) error {
		if n++; n > maxHeaderLines {
			return badReply(fmt.Sprintf("more than %d header lines", maxHeaderLines))
		}
		if line != "" && (line[0] == ' ' || line[0] == '\t') {
			if last != "" {
				hdr[last] += " " + strings.TrimSpace(line)
			}
			return nil
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			last = ""
			return nil
		}
		name = strings.ToLower(strings.TrimSpace(name))
		if _, seen := hdr[name]; seen {
			last = ""
			return nil
		}
		hdr[name], last = strings.TrimSpace(value), name
		return nil
	})
	return hdr, err
}

// overviewEntry is the listing entry of an article: Name its number,
// Title its subject (unless that is the number), Kind file, ModTime its
// Date to the second, Locator its nntp URL at prefix (articlePrefix: on
// the server that was asked, with the request URL's credentials), and
// Extra "message_id" (without "<" ">"), "from", "lines" and "bytes", each
// when known. Size is -1: the overview's byte count is the article as the
// server stores or sends it (CRLF line ends, dot-stuffed on some servers),
// not the article as Fetch returns it, so it is only shown, in Extra; a
// mirror that took it for the size would call every article truncated.
func overviewEntry(prefix string, o overview) schemes.Entry {
	e := schemes.Entry{Kind: schemes.EntryFile, Size: -1}
	e.SetName(strconv.FormatInt(o.Number, 10))
	if o.Subject != e.Name {
		e.Title = o.Subject
	}
	if d, err := mail.ParseDate(o.Date); err == nil {
		e.ModTime, e.Precision = d.UTC(), time.Second
	}
	if loc := articleLocator(prefix, o.Number); loc != nil {
		e.Locator = loc
	}
	if id := strings.TrimSuffix(strings.TrimPrefix(o.MessageID, "<"), ">"); id != "" {
		e.Extra.Set("message_id", id)
	}
	if o.From != "" {
		e.Extra.Set("from", o.From)
	}
	if o.Lines >= 0 {
		e.Extra.Set("lines", strconv.FormatInt(o.Lines, 10))
	}
	if o.Bytes >= 0 {
		e.Extra.Set("bytes", strconv.FormatInt(o.Bytes, 10))
	}
	return e
}
