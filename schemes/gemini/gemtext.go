package gemini

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// maxLinks bounds the links one document may give, and maxLine its lines:
// a listing is a page someone wrote, and one that never ends is a server
// misbehaving.
const (
	maxLinks = 100000
	maxLine  = 1 << 20
)

// link is one text/gemini link line (specification §5.4.2):
//
//	=>[<whitespace>]<URL>[<whitespace><USER-FRIENDLY LINK NAME>]
type link struct {
	URL, Label string
}

// parseLink reads a link line; ok is false for any other line, and for a
// link line with no URL.
func parseLink(line string) (l link, ok bool) {
	rest, isLink := strings.CutPrefix(line, "=>")
	if !isLink {
		return link{}, false
	}
	rest = strings.TrimLeft(rest, " \t")
	i := strings.IndexAny(rest, " \t")
	if i < 0 {
		return link{URL: rest}, rest != ""
	}
	return link{URL: rest[:i], Label: strings.TrimSpace(rest[i:])}, true
}

// entryOf is the listing entry of l on the page base: its URL resolved
// against the page. A gemini link gets a Locator (kept to the page's
// server when crawling: a link elsewhere is a link, with its Target); a
// link to another scheme is an EntryLink with its URL as Target, which
// the caller may follow through its own registry. Kind is dir for a path
// ending in "/" and file otherwise: gemini does not say, and a capsule's
// directories are written with a "/".
func entryOf(base *URL, l link) (schemes.Entry, bool) {
	abs, err := schemes.Resolve(base.String(), l.URL)
	if err != nil {
		return schemes.Entry{}, false
	}
	e := schemes.Entry{Title: l.Label, Size: -1, Target: abs}
	gu, err := schemes.Parse(abs)
	if err != nil {
		return schemes.Entry{}, false
	}
	if gu.Scheme != "gemini" {
		e.Kind = schemes.EntryLink
		e.Title = firstOf(l.Label, abs)
		return e, true
	}
	loc, err := Parse(gu)
	if err != nil {
		return schemes.Entry{}, false
	}
	e.Locator, e.Target = loc, ""
	if loc.u.Host != base.u.Host || loc.u.EffectivePort() != base.u.EffectivePort() {
		// another server: a link, not part of this capsule's tree
		e.Kind, e.Target, e.Title = schemes.EntryLink, abs, firstOf(l.Label, abs)
		e.Locator = nil
		return e, true
	}
	e.Kind = schemes.EntryFile
	if loc.Path == "" || strings.HasSuffix(loc.Path, "/") {
		e.Kind = schemes.EntryDir
	}
	if loc.Query == nil {
		seg := strings.TrimSuffix(loc.Path, "/")
		if name, err := schemes.Unescape(seg[strings.LastIndexByte(seg, '/')+1:]); err == nil {
			e.SetName(name)
		}
	}
	if e.Name == "" || e.Title == e.Name {
		e.Title = firstOf(l.Label, abs)
		if e.Title == e.Name {
			e.Title = ""
		}
	}
	return e, true
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// gemtextListing streams the links of a text/gemini body as entries, in
// the document's order; preformatted blocks (between "```" lines) hold
// no links. With text (a caller that browses: schemes.Request.Browse)
// every other line comes too, as an EntryInfo whose Title is the line as
// written (a heading keeps its "#"), so that a page made of the entries
// reads as the document; the "```" lines themselves are markup and
// dropped. It ends whole at the server's close (TLS close_notify: a
// truncation is the read error crypto/tls reports).
func gemtextListing(base *URL, body io.ReadCloser, text bool) schemes.Listing {
	br := bufio.NewReaderSize(body, 64<<10)
	pre, n, links := false, 0, 0
	next := func() (schemes.Entry, error) {
		for {
			line, err := br.ReadString('\n')
			if len(line) > maxLine {
				return schemes.Entry{}, &schemes.Error{Scheme: "gemini", Phase: "list", Kind: schemes.KindProtocol,
					Msg: fmt.Sprintf("line %d of the document is longer than %d bytes", n+1, maxLine)}
			}
			if line == "" && err != nil {
				if errors.Is(err, io.EOF) {
					return schemes.Entry{}, io.EOF
				}
				return schemes.Entry{}, schemes.IOError("gemini", "list", err)
			}
			n++
			line = strings.TrimRight(line, "\r\n")
			if strings.HasPrefix(line, "```") {
				pre = !pre
				continue
			}
			info := schemes.Entry{Kind: schemes.EntryInfo, Title: line, Size: -1}
			if pre {
				if text {
					return info, nil
				}
				continue
			}
			l, ok := parseLink(line)
			var e schemes.Entry
			if ok {
				e, ok = entryOf(base, l)
			}
			if !ok {
				if text {
					return info, nil // a link with no usable URL is shown as written
				}
				continue
			}
			if links++; links > maxLinks {
				return schemes.Entry{}, &schemes.Error{Scheme: "gemini", Phase: "list", Kind: schemes.KindProtocol,
					Msg: fmt.Sprintf("the document gives more than %d links (the limit)", maxLinks)}
			}
			return e, nil
		}
	}
	return schemes.ListingFunc(next, body.Close)
}
