package http

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/url"
	"strings"

	"golang.org/x/net/html"

	"github.com/urlget/urlget/schemes"
)

// Bounds of an index page: whatever a server sends, a listing holds at most
// maxIndexEntries entries and no token (a tag with its attributes, a run of
// text) longer than maxIndexToken bytes is read.
const (
	maxIndexEntries = 1_000_000
	maxIndexToken   = 64 << 10
	// maxFigures bounds the text after a link that is kept to find the
	// size and time an index shows beside it.
	maxFigures = 512
)

var _ schemes.Lister = (*Handler)(nil)

// List reads the page req.URL designates as a directory index — what
// nginx's autoindex, Apache's mod_autoindex and many hand-made pages show
// — and streams its entries as they are parsed (golang.org/x/net/html's
// tokenizer, nothing held but the entry at hand). An entry is a link to
// one path segment below the page's directory, on the same scheme, host
// and port, without query or fragment: a file, or a directory when the
// link ends in "/". Links up, elsewhere, deeper, to the page itself, and
// the sort links of an index ("?C=N;O=D") are left out, and a name given
// twice counts once. Sizes and times are read where an index shows them
// beside the link (see figures). A 3xx is Response.Redirect, as from
// Fetch; a page that is not HTML fails with KindUsage.
func (h *Handler) List(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	resp, err := h.Fetch(ctx, req)
	if err != nil || resp.Redirect != "" {
		return resp, err
	}
	loc, err := locator(req)
	if err != nil {
		resp.Body.Close()
		return nil, err
	}
	if mt, _, _ := mime.ParseMediaType(resp.Type); resp.Type != "" && mt != "text/html" && mt != "application/xhtml+xml" {
		resp.Body.Close()
		return nil, &schemes.Error{Scheme: loc.g.Scheme, Phase: "list", Kind: schemes.KindUsage, URL: loc.Redacted(),
			Msg: fmt.Sprintf("not an HTML index page (Content-Type %q): nothing to list", resp.Type)}
	}
	ix := newIndexReader(loc, resp.Body)
	return &schemes.Response{Listing: schemes.ListingFunc(ix.next, resp.Body.Close), Kind: schemes.EntryDir, Size: -1,
		Type: resp.Type, Status: resp.Status, Name: resp.Name}, nil
}

// indexReader turns an index page into entries as its tokens arrive.
type indexReader struct {
	z    *html.Tokenizer
	page *URL
	dir  string // the page's directory path, canonical, ending in "/"
	seen map[string]bool
	n    int

	link    *schemes.Entry // the last link, whose figures are being read
	after   bool           // its </a> was seen: text now is its figures
	figures strings.Builder
	ready   *schemes.Entry // an entry finished while reading the next link
}

func newIndexReader(page *URL, body io.Reader) *indexReader {
	z := html.NewTokenizer(body)
	z.SetMaxBuf(maxIndexToken)
	dir := page.g.Path
	if i := strings.LastIndexByte(dir, '/'); i >= 0 {
		dir = dir[:i+1]
	} else {
		dir = ""
	}
	return &indexReader{z: z, page: page, dir: "/" + dir, seen: map[string]bool{}}
}

// next returns the next entry, io.EOF after the last.
func (ix *indexReader) next() (schemes.Entry, error) {
	for {
		if ix.ready != nil {
			e := *ix.ready
			ix.ready = nil
			return e, nil
		}
		switch ix.z.Next() {
		case html.ErrorToken:
			err := ix.z.Err()
			if ix.link != nil {
				ix.finish() // the last link, then the end
				continue
			}
			if err == io.EOF {
				return schemes.Entry{}, io.EOF
			}
			if errors.Is(err, html.ErrBufferExceeded) {
				return schemes.Entry{}, ix.fail(fmt.Sprintf("a tag or text of the index page is longer than %d bytes", maxIndexToken))
			}
			return schemes.Entry{}, err // a read error of the body: already a *schemes.Error
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := ix.z.TagName()
			switch string(name) {
			case "a":
				ix.finish()
				if e := ix.entry(ix.href(hasAttr)); e != nil {
					if ix.n++; ix.n > maxIndexEntries {
						return schemes.Entry{}, ix.fail(fmt.Sprintf("the index page lists more than %d entries", maxIndexEntries))
					}
					ix.link, ix.after = e, false
					ix.figures.Reset()
				}
			case "tr", "li", "p", "div", "table", "pre":
				ix.finish()
			}
		case html.EndTagToken:
			name, _ := ix.z.TagName()
			switch string(name) {
			case "a":
				ix.after = ix.link != nil
			case "tr", "li", "p", "div", "table", "pre":
				ix.finish()
			}
		case html.TextToken:
			if ix.after && ix.figures.Len() < maxFigures {
				t := ix.z.Text()
				ix.figures.Write(t[:min(len(t), maxFigures-ix.figures.Len())])
				if strings.ContainsRune(ix.figures.String(), '\n') {
					ix.finish() // nginx and Apache's <pre>: one entry a line
				}
			}
		}
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

// href is the value of the href attribute of the tag at hand.
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

// entry is the entry a link makes, or nil when it makes none.
func (ix *indexReader) entry(href string) *schemes.Entry {
	if href == "" || strings.ContainsAny(href, "?#") {
		return nil // none, the page itself, a sort link, a fragment
	}
	abs, err := schemes.Resolve(ix.page.String(), strings.TrimSpace(href))
	if err != nil {
		return nil
	}
	g, err := schemes.Parse(abs)
	if err != nil || g.Scheme != ix.page.g.Scheme || g.Host != ix.page.g.Host || g.EffectivePort() != ix.page.g.EffectivePort() {
		return nil
	}
	if g.User == nil { // an absolute link on the same server: the page's login goes with it
		g.User, g.Password = ix.page.g.User, ix.page.g.Password
	}
	loc, err := Parse(g)
	if err != nil {
		return nil
	}
	p := "/" + loc.g.Path
	rest, ok := strings.CutPrefix(p, ix.dir)
	seg, isDir := strings.CutSuffix(rest, "/")
	if !ok || seg == "" || strings.Contains(seg, "/") {
		return nil // up, elsewhere, deeper, or the directory itself
	}
	name, err := url.PathUnescape(seg)
	if err != nil || name == "." || name == ".." || ix.seen[name] {
		return nil // an escaped dot segment leads up or nowhere
	}
	ix.seen[name] = true
	e := &schemes.Entry{Kind: schemes.EntryFile, Size: -1, Locator: loc}
	if isDir {
		e.Kind = schemes.EntryDir
	}
	e.SetName(name)
	return e
}

func (ix *indexReader) fail(msg string) error {
	return &schemes.Error{Scheme: ix.page.g.Scheme, Phase: "list", Kind: schemes.KindProtocol, URL: ix.page.Redacted(), Msg: msg}
}
