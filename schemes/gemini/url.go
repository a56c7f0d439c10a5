// Package gemini implements gemini URLs and a Handler that retrieves them
// (the Gemini protocol specification, gemini://geminiprotocol.net/docs/
// protocol-specification.gmi): the typed value (url.go, pure parsing),
// the status line (status.go), text/gemini links as a listing
// (gemtext.go), servers' certificates by trust on first use
// (knownhosts.go), and the exchange (handler.go).
package gemini

import (
	"fmt"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// maxRequest is the longest URL a request may carry: "a UTF-8 encoded
// absolute URL ... of maximum length 1024 bytes" (specification §2).
const maxRequest = 1024

// URL is a parsed gemini URL:
//
//	gemini://host[:port]/path[?query]
//
// Path and Query stay escaped as written (RFC 3986 syntax, which the
// specification uses): the request is the URL itself, so they are sent as
// they are, never decoded.
type URL struct {
	// Path is the path after the host's "/", escaped; "" for the root.
	Path string
	// Query is the query after "?", escaped; nil when the URL has none.
	Query *string

	u *schemes.URL
}

var _ schemes.Locator = (*URL)(nil)
var _ schemes.Searcher = (*URL)(nil)

// Parse reads the gemini parts of a generic URL. Errors are
// *schemes.Error of KindUsage naming the part at fault: "scheme", "host",
// "user" (the specification forbids userinfo), "path" (a control
// character or space, which could not be a request line's URL).
func Parse(u *schemes.URL) (*URL, error) {
	if u.Scheme != "gemini" {
		return nil, u.SyntaxError("scheme", fmt.Sprintf("scheme %q is not gemini", u.Scheme))
	}
	u.DefaultPort = schemes.PortOf(declared, u.Scheme)
	if !u.Authority || u.Host == "" {
		return nil, u.SyntaxError("host", "missing host (want gemini://host/path)")
	}
	if u.User != nil || u.Password != nil {
		return nil, u.SyntaxError("user", "a gemini URL has no user or password (the specification forbids userinfo)")
	}
	p := u.Path
	g := &URL{u: u}
	if i := strings.IndexByte(p, '?'); i >= 0 {
		q := p[i+1:]
		g.Query = &q
		p = p[:i]
	}
	g.Path = p
	if bad := strings.IndexFunc(u.Path, func(r rune) bool { return r <= ' ' || r == 0x7f }); bad >= 0 {
		return nil, u.SyntaxError("path", "a control character or space in the path or query (write it %XX): the request line is the URL")
	}
	return g, nil
}

// Generic returns the scheme-independent parts (host, port, fragment).
func (g *URL) Generic() *schemes.URL { return g.u }

// String formats the URL in canonical form (schemes.FormatLocator): the
// root is "/" ("gemini://h" and "gemini://h/" are one URL), the port is
// left out when it is 1965, path and query are as written.
func (g *URL) String() string { return schemes.FormatLocator(g.u, false, g.rest()) }

// Redacted is String: a gemini URL carries no password.
func (g *URL) Redacted() string { return g.String() }

// rest is "/" path ["?" query].
func (g *URL) rest() string {
	s := "/" + g.Path
	if g.Query != nil {
		s += "?" + *g.Query
	}
	return s
}

// TreePath is the path without its query (schemes.TreePather): a search
// and its answers sit where the page that asks is.
func (g *URL) TreePath() string { return g.Path }

// RequestLine is what is sent: the URL without its fragment, then CRLF
// (specification §2). It fails, naming the part at fault, for a URL
// longer than 1024 bytes; Parse has refused every CR and LF.
func (g *URL) RequestLine() (string, error) {
	u := *g.u
	u.Fragment = nil
	line := schemes.FormatLocator(&u, false, g.rest())
	if len(line) > maxRequest {
		return "", &schemes.Error{Scheme: g.u.Scheme, Phase: "request", Kind: schemes.KindUsage, Part: "path",
			Msg: fmt.Sprintf("the URL is %d bytes, longer than the %d a gemini request may be", len(line), maxRequest)}
	}
	return line + "\r\n", nil
}

// Fields is the JSON object printed by `urlget parse`:
// {"path": "...", "query": null|"..."}.
func (g *URL) Fields() any { return fields{Path: g.Path, Query: g.Query} }

type fields struct {
	Path  string  `json:"path"`
	Query *string `json:"query"`
}

// LocalName is the path's last segment, decoded (schemes.BaseName); ""
// for a path ending in "/".
func (g *URL) LocalName() string {
	seg := g.Path[strings.LastIndexByte(g.Path, '/')+1:]
	name, err := schemes.Unescape(seg)
	if err != nil {
		return ""
	}
	return schemes.BaseName(name)
}

// WithSearch is the URL that answers g's input prompt with words: g with
// its query set to the words, percent-encoded (a space as %20, as the
// specification asks), and no fragment.
func (g *URL) WithSearch(words string) (schemes.Locator, error) {
	u := *g.u
	u.Fragment = nil
	q := escapeQuery(words)
	return &URL{Path: g.Path, Query: &q, u: &u}, nil
}

// escapeQuery percent-encodes s for a query: every byte but RFC 3986's
// unreserved characters, so that "+", "&" and "=" stay the user's text.
func escapeQuery(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}
