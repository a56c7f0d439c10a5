// Package gopher implements gopher and gophers URLs (RFC 1738 §3.4): the
// typed value (item type, selector, optional search and Gopher+ strings;
// url.go, pure parsing) and a Handler that retrieves them over transport,
// with Gopher+ views, attributes and +ASK forms (request.go, plus.go,
// menu.go, attrs.go, ask.go, listing.go, handler.go).
package gopher

import (
	"fmt"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// tab is the escaped TAB that separates selector, search and Gopher+ string
// in a gopher-path. The path is split on it before anything is decoded, so
// the three parts never hold a TAB of their own, except the Gopher+ string,
// the last part, which may (a submitted form, §3.4.9).
const tab = "%09"

// URL is a parsed gopher or gophers URL:
//
//	gopher://host:port/<type><selector>[%09<search>[%09<gopher+_string>]]
//
// "Within the gopher-path, no characters are reserved": "/", "?" and ";"
// are selector data. Selector, Search and Plus are decoded raw bytes (they
// may hold CR or LF; a handler checks before sending).
type URL struct {
	// Type is the gopher item type. It tells the client how to read the
	// reply and is not sent. An empty gopher-path means type '1'.
	Type byte
	// Selector is the selector string; "" is the server's top menu.
	Selector string
	// Search is the search string, nil when the URL has none. It is
	// present, possibly "", whenever Plus is: §3.4.3 makes a Gopher+ URL
	// carry "%09<search>" even when the search is empty, so
	// "1sel%09%09+" has Search "" and Plus "+".
	Search *string
	// Plus is the Gopher+ string ("+", "!", "$", "?", "+<view> <lang>",
	// "!+ABSTRACT +SMELL", or a whole form submission), nil if none.
	Plus *string

	u    *schemes.URL
	form *form // a form's answers, which have no URL syntax (answers.go)
}

var _ schemes.Locator = (*URL)(nil)

// Parse reads the gopher-specific parts of a generic URL whose scheme is
// gopher or gophers. Errors are *schemes.Error of KindUsage naming the part
// at fault: "scheme", "host", "user" or "type".
func Parse(u *schemes.URL) (*URL, error) {
	if u.Scheme != "gopher" && u.Scheme != "gophers" {
		return nil, u.SyntaxError("scheme", fmt.Sprintf("scheme %q is not gopher or gophers", u.Scheme))
	}
	u.DefaultPort = schemes.PortOf(declared, u.Scheme)
	if !u.Authority || u.Host == "" {
		return nil, u.SyntaxError("host", "missing host (want "+u.Scheme+"://host/<type><selector>)")
	}
	if u.User != nil {
		// The BNF has only hostport: a user would be silently dropped.
		return nil, u.SyntaxError("user", u.Scheme+" URLs have no user or password")
	}
	g := &URL{Type: '1', u: u}
	path := u.Path
	if path == "" {
		return g, nil
	}
	n := 1
	if path[0] == '%' { // the type may itself be escaped (gtype = xchar)
		n = 3
	}
	t, _ := schemes.Unescape(path[:n]) // the generic parser checked the escapes
	if c := t[0]; c <= ' ' || c >= 0x7F {
		return nil, u.SyntaxError("type", fmt.Sprintf("bad gopher type %q (want a printable character)", path[:n]))
	}
	g.Type = t[0]
	parts := strings.SplitN(path[n:], tab, 3)
	g.Selector, _ = schemes.Unescape(parts[0])
	if len(parts) > 1 {
		s, _ := schemes.Unescape(parts[1])
		g.Search = &s
	}
	if len(parts) > 2 {
		p, _ := schemes.Unescape(parts[2])
		g.Plus = &p
	}
	return g, nil
}

// Generic returns the scheme-independent parts (host, port).
func (g *URL) Generic() *schemes.URL { return g.u }

// String formats the URL in canonical form (schemes.FormatLocator) from
// its typed fields. Every TAB, CR, LF, space and unsafe character is
// written %XX; nothing else is, as no character is reserved in a
// gopher-path and each part is decoded before it is sent (RFC 1738 §3.4),
// so "%2F" and "/" give the same selector and the same string. The top
// menu (type '1', empty selector, no search) is written "/": §3.4.1 makes
// an empty gopher-path, with or without its "/", type 1 with the empty
// selector, so "gopher://h", "gopher://h/" and "gopher://h:70/1" are one
// URL.
func (g *URL) String() string { return schemes.FormatLocator(g.u, false, g.path()) }

// Redacted is String; gopher URLs carry no password, but Locator wants it.
func (g *URL) Redacted() string { return g.String() }

// path is the canonical "/" and gopher-path.
func (g *URL) path() string {
	if g.Type == '1' && g.Selector == "" && g.Search == nil && g.Plus == nil {
		return "/"
	}
	return "/" + schemes.Escape(string(g.Type), "") + g.TreePath()
}

// TreePath is the gopher-path without its item type: the selector, and
// the search and Gopher+ strings after it, escaped (schemes.TreePather).
// A menu and the items in it differ in their type, not in where their
// selectors put them.
func (g *URL) TreePath() string {
	var b strings.Builder
	b.WriteString(schemes.Escape(g.Selector, ""))
	if g.Search != nil || g.Plus != nil {
		b.WriteString(tab)
		if g.Search != nil {
			b.WriteString(schemes.Escape(*g.Search, ""))
		}
	}
	if g.Plus != nil {
		b.WriteString(tab)
		b.WriteString(schemes.Escape(*g.Plus, ""))
	}
	return b.String()
}

// Fields is the JSON object printed by `urlget parse`:
// {"type": "1", "selector": "...", "search": null|"...", "plus": null|"..."}.
func (g *URL) Fields() any {
	return fields{Type: string(g.Type), Selector: g.Selector, Search: g.Search, Plus: g.Plus}
}

type fields struct {
	Type     string  `json:"type"`
	Selector string  `json:"selector"`
	Search   *string `json:"search"`
	Plus     *string `json:"plus"`
}

// WithSearch is the URL of the search g names for words (schemes.Searcher):
// g with its search set, its Gopher+ string and fragment dropped. Only a
// search item (type 7) takes words.
func (g *URL) WithSearch(words string) (schemes.Locator, error) {
	if g.Type != '7' {
		return nil, g.u.SyntaxError("type", fmt.Sprintf("a gopher item of type %s is no search (type 7)", typeText(g.Type)))
	}
	n := g.with(&words, nil)
	if n == nil {
		return nil, g.u.SyntaxError("search", "the search cannot be written in a gopher URL")
	}
	return n, nil
}
