package nntp

import (
	"context"
	"fmt"
	"io"
	"net/mail"
	"strconv"
	"strings"

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
	Raw       string // the overview line as received; "" from the HEAD fallback
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
		Bytes: count(field(6)), Lines: count(field(7)), Raw: line}, nil
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
		return groupReply{}, replyError(p.scheme, "group", p.url, r)
	}
	g, err := parseGroupReply(r.Text)
	if err != nil {
		return groupReply{}, &schemes.Error{Scheme: p.scheme, Phase: "group", Kind: schemes.KindProtocol, URL: p.url,
			Msg: err.Error()}
	}
	return g, nil
}

// groupOverview lists the newest Max articles of the group: OVER, or XOVER
// when OVER is not known, or HEAD for each article when neither is.
func (h *Handler) groupOverview(ctx context.Context, c *conn, p *plan) (*schemes.Response, error) {
	g, err := h.selectGroup(ctx, c, p)
	if err != nil {
		return nil, err
	}
	var list []overview
	if g.Count > 0 && g.High >= g.Low {
		start := g.Low
		if g.High-int64(h.max())+1 > start {
			start = g.High - int64(h.max()) + 1
		}
		list, err = h.fetchOverview(ctx, c, p, start, g.High)
		if err != nil {
			return nil, err
		}
	}
	entries := make([]schemes.Entry, 0, len(list))
	var b strings.Builder
	for _, o := range list {
		entries = append(entries, h.overviewEntry(p, o))
		fmt.Fprintf(&b, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", o.Number, oneLine(o.Subject), oneLine(o.From), oneLine(o.Date),
			oneLine(o.MessageID), countText(o.Bytes), countText(o.Lines))
	}
	c.finish(true)
	return listing(b.String(), entries, p.group, 211), nil
}

// listing is the Response of a rendered listing.
func listing(text string, entries []schemes.Entry, name string, status int) *schemes.Response {
	return &schemes.Response{Body: io.NopCloser(strings.NewReader(text)), Size: int64(len(text)),
		Type: "text/plain; charset=utf-8", Name: name, Entries: entries, Status: status}
}

func countText(n int64) string {
	if n < 0 {
		return "-"
	}
	return strconv.FormatInt(n, 10)
}

// oneLine shows control characters of a field as "?" so that one article
// is one line of the rendering.
func oneLine(s string) string {
	if strings.IndexFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, s)
}

// fetchOverview tries OVER, XOVER and HEAD in turn over start-high.
func (h *Handler) fetchOverview(ctx context.Context, c *conn, p *plan, start, high int64) ([]overview, error) {
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
			return h.readOverview(ctx, c, p)
		case 420, 423: // no articles in the range
			return nil, nil
		case 500, 501, 503: // unknown command, syntax, not available
			continue
		}
		return nil, replyError(p.scheme, "over", p.url, r)
	}
	return h.headOverview(ctx, c, p, start, high)
}

// readOverview reads the lines of an OVER/XOVER reply.
func (h *Handler) readOverview(ctx context.Context, c *conn, p *plan) ([]overview, error) {
	var list []overview
	limit := h.max()
	err := c.s.readBlock(h.maxBytes(), func(line string) error {
		o, err := parseOverLine(line)
		if err != nil {
			return err
		}
		if len(list) >= limit {
			// More lines than asked for: keep the newest.
			list = append(list[:0], list[1:]...)
		}
		list = append(list, o)
		return nil
	})
	if err != nil {
		return nil, h.blockError(ctx, p, "over", err)
	}
	return list, nil
}

// blockError classifies a failure while reading a data block: a malformed
// or oversized block is a protocol error, the rest I/O.
func (h *Handler) blockError(ctx context.Context, p *plan, phase string, err error) error {
	if ctx.Err() != nil {
		return ctxError(p, phase, ctx.Err())
	}
	return ioError(p.scheme, phase, p.url, err)
}

// headOverview builds the overview from HEAD of each article, for servers
// without OVER and XOVER. Missing numbers (423) are skipped.
func (h *Handler) headOverview(ctx context.Context, c *conn, p *plan, start, high int64) ([]overview, error) {
	var list []overview
	for n := start; n <= high; n++ {
		r, err := h.command(ctx, c, p, "head", "HEAD "+strconv.FormatInt(n, 10))
		if err != nil {
			return nil, err
		}
		switch r.Code {
		case 221:
		case 423, 430:
			continue
		default:
			return nil, replyError(p.scheme, "head", p.url, r)
		}
		hdr, err := h.readHeaders(c)
		if err != nil {
			return nil, h.blockError(ctx, p, "head", err)
		}
		list = append(list, overview{Number: n, Subject: hdr["subject"], From: hdr["from"], Date: hdr["date"],
			MessageID: hdr["message-id"], Bytes: count(hdr["bytes"]), Lines: count(hdr["lines"])})
	}
	return list, nil
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

// overviewEntry is the listing entry of an article: Name is its number,
// Size its bytes (-1 unknown), ModTime its Date, URL its news:<message-id>
// URL (valid on any server), Target its nntp://host/group/number URL on
// this server, Type "article", and Raw the overview line as received.
func (h *Handler) overviewEntry(p *plan, o overview) schemes.Entry {
	e := schemes.Entry{Name: strconv.FormatInt(o.Number, 10), Kind: schemes.EntryFile, Size: o.Bytes,
		Type: "article", Raw: o.Raw, Target: p.articleURL(o.Number)}
	if d, err := mail.ParseDate(o.Date); err == nil {
		e.ModTime = d.UTC()
	}
	if id := strings.TrimSuffix(strings.TrimPrefix(o.MessageID, "<"), ">"); strings.Contains(id, "@") {
		e.URL = newsURL(id)
	}
	return e
}

// newsURL is the news: URL of a message-id (without "<" ">"), escaped as
// NewsURL.String writes it.
func newsURL(id string) string {
	s := schemes.Escape(id, "")
	if strings.HasPrefix(s, "/") {
		s = "%2F" + s[1:]
	}
	return "news:" + s
}

// articleURL is the nntp URL of article n of the plan's group on its
// server, without credentials.
func (p *plan) articleURL(n int64) string {
	scheme := "nntp"
	if p.tls {
		scheme = "nntps"
	}
	host := p.host
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if p.port != schemes.DefaultPort(scheme) {
		host += ":" + strconv.Itoa(p.port)
	}
	return scheme + "://" + host + "/" + schemes.Escape(p.group, "/") + "/" + strconv.FormatInt(n, 10)
}
