package nntp

import (
	"fmt"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// The Locators of articles name the articles and groups an article's
// header refers to, so that a reader (the gateway's article page) links
// them.
var (
	_ schemes.ArticleLinker = (*NewsURL)(nil)
	_ schemes.ArticleLinker = (*URL)(nil)
)

// MessageLocator returns the URL of the article whose message-id is id
// (with or without its "<" ">"): news:id for a news: URL, which names no
// server, so that the reader's own server is asked as it was for n; and
// news://host:port/id (RFC 5538) for news://host:port/..., on the same
// server with the same user and password.
func (n *NewsURL) MessageLocator(id string) (schemes.Locator, error) {
	d, err := messageID(id)
	if err != nil {
		return nil, err
	}
	return newsOn(n.u, n.u.Authority, NewsURL{MessageID: &d})
}

// GroupLocator returns the URL that lists the newsgroup name: news:name,
// or news://host:port/name for news://host:port/....
func (n *NewsURL) GroupLocator(name string) (schemes.Locator, error) {
	if err := checkGroup(name); err != nil {
		return nil, err
	}
	return newsOn(n.u, n.u.Authority, NewsURL{Group: &name})
}

// MessageLocator returns news://host:port/id (RFC 5538): an nntp URL
// names articles by number only (RFC 1738 §3.7), and a message-id is
// asked of the same server, with the same user and password, in a news
// URL. An nntps URL has none (a news URL's server speaks NNTP without TLS
// from the start), so it fails with KindUnsupported.
func (n *URL) MessageLocator(id string) (schemes.Locator, error) {
	d, err := messageID(id)
	if err != nil {
		return nil, err
	}
	if n.u.Scheme != "nntp" {
		return nil, &schemes.Error{Scheme: n.u.Scheme, Phase: "parse", Kind: schemes.KindUnsupported, Part: "message_id",
			Msg: "no URL names an article by message-id on an " + n.u.Scheme + " server"}
	}
	return newsOn(n.u, true, NewsURL{MessageID: &d})
}

// GroupLocator returns the URL of the group name on the same server, in
// n's scheme, with n's user and password: nntp://host:port/name.
func (n *URL) GroupLocator(name string) (schemes.Locator, error) {
	if err := checkGroup(name); err != nil {
		return nil, err
	}
	g := onServer(n.u, n.u.Scheme)
	return reparse(&URL{Group: name, u: g}, Parse)
}

// messageID checks id, a message-id as a header writes it, and returns it
// without its enclosing "<" ">". RFC 5536 §3.1.3's msg-id has no
// whitespace, control characters or angle brackets inside, and an "@"
// with text on both sides.
func messageID(id string) (string, error) {
	d := id
	if len(d) >= 2 && d[0] == '<' && d[len(d)-1] == '>' {
		d = d[1 : len(d)-1]
	}
	at := strings.LastIndexByte(d, '@')
	bad := strings.ContainsFunc(d, func(r rune) bool { return r <= ' ' || r == 0x7f || r == '<' || r == '>' })
	if bad || at <= 0 || at == len(d)-1 {
		return "", &schemes.Error{Scheme: "news", Phase: "parse", Kind: schemes.KindUsage, Part: "message_id",
			Msg: fmt.Sprintf("bad message-id %q (want <unique@full_domain_name>)", schemes.Printable(id, 200))}
	}
	return d, nil
}

// checkGroup checks a newsgroup name as RFC 1738's group syntax has it.
// "poster" is refused: in Followup-To it asks for replies by mail (RFC
// 5536 §3.2.6), and names no group.
func checkGroup(name string) error {
	if !validGroup(name) || name == "poster" {
		return &schemes.Error{Scheme: "news", Phase: "parse", Kind: schemes.KindUsage, Part: "group",
			Msg: fmt.Sprintf("bad newsgroup name %q", schemes.Printable(name, 200))}
	}
	return nil
}

// newsOn returns the news URL of what x names (its MessageID or Group):
// on base's server (news://user:password@host:port/...) with authority,
// else news:....
func newsOn(base *schemes.URL, authority bool, x NewsURL) (schemes.Locator, error) {
	x.u = &schemes.URL{Scheme: "news"}
	if authority {
		x.u = onServer(base, "news")
	}
	return reparse(&x, ParseNews)
}

// onServer is the generic part of a URL of scheme on base's server: its
// user, password, host and port, and a path to follow.
func onServer(base *schemes.URL, scheme string) *schemes.URL {
	return &schemes.URL{Scheme: scheme, Authority: true, User: base.User, Password: base.Password,
		Host: base.Host, Port: base.Port, HasPath: true, DefaultPort: schemes.PortOf(declared, scheme)}
}

// reparse parses x's canonical text back, so that the Locator returned is
// the one a person typing that URL gets, its generic parts included.
func reparse[L schemes.Locator](x L, parse func(*schemes.URL) (L, error)) (schemes.Locator, error) {
	u, err := schemes.Parse(x.String())
	if err != nil {
		return nil, err
	}
	loc, err := parse(u)
	if err != nil {
		return nil, err // not a nil *T in a non-nil Locator
	}
	return loc, nil
}
