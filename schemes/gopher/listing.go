package gopher

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"time"

	"github.com/urlget/urlget/schemes"
)

// maxHeld bounds the leading info and error lines of a menu that Fetch
// reads before it returns: a menu of nothing but those (and at least one
// error) is the server's "not found" and fails at once; past maxHeld lines
// the menu is streamed whatever it holds.
const maxHeld = 32

// menuListing streams the entries of a menu reply as its lines arrive,
// and owns the connection until the end of the menu or Close.
type menuListing struct {
	ctx  context.Context
	h    *Handler
	g    *URL
	c    net.Conn
	m    *menuReader
	tr   schemes.Trace
	plus bool       // a Gopher+ reply: no "." line is expected
	held []menuItem // items read ahead by prefetch, returned first
	done bool       // the menu ended; the connection is closed
	// exact is set for a Gopher+ reply of known length (+N): its end is
	// that length, so a "." line before it does not excuse the rest.
	exact bool
	// end is what ended the menu during prefetch (io.EOF, or the error of
	// a menu cut short), returned once the held items are given.
	end error
	// again is set for a plain menu from a plain request: asked again
	// the Gopher+ way if it ends without its "." line (askAgain).
	again *askAgain
	// req is set when the caller wants the entries' times
	// (Request.WantModTime): at the first Gopher+ item, a `$` request
	// fetches the attributes of every item (facts, nil until then), and
	// entries carry their Mod-Date, their first view's size (Extra
	// "view_size") and, for an item with an +ASK block, their Form.
	req   *schemes.Request
	facts *menuFacts
}

// prefetch reads the menu's leading info and error lines (at most
// maxHeld), and fails with KindNotFound when the whole menu is such lines
// with at least one error: UMN gopherd, pygopherd and gophernicus answer a
// missing selector so, some without a "." line (which is why a menu
// without one still counts here).
func (l *menuListing) prefetch() error {
	for len(l.held) < maxHeld {
		it, err := l.read()
		if errors.Is(err, io.EOF) || errors.Is(err, errNoEnd) {
			if msg := onlyErrors(l.held); msg != "" {
				return &schemes.Error{Scheme: l.g.u.Scheme, Phase: "retrieve", Kind: schemes.KindNotFound, Msg: msg}
			}
			l.end = err
			return nil
		}
		if err != nil {
			return err
		}
		l.held = append(l.held, it)
		if it.Type != '3' && it.Type != 'i' {
			return nil
		}
	}
	return nil
}

// next returns the next entry (menuItem.Entry), or io.EOF after the last.
func (l *menuListing) next() (schemes.Entry, error) {
	if len(l.held) > 0 {
		it := l.held[0]
		l.held = l.held[1:]
		return l.entry(it), nil
	}
	if l.end != nil {
		return schemes.Entry{}, l.end
	}
	it, err := l.read()
	if err != nil {
		return schemes.Entry{}, err
	}
	return l.entry(it), nil
}

// entry is it's entry, with the item's Mod-Date, its first view's size
// (Extra "view_size") and, when it has an +ASK block, its Form, when the
// caller wants times and the item is a Gopher+ one (the `$` request is
// sent at the first such item: a plain menu costs nothing more).
func (l *menuListing) entry(it menuItem) schemes.Entry {
	e := it.Entry(l.g.u.Scheme)
	if l.req == nil || it.Plus == "" || e.Locator == nil {
		return e
	}
	if l.facts == nil {
		f := l.h.modDates(l.ctx, l.req, l.g)
		l.facts = &f
	}
	if t, ok := l.facts.dates[it.Selector]; ok {
		e.ModTime, e.Precision = t, time.Second
	}
	if size, ok := l.facts.sizes[it.Selector]; ok {
		// An approximate size ("<1k>"): shown, never taken for Size.
		e.Extra.Set("view_size", size)
	}
	if g, ok := e.Locator.(*URL); ok && l.facts.asks[it.Selector] && e.Form == nil {
		e.Form = formAt(g)
	}
	return e
}

// read returns the next item from the server. At the end of the menu, or
// on an error, the connection is closed. Once the fetch's context is done
// it fails even when the rest of the menu is already buffered.
//
// A plain menu is whole only with its "." line (RFC 1436): one that
// ends without it fails with errNoEnd (as a *schemes.Error) after its
// items, since a connection closed early looks no different, and a
// mirror must not take the items it lacks for items deleted — unless the
// server, asked again the Gopher+ way, gives the same items under a header
// that says where they end (askAgain: pygopherd never ends a plain menu
// with "."). A Gopher+ reply ends where its header says: a +N one at N
// bytes (read to there even after a "." line, so that a short one fails),
// a +-1 one at its "." line (dotReader fails without it), a +-2 one when
// the server closes the connection (a reset or a timeout is an error, not
// an end). A +-2 end is one the protocol cannot confirm, as an FTP
// listing's 226 is not: a mirror's deletions stay behind its guards for
// a listing that shrank.
func (l *menuListing) read() (menuItem, error) {
	if l.done {
		return menuItem{}, io.EOF
	}
	if err := l.ctx.Err(); err != nil {
		l.finish()
		return menuItem{}, l.h.wrap(l.g, "menu", err)
	}
	it, err := l.m.next()
	if errors.Is(err, io.EOF) {
		if l.exact && l.m.terminated {
			if _, err := io.Copy(io.Discard, l.m.lr.br); err != nil {
				l.finish()
				return menuItem{}, l.h.wrap(l.g, "menu", err)
			}
		}
		l.finish()
		if !l.m.terminated && !l.plus {
			if l.askAgain() {
				return l.read()
			}
			if err := l.ctx.Err(); err != nil {
				return menuItem{}, l.h.wrap(l.g, "menu", err) // canceled while asking again
			}
			l.tr.Info(`menu ended without a "." line: it may be cut short`)
			return menuItem{}, l.noEnd()
		}
		return menuItem{}, io.EOF
	}
	if err != nil {
		l.finish()
		return menuItem{}, l.h.wrap(l.g, "menu", err)
	}
	if l.again != nil && !l.plus {
		l.again.add(it)
	}
	return it, nil
}

// errNoEnd is what a plain menu without its "." line fails with, under
// the *schemes.Error that noEnd makes of it.
var errNoEnd = errors.New(`the menu ended without its "." line: it may be cut short`)

// noEnd is the error of a plain menu that ended without its "." line:
// KindProtocol (exit 6), not retryable by itself, since some servers
// never send the line and a retry would end the same way.
func (l *menuListing) noEnd() error {
	return &schemes.Error{Scheme: l.g.u.Scheme, Phase: "menu", Kind: schemes.KindProtocol, Err: errNoEnd}
}

// finish closes the connection, once: the menu ended, or failed.
func (l *menuListing) finish() error {
	if l.done {
		return nil
	}
	l.done = true
	return l.c.Close()
}

// close ends the listing: a menu closed before its end is abandoned with
// its connection.
func (l *menuListing) close() error {
	l.held = nil
	return l.finish()
}

// onlyErrors returns the text of the error items when a menu holds
// nothing but error (3) and info (i) lines and at least one error.
func onlyErrors(items []menuItem) string {
	var msgs []string
	for _, it := range items {
		switch it.Type {
		case '3':
			msgs = append(msgs, strings.TrimSpace(it.Display))
		case 'i':
		default:
			return ""
		}
	}
	return strings.Join(msgs, "; ")
}

// attrListing streams the entries of a Gopher+ attribute reply (`!` for
// one item, `$` for each item of a directory) line by line, as a menu is
// streamed: the first line of a block ("+NAME: value") and each of its
// content lines are an info entry (infoEntry for +INFO, textEntry), in
// the server's layout (content lines keep their leading space); each view
// of a +VIEWS block is a file (viewEntry).
type attrListing struct {
	ctx context.Context
	h   *Handler
	g   *URL
	c   net.Conn
	lr  *lineReader
	// item is the item the blocks describe, whose views they list: the
	// requested one until an +INFO block names another; nil for an item
	// without a gopher URL.
	item  *URL
	block string // the name of the block being read, "" before the first
	done  bool
	// exact is set for a reply of known length (+N), read to that length
	// even after a "." line: a short one fails rather than passing for
	// whole. A +-1 reply's "." line is dotReader's to find (it fails
	// without one); a +-2 reply ends when the server closes.
	exact bool
}

// next returns the next entry, or io.EOF after the last.
func (l *attrListing) next() (schemes.Entry, error) {
	for {
		if l.done {
			return schemes.Entry{}, io.EOF
		}
		if err := l.ctx.Err(); err != nil {
			l.close()
			return schemes.Entry{}, l.h.wrap(l.g, "attributes", err)
		}
		line, err := l.lr.next()
		if err == nil && line == "." && l.exact {
			_, err = io.Copy(io.Discard, l.lr.br)
			if err == nil {
				err = io.EOF
			}
		}
		if errors.Is(err, io.EOF) || err == nil && line == "." {
			l.close()
			return schemes.Entry{}, io.EOF
		}
		if err != nil {
			l.close()
			return schemes.Entry{}, l.h.wrap(l.g, "attributes", err)
		}
		if e, ok := l.entry(line); ok {
			return e, nil
		}
	}
}

// entry turns one line into its entry; ok is false for a line that shows
// nothing (a blank line outside a block or in +VIEWS).
func (l *attrListing) entry(line string) (e schemes.Entry, ok bool) {
	if name, val, ok := blockStart(line); ok {
		l.block = name
		if !strings.EqualFold(name, "INFO") {
			return textEntry(name, strings.TrimSuffix(name+": "+val, " ")), true
		}
		it := parseMenuItem(strings.TrimSpace(val))
		l.item = nil
		if it.Valid {
			l.item = it.Locator(l.g.u.Scheme)
		}
		return infoEntry(name, val, it, l.item), true
	}
	switch {
	case strings.EqualFold(l.block, "VIEWS"):
		if v, ok := parseView(line); ok {
			return viewEntry(l.item, v), true
		}
		return schemes.Entry{}, false
	case l.block == "" && line == "":
		return schemes.Entry{}, false
	}
	return textEntry(l.block, line), true
}

// close closes the connection, once.
func (l *attrListing) close() error {
	if l.done {
		return nil
	}
	l.done = true
	return l.c.Close()
}

// with returns g with the given search and Gopher+ string (nil: none) and
// no fragment, formatted and parsed back so that it round-trips; nil if
// it does not parse.
func (g *URL) with(search, plus *string) *URL {
	u := *g.u
	u.Fragment = nil
	pu, err := schemes.Parse((&URL{Type: g.Type, Selector: g.Selector, Search: search, Plus: plus, u: &u}).String())
	if err != nil {
		return nil
	}
	n, err := Parse(pu)
	if err != nil {
		return nil
	}
	return n
}
