// Package nntp serves the Usenet URLs over NNTP (RFC 3977): news URLs (RFC
// 1738 §3.6), which name a newsgroup, an article by message-id, or all
// groups, and nntp URLs (§3.7), which name a group or an article by number
// on one server, with nntps, NNTP over TLS on port 563.
//
// url.go and news.go hold the typed values (Parse and ParseNews, no I/O);
// Handler retrieves them. Listings stream their entries as the server's
// lines arrive. A group overview (news:group, nntp://host/group) is one
// entry an article: Name its number, Title its subject, Kind file, Size
// its bytes, ModTime its Date (to the second), Locator its nntp URL on the
// server that was asked (nntp://host:port/group/number, nntps for nntps,
// with the listed URL's user and password), Extra "message_id" (without
// "<" ">"), "from" and "lines". The Locator names the server because
// article numbers are the server's own: for news:group it is the server
// NNTPSERVER (or --nntp-server) named, so fetching it gives the same
// article whatever the environment says later; the message-id in Extra is
// valid anywhere. news:* is one entry a group: Name its name, Kind dir,
// Locator news:group (a group name means the same on every server;
// news://host/* gives nntp://host/group, on the server it names), Extra
// "articles" (the estimated count), "low", "high" and "status" (posting,
// no-posting, moderated, ...).
package nntp

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// URL is a parsed nntp or nntps URL (RFC 1738 §3.7):
//
//	nntp://<host>:<port>/<newsgroup-name>/<article-number>
//
// The host is required; the port defaults to 119 (563 for nntps). The
// article number is optional: without it the URL names the group.
// Without a group (nntp://host or nntp://host/) the URL names the
// server's list of groups: RFC 1738's nntpurl requires a group, so that
// form means nothing else, and it is what news://host/* (RFC 5538) names
// on the same server, which a user asking for the server itself expects.
type URL struct {
	// Group is the newsgroup name, decoded; it matches the BNF's group
	// (a letter, then letters, digits, "-", ".", "+", "_"). It is "" for
	// the server's list of groups.
	Group string
	// Article is the article number within Group on this server, or nil
	// when the URL names the whole group.
	Article *int64

	u *schemes.URL
}

var _ schemes.Locator = (*URL)(nil)

// Parse reads a generic nntp or nntps URL. Errors are *schemes.Error of
// KindUsage naming the part at fault: "scheme", "host", "group" or
// "article". An empty path, or "/", names the server's groups.
//
// A user and password are accepted although RFC 1738's nntpurl has only
// hostport: RFC 5538 allows them, and a handler can send them with
// AUTHINFO.
func Parse(u *schemes.URL) (*URL, error) {
	if u.Scheme != "nntp" && u.Scheme != "nntps" {
		return nil, u.SyntaxError("scheme", fmt.Sprintf("scheme %q is not nntp or nntps", u.Scheme))
	}
	u.DefaultPort = schemes.PortOf(declared, u.Scheme)
	if !u.Authority || u.Host == "" {
		// The 1994 draft's "nntp:group/digits" had no host; RFC 1738
		// requires one, since article numbers are per server.
		return nil, u.SyntaxError("host", "missing host (want "+u.Scheme+"://host/group/article-number)")
	}
	if u.Path == "" {
		return &URL{u: u}, nil
	}
	groupText, articleText, hasArticle := strings.Cut(u.Path, "/")
	group, err := parseGroup(u, groupText)
	if err != nil {
		return nil, err
	}
	n := &URL{Group: group, u: u}
	if hasArticle {
		a, err := parseArticle(u, articleText)
		if err != nil {
			return nil, err
		}
		n.Article = &a
	}
	return n, nil
}

// parseGroup decodes and checks a newsgroup name against RFC 1738's
// `group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ]`.
func parseGroup(u *schemes.URL, text string) (string, error) {
	g, err := schemes.Unescape(text)
	if err != nil {
		return "", u.SyntaxError("group", fmt.Sprintf("bad newsgroup name %q: %v", text, err))
	}
	if !validGroup(g) {
		return "", u.SyntaxError("group",
			fmt.Sprintf("bad newsgroup name %q (want a letter, then letters, digits, \"-\", \".\", \"+\" or \"_\")", g))
	}
	return g, nil
}

func validGroup(g string) bool {
	if g == "" || !isAlpha(g[0]) {
		return false
	}
	for i := 1; i < len(g); i++ {
		c := g[i]
		if !isAlpha(c) && !('0' <= c && c <= '9') && c != '-' && c != '.' && c != '+' && c != '_' {
			return false
		}
	}
	return true
}

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// parseArticle reads the article number: decimal digits only (no sign, no
// "/" after it), fitting in an int64. Leading zeros are allowed and
// dropped by String.
func parseArticle(u *schemes.URL, text string) (int64, error) {
	d, err := schemes.Unescape(text)
	bad := err != nil || d == ""
	for i := 0; i < len(d) && !bad; i++ {
		bad = d[i] < '0' || d[i] > '9'
	}
	var n int64
	if !bad {
		n, err = strconv.ParseInt(d, 10, 64)
		bad = err != nil
	}
	if bad {
		return 0, u.SyntaxError("article", fmt.Sprintf("bad article number %q (want decimal digits)", text))
	}
	return n, nil
}

// Generic returns the scheme-independent parts (user, password, host, port).
func (n *URL) Generic() *schemes.URL { return n.u }

// String formats the URL in canonical form (schemes.FormatLocator) from
// its typed fields: the group re-escaped from its decoded name, the
// article number without leading zeros (nntp://h/g/007 is article 7). It
// includes the password.
func (n *URL) String() string { return schemes.FormatLocator(n.u, false, n.path()) }

// Redacted is String with the password written as "****".
func (n *URL) Redacted() string { return schemes.FormatLocator(n.u, true, n.path()) }

// path is the canonical "/group[/number]", or "/" for the server's
// groups.
func (n *URL) path() string {
	if n.Group == "" {
		return "/"
	}
	p := "/" + schemes.Escape(n.Group, "/")
	if n.Article != nil {
		p += "/" + strconv.FormatInt(*n.Article, 10)
	}
	return p
}

// LocalName is the article number ("nntp://h/comp.lang.go/42" names
// "42"), or for a URL naming a whole group the group's name, which its
// listing would be saved under; "" for the server's groups.
func (n *URL) LocalName() string {
	if n.Article != nil {
		return strconv.FormatInt(*n.Article, 10)
	}
	return n.Group
}

// Fields is the JSON object printed by `urlget parse`:
// {"group": "...", "article": null|N}; the group is "" for the server's
// groups.
func (n *URL) Fields() any { return nntpFields{Group: n.Group, Article: n.Article} }

type nntpFields struct {
	Group   string `json:"group"`
	Article *int64 `json:"article"`
}
