package http

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"golang.org/x/net/html"

	"github.com/urlget/urlget/schemes"
)

// Bounds of an index page: whatever a server sends, a listing gives at
// most maxIndexEntries entries and reads no token (a tag with its
// attributes, a run of text, a whole <script>) longer than maxIndexToken
// bytes; past either it fails with an error naming the limit. A token is
// what the tokenizer must hold whole, so this bounds its buffer; a page
// with a large inline script or stylesheet still lists.
const (
	maxIndexEntries = 1_000_000
	maxIndexToken   = 1 << 20
	// maxFigures bounds the text after a link that is kept to find the
	// size and time an index shows beside it (a line of nginx's or
	// Apache's is under 200 bytes).
	maxFigures = 512
	// sniffLen is how much of a page without a Content-Type is read to
	// tell whether it is HTML: all http.DetectContentType looks at.
	sniffLen = 512
)

var _ schemes.Lister = (*Handler)(nil)

// List reads the page req.URL designates as a directory index — what
// nginx's autoindex, Apache's mod_autoindex and many hand-made pages show
// — and streams its entries as they are parsed (golang.org/x/net/html's
// tokenizer; nothing is held but the token and the entry at hand). The
// request is Fetch's GET, with its Dialer, trace, TLS, proxy and error
// mapping (404 is not found, 503 busy); a 3xx is Response.Redirect, for
// the fetch Client to follow. The page must be HTML by its Content-Type,
// or, without one, by its first bytes; anything else fails with
// KindUsage naming what it is.
//
// req.URL is the directory, whatever its syntax suggests, as the Lister
// contract has it: "http://h/pub" lists /pub/ as "http://h/pub/" does,
// and its relative links are read against "http://h/pub/" (see
// linkRules for which links are entries). Sizes and times come from the
// text beside each link where an index shows them (see figures). The
// page's own bytes go to req.Page as they are read (Caps Pages), and its
// Last-Modified is the Response's ModTime. Closing
// the listing closes the response body, as closing Fetch's Body does: a
// page read to its end leaves the connection for reuse.
func (h *Handler) List(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	if h.submits() {
		// Its entries would be fetched with the body too (submitting).
		return nil, &schemes.Error{Scheme: req.URL.Generic().Scheme, Phase: "request", Kind: schemes.KindUnsupported,
			Msg: "a handler that sends a request body or another method than GET lists nothing"}
	}
	// A listing is read whole: never resumed, never answered "not
	// modified" (a 304 has no page to list), and an error status's page
	// is no index (ErrorPages, FailWithBody): the status fails.
	whole := req.Whole()
	whole.ErrorPages = false
	resp, err := h.fetch(ctx, whole, false)
	if err != nil || resp.Redirect != "" {
		return resp, err
	}
	loc, err := schemes.LocatorOf[*URL](req)
	if err != nil { // Fetch has checked it; kept for the type assertion
		resp.Body.Close()
		return nil, err
	}
	page, err := htmlBody(loc, resp)
	if err != nil {
		resp.Body.Close()
		return nil, err
	}
	if req.Page != nil {
		// Only now that the page is one: a failed List writes nothing
		// (a retry starts no page of its own after a part of another).
		// What htmlBody sniffed is still in its buffer, read through here.
		page = io.TeeReader(page, req.Page)
	}
	ix := newIndexReader(ctx, loc, page)
	ix.framing = framingOfBody(resp.Body)
	return &schemes.Response{Listing: schemes.ListingFunc(ix.next, resp.Body.Close), Kind: schemes.EntryDir, Size: -1,
		Type: resp.Type, Status: resp.Status, Name: ix.links.dirName(), ModTime: resp.ModTime, Precision: resp.Precision}, nil
}

// htmlBody returns resp's body to read as HTML, or a KindUsage error when
// resp is not an HTML page: its Content-Type says it is something else,
// or it has none and its first sniffLen bytes are not HTML by the WHATWG
// sniffing rules (http.DetectContentType), as a browser would decide.
func htmlBody(loc *URL, resp *schemes.Response) (io.Reader, error) {
	if strings.TrimSpace(resp.Type) != "" {
		if isHTML(resp.Type) {
			return resp.Body, nil
		}
		return nil, notIndex(loc, fmt.Sprintf("Content-Type %q", resp.Type))
	}
	br := bufio.NewReaderSize(resp.Body, sniffLen)
	head, err := br.Peek(sniffLen)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err // a read error of the body: already a *schemes.Error
	}
	if t := http.DetectContentType(head); !isHTML(t) {
		return nil, notIndex(loc, fmt.Sprintf("no Content-Type, and its first bytes are %s", t))
	}
	return br, nil
}

// isHTML reports whether the media type ct is HTML (XHTML included).
func isHTML(ct string) bool {
	mt, _, _ := mime.ParseMediaType(ct) // the type, even when a parameter is malformed
	return mt == "text/html" || mt == "application/xhtml+xml"
}

// notIndex is the error for a page that is no HTML index; what says what
// it is instead.
func notIndex(loc *URL, what string) error {
	return &schemes.Error{Scheme: loc.g.Scheme, Phase: "list", Kind: schemes.KindUsage,
		Msg: "not an HTML index page (" + what + "): nothing to list"}
}

// indexReader turns an index page into entries as its tokens arrive. An
// entry is given once the text after its link has been read to the end
// of its line or table row, where an index shows the size and time.
type indexReader struct {
	ctx   context.Context
	z     *html.Tokenizer
	links *linkRules

	err     error           // what ended the page, given after the last entry
	link    *schemes.Entry  // the last link that made an entry, whose figures are being read
	after   bool            // its </a> was seen: text now is its figures
	inRow   bool            // inside a <tr>: a newline does not end the figures, </tr> does
	figures strings.Builder // at most maxFigures bytes
	ready   *schemes.Entry  // the entry finished by the token just read

	// framing, and whether an <html> start tag (opened) and its end tag
	// (closed) were seen, decide whether the page is whole at its end
	// (pageEnd).
	framing        framing
	opened, closed bool
}

func newIndexReader(ctx context.Context, page *URL, body io.Reader) *indexReader {
	z := html.NewTokenizer(body)
	z.SetMaxBuf(maxIndexToken)
	return &indexReader{ctx: ctx, z: z, links: newLinkRules(page)}
}

// next returns the next entry, io.EOF after the last. Like a Fetch body
// it stops at once when ctx is done, even with more of the page buffered.
func (ix *indexReader) next() (schemes.Entry, error) {
	for {
		if ix.ready != nil {
			e := *ix.ready
			ix.ready = nil
			return e, nil
		}
		if ix.err != nil {
			return schemes.Entry{}, ix.err
		}
		if err := ix.ctx.Err(); err != nil {
			return schemes.Entry{}, schemes.IOError(ix.links.page.g.Scheme, "list", err)
		}
		if err := ix.step(); err != nil {
			ix.err = err
			ix.finish() // the link at hand is an entry before the end
		}
	}
}

// step reads one token. It returns the error that ends the page: io.EOF,
// a read error of the body, or a limit passed.
func (ix *indexReader) step() error {
	switch ix.z.Next() {
	case html.ErrorToken:
		return ix.end(ix.z.Err())
	case html.StartTagToken, html.SelfClosingTagToken:
		name, hasAttr := ix.z.TagName()
		switch string(name) {
		case "html":
			ix.opened = true
		case "a":
			ix.finish()
			e, err := ix.links.entry(ix.href(hasAttr))
			if err != nil {
				return err
			}
			if e != nil {
				ix.link, ix.after = e, false
				ix.figures.Reset()
			}
		case "td", "th":
			ix.cell()
		case "tr":
			ix.finish()
			ix.inRow = true
		case "table", "li", "p", "div", "pre", "br", "hr", "ul", "ol", "dt", "dd":
			ix.finish()
			ix.inRow = false
		}
	case html.EndTagToken:
		name, _ := ix.z.TagName()
		switch string(name) {
		case "html":
			ix.closed = true
		case "a":
			ix.after = ix.link != nil
		case "td", "th":
			ix.cell()
		case "tr", "table", "li", "p", "div", "pre", "ul", "ol", "dt", "dd":
			ix.finish()
			ix.inRow = false
		}
	case html.TextToken:
		if !ix.after {
			return nil
		}
		t := ix.z.Text()
		line, ended := t, false
		if i := bytes.IndexByte(t, '\n'); i >= 0 && !ix.inRow {
			line, ended = t[:i], true // nginx's and Apache's <pre>: one entry a line
		}
		ix.figures.Write(line[:min(len(line), maxFigures-ix.figures.Len())])
		if ended {
			ix.finish()
		}
	}
	return nil
}

// cell keeps table cells apart in the figures ("2026-11-23 10:05" and
// "1.2K" are two cells of Apache's HTMLTable).
func (ix *indexReader) cell() {
	if ix.after && ix.figures.Len() < maxFigures {
		ix.figures.WriteByte(' ')
	}
}

// finish completes the link at hand with the figures read after it.
func (ix *indexReader) finish() {
	if ix.link == nil {
		return
	}
	e := ix.link
	e.Size, e.ModTime, e.Precision = figures(ix.figures.String(), e.Kind == schemes.EntryDir)
	ix.link, ix.after, ix.ready = nil, false, e
	ix.figures.Reset()
}

// end is what the tokenizer's error means for the listing. The body's
// end is the page's only when pageEnd says the page is whole: otherwise
// the listing fails (KindProtocol), so that a mirror deletes nothing on
// the word of a page that may be cut short.
func (ix *indexReader) end(err error) error {
	var se *schemes.Error
	switch {
	case errors.Is(err, io.EOF):
		if why := pageEnd(ix.framing, ix.opened, ix.closed); why != "" {
			return ix.links.fail(why)
		}
		return io.EOF
	case errors.Is(err, html.ErrBufferExceeded):
		return ix.links.fail(fmt.Sprintf("a tag or run of text of the index page is longer than %d bytes (the limit)", maxIndexToken))
	case errors.As(err, &se):
		return err // a read error of the body, classified by body.Read
	}
	return ix.links.fail("reading the index page: " + err.Error())
}

// href is the value of the href attribute of the tag at hand ("" when it
// has none), entities decoded by the tokenizer.
func (ix *indexReader) href(hasAttr bool) string {
	for hasAttr {
		var k, v []byte
		k, v, hasAttr = ix.z.TagAttr()
		if string(k) == "href" {
			return string(v)
		}
	}
	return ""
}
