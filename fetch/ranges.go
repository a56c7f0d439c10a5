package fetch

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// SettingRange is a Request's byte range (Offset without a Partial,
// Length, Suffix, Ranges), which errors name in schemes.Error.Setting
// for a caller to word (urlget: -r).
const SettingRange = "fetch.Request.Range"

// contract is req's part of the handler's request that says which bytes
// it asks for: what schemes.Request's rules (Ranged, Range, TimeCondition)
// are read from.
func contract(req *Request) *schemes.Request {
	return &schemes.Request{Offset: req.Offset, Partial: req.Partial, Length: req.Length, Suffix: req.Suffix, Ranges: req.Ranges,
		IfModifiedSince: req.IfModifiedSince, IfUnmodifiedSince: req.IfUnmodifiedSince}
}

// checkRange refuses a byte range that cannot be meant (KindUsage), and
// takes a list of one range as that range.
func checkRange(req *Request) error {
	bad := func(msg string) error {
		return &schemes.Error{Scheme: req.URL.Generic().Scheme, Phase: "fetch", Kind: schemes.KindUsage, URL: req.URL.Redacted(),
			Setting: SettingRange, Msg: msg}
	}
	oneRange(req)
	switch {
	case req.Offset < 0 || req.Length < 0 || req.Suffix < 0:
		return bad("a byte range of negative numbers")
	case req.Suffix > 0 && (req.Offset > 0 || req.Length > 0), len(req.Ranges) > 0 && (req.Offset > 0 || req.Length > 0 || req.Suffix > 0):
		return bad("a byte range is an Offset and Length, a Suffix, or Ranges: not two of them")
	case len(req.Ranges) > 0 && req.Partial != (schemes.Partial{}):
		return bad("several byte ranges cannot continue a partial copy")
	case contract(req).Ranged() && req.method() != MethodGet:
		return bad("a byte range is asked for with MethodGet only")
	}
	return nil
}

// oneRange takes a list of one range (Request.Ranges) as that range.
func oneRange(req *Request) {
	if len(req.Ranges) == 1 && req.Offset == 0 && req.Length == 0 && req.Suffix == 0 {
		r := req.Ranges[0]
		req.Ranges, req.Offset, req.Length, req.Suffix = nil, r.First, r.Length, r.Suffix
	}
}

// rangeCaps refuses a byte range to a scheme that cannot send one
// (KindUnsupported, naming what it lacks), at each hop of a redirect.
func rangeCaps(s schemes.Scheme, loc schemes.Locator, req *Request) error {
	need, what := schemes.Ranges, "a byte range"
	switch {
	case len(req.Ranges) > 0:
		need, what = schemes.MultiRanges, "several byte ranges at once"
	case !contract(req).Ranged():
		return nil
	}
	if s.Caps.Has(need) {
		return nil
	}
	g := loc.Generic()
	why := "the scheme has no request for part of a resource"
	if s.Caps.Has(schemes.Ranges) {
		why = "the scheme asks for one range a request"
	}
	return &schemes.Error{Scheme: g.Scheme, Phase: "fetch", Kind: schemes.KindUnsupported, URL: loc.Redacted(), Part: "scheme",
		Setting: SettingRange, Msg: fmt.Sprintf("%s: URLs cannot be asked for %s: %s (it %s)", g.Scheme, what, why, capsText(s.Caps))}
}

// capsText says what a scheme can do, for a refusal: "retrieves, lists".
func capsText(c schemes.Caps) string {
	if c == 0 {
		return "does nothing yet"
	}
	return "can: " + strings.ReplaceAll(c.String(), ",", ", ")
}

// shape makes r's Body what req asks for, whatever the server sent: a
// time condition the server did not apply is applied to the time it
// told, a body that starts before a range is read past the bytes before
// it, and one that runs past the range's end is cut there. Several
// ranges are left as the server sent them.
func (c *Client) shape(req *Request, r *Response) error {
	if r == nil || r.Body == nil || req.method() != MethodGet || r.NotModified || r.Changed || r.Failure != nil {
		return nil // (an error page, taken as the resource, is written whole, as curl writes it)
	}
	c.condition(req, r)
	if r.NotModified || r.Changed || len(req.Ranges) > 0 {
		return nil
	}
	return c.cut(req, r)
}

// condition compares r's time with req's time conditions where the
// handler did not (a server that ignored them, a scheme that is told a
// time only with the data): a resource they leave unsent is closed and
// answered NotModified or Changed with an empty Body, as curl simulates
// a 304 (and, for a Conditional scheme, the Status its server should have
// given: 304 or 412). An unknown time is noted and meets them.
func (c *Client) condition(req *Request, r *Response) {
	sr := contract(req)
	if req.IfModifiedSince.IsZero() && req.IfUnmodifiedSince.IsZero() || req.Partial != (schemes.Partial{}) {
		return
	}
	if r.ModTime.IsZero() {
		c.trace().Info(r.URL.Redacted() + ": the server tells no modification time to compare with the time condition: retrieving it")
		return
	}
	notModified, changed := sr.TimeCondition(r.ModTime, r.Precision)
	if !notModified && !changed {
		return
	}
	r.Body.Close()
	r.Body = io.NopCloser(strings.NewReader(""))
	r.NotModified, r.Changed = notModified, changed
	if c.Caps(r.URL).Has(schemes.Conditional) {
		// What the server should have answered (curl reports its 304
		// likewise): a caller's -w shows the condition's outcome.
		r.Status = http.StatusNotModified
		if changed {
			r.Status = http.StatusPreconditionFailed
		}
	}
	c.trace().Info(fmt.Sprintf("%s: modified %s, which the time condition leaves unsent: transfer stopped",
		r.URL.Redacted(), r.ModTime.UTC().Format("2006-01-02T15:04:05Z")))
}

// cut makes r's Body the byte range req asks for (ranged), or the rest of
// a range being continued: past the bytes before the range when the
// server sent from an earlier byte, and ending at the range's end. It
// records the range's first byte (Response.first), from which CopyBody
// counts.
func (c *Client) cut(req *Request, r *Response) error {
	sr := contract(req)
	ranged := sr.Ranged()
	if !ranged && req.Length <= 0 {
		return nil
	}
	start, err := c.rangeStart(req, r)
	if err != nil {
		return err
	}
	if r.Offset != start {
		if !ranged {
			return nil // a continuation the server did not continue: the caller judges it
		}
		if err := c.skip(req, r, start); err != nil {
			return err
		}
	}
	if ranged {
		r.first = start
	}
	if req.Length <= 0 {
		return nil
	}
	end := req.Offset + req.Length
	if r.Size >= 0 {
		end = min(end, r.Size)
	}
	if e := r.End(); e >= 0 && e <= end {
		return nil // the handler bounded it, or the resource ends first
	}
	r.Body = &cutBody{ReadCloser: r.Body, left: end - r.Offset}
	if r.Size >= 0 {
		r.Length = end - r.Offset
	}
	return nil
}

// rangeStart is the first byte of the bytes req asks for in r: its
// Offset, or for its last N bytes where r (the handler, or the size it
// tells) places them.
func (c *Client) rangeStart(req *Request, r *Response) (int64, error) {
	switch {
	case req.Suffix <= 0:
		return req.Offset, nil
	case r.Offset > 0 || r.Length > 0 || r.Size >= 0 && r.Size <= req.Suffix:
		return r.Offset, nil
	case r.Size >= 0:
		return r.Size - req.Suffix, nil
	}
	g := r.URL.Generic()
	return 0, &schemes.Error{Scheme: g.Scheme, Phase: "range", Kind: schemes.KindProtocol, URL: r.URL.Redacted(), Setting: SettingRange,
		Msg: fmt.Sprintf("the server sent the whole resource without its size: where its last %d bytes start cannot be told", req.Suffix)}
}

// skip reads r's Body past the bytes before start, for a server that sent
// the whole resource instead of the range: the caller then gets the range
// exactly, as asked, where curl writes the whole resource.
func (c *Client) skip(req *Request, r *Response, start int64) error {
	g := r.URL.Generic()
	if r.Offset > start {
		return &schemes.Error{Scheme: g.Scheme, Phase: "range", Kind: schemes.KindProtocol, URL: r.URL.Redacted(),
			Msg: fmt.Sprintf("asked for byte %d on, the server sent from byte %d", start, r.Offset)}
	}
	c.notify("%s: the server sent the whole resource, not the range asked for: the %d bytes before byte %d are read and dropped",
		r.URL.Redacted(), start-r.Offset, start)
	n, err := io.CopyN(io.Discard, r.Body, start-r.Offset)
	if errors.Is(err, io.EOF) {
		short := &schemes.Request{Offset: start} // the range's first byte is past the end
		return withURL(short.RangeError(g.Scheme, r.Offset+n, 0), r.URL)
	}
	if err != nil {
		return interrupted(r.URL, err)
	}
	r.Offset = start
	return nil
}

// cutBody ends a Body at a range's end: left more bytes, then io.EOF.
// Closing it closes the body it cuts, which stops a transfer that would
// send more (an FTP ABOR, an HTTP connection closed).
type cutBody struct {
	io.ReadCloser
	left int64
}

func (b *cutBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	if b.left <= 0 && (err == nil || err == io.EOF) {
		return n, io.EOF
	}
	return n, err
}

// asked is the byte range a Download or a Stream asks for across its
// attempts: as the caller asked it, and where it starts once the first
// answer placed it (a suffix's first byte), so that a later attempt asks
// for the rest of it after the bytes held.
type asked struct {
	req    Request
	first  int64 // the range's first byte, once placed
	placed bool
}

func askedOf(req *Request) *asked {
	a := &asked{req: *req}
	oneRange(&a.req)
	a.reset()
	return a
}

// reset forgets where an answer placed the range: the resource is asked
// for again from the range's start.
func (a *asked) reset() { a.first, a.placed = a.req.Offset, a.req.Suffix == 0 }

// ranged says whether the caller asked for a byte range.
func (a *asked) ranged() bool { return contract(&a.req).Ranged() }

// place records where r, the answer to an attempt, put the range.
func (a *asked) place(r *Response) {
	if r.Failure != nil {
		return // an error page, written whole: no range of it
	}
	if !a.placed {
		a.first, a.placed = r.Offset, true
	}
	r.first = a.first
}

// next is the request of an attempt that holds held bytes of the range
// (of the resource, when none was asked), which the first answer's
// partial describes; resumes says the scheme continues partial copies
// under the resume rule (schemes.Resumes), else the rest is asked for as
// a range of its own. done is true when nothing is left to ask for.
func (a *asked) next(held int64, partial schemes.Partial, resumes bool) (try Request, done bool) {
	try = a.req
	switch {
	case held == 0:
		return try, false
	case !a.ranged():
		try.Offset, try.Partial = held, partial
		return try, false
	case len(a.req.Ranges) > 0 || !a.placed:
		return try, false // asked whole again: the caller finds it does not continue
	}
	try.Offset, try.Suffix = a.first+held, 0
	if a.req.Length > 0 {
		if try.Length = a.req.Length - held; try.Length <= 0 {
			return try, true
		}
	}
	if resumes {
		try.Partial = partial
	}
	return try, false
}
