package nntp

import (
	"fmt"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// NewsURL is a parsed news URL (RFC 1738 §3.6), one of
//
//	news:<newsgroup-name>
//	news:<message-id>
//	news:*
//
// A news URL names no server: the reader fetches from its own news host.
// Beyond RFC 1738, the RFC 5538 form news://host[:port]/<same> is
// accepted; it names the server to ask, in the generic URL's host and port.
// Exactly one of Group, MessageID and All is set.
type NewsURL struct {
	// Group is the newsgroup name, decoded, or nil. It matches the BNF's
	// group (a letter, then letters, digits, "-", ".", "+", "_").
	Group *string
	// MessageID is the article's Message-ID, decoded, without the "<" ">"
	// that enclose it in an article header, or nil. It holds an "@" (that
	// is how §3.6 tells it from a group) with text on both sides.
	MessageID *string
	// All is set by "news:*": all available newsgroups.
	All bool

	u *schemes.URL
}

var _ schemes.Locator = (*NewsURL)(nil)

// ParseNews reads a generic news URL. Errors are *schemes.Error of
// KindUsage naming the part at fault: "scheme", "host", "group" or
// "message_id".
//
// The part is decoded before it is classified, so "news:%2A" is news:* and
// "%40" counts as the "@" of a message-id. A message-id written with its
// enclosing "<" ">" (news:%3Cid@host%3E), common in the wild, is accepted
// and stored without them.
func ParseNews(u *schemes.URL) (*NewsURL, error) {
	if u.Scheme != "news" {
		return nil, u.SyntaxError("scheme", fmt.Sprintf("scheme %q is not news", u.Scheme))
	}
	u.DefaultPort = schemes.PortOf(declared, u.Scheme)
	text := u.Opaque
	if u.Authority {
		if u.Host == "" {
			return nil, u.SyntaxError("host", "empty host in news:// (write news:group, or news://host/group)")
		}
		text = u.Path
	}
	if text == "" {
		return nil, u.SyntaxError("group", "missing newsgroup name or message-id (want news:group, news:id@domain or news:*)")
	}
	d, err := schemes.Unescape(text)
	if err != nil {
		return nil, u.SyntaxError("group", fmt.Sprintf("bad news URL part %q: %v", text, err))
	}
	n := &NewsURL{u: u}
	switch {
	case d == "*":
		n.All = true
	case strings.IndexByte(d, '@') >= 0:
		if len(d) >= 2 && d[0] == '<' && d[len(d)-1] == '>' {
			d = d[1 : len(d)-1]
		}
		at := strings.LastIndexByte(d, '@')
		if at <= 0 || at == len(d)-1 {
			return nil, u.SyntaxError("message_id",
				fmt.Sprintf("bad message-id %q (want unique@full_domain_name)", d))
		}
		n.MessageID = &d
	case validGroup(d):
		n.Group = &d
	default:
		return nil, u.SyntaxError("group",
			fmt.Sprintf("bad newsgroup name %q (want a letter, then letters, digits, \"-\", \".\", \"+\" or \"_\"; a message-id has an \"@\")", d))
	}
	return n, nil
}

// Generic returns the scheme-independent parts: for news://host/... the
// server's host and port, otherwise none.
func (n *NewsURL) Generic() *schemes.URL { return n.u }

// String formats the URL in canonical form (schemes.FormatLocator) from
// its typed fields, so every spelling of one group or message-id gives one
// string: the part re-escaped from its decoded value (news reserves no
// character, §3.6: "%2E" is "." and "%40" the "@" of a message-id), a
// message-id without the "<" ">" of its header form (news:<id@host> is
// news:id@host, as §3.6 and the draft on URIs in WWW write it), and
// news:%2A as news:*. It includes the password of a
// news://user:password@host/ URL.
func (n *NewsURL) String() string { return schemes.FormatLocator(n.u, false, n.part()) }

// Redacted is String with the password written as "****".
func (n *NewsURL) Redacted() string { return schemes.FormatLocator(n.u, true, n.part()) }

// part is the canonical text after "news:" or after the authority (with
// its "/").
func (n *NewsURL) part() string {
	slash := ""
	if n.u.Authority {
		slash = "/"
	}
	switch {
	case n.All:
		return slash + "*"
	case n.Group != nil:
		return slash + schemes.Escape(*n.Group, "")
	}
	id := *n.MessageID
	if len(id) >= 2 && id[0] == '<' && id[len(id)-1] == '>' {
		// ParseNews strips one enclosing pair; add one to keep these.
		id = "<" + id + ">"
	}
	id = schemes.Escape(id, "")
	// news reserves nothing, but in news:<id> a leading "//" would read as
	// an authority, so a leading "/" is written escaped.
	if id[0] == '/' && !n.u.Authority {
		id = "%2F" + id[1:]
	}
	return slash + id
}

// LocalName is the message-id, without its "<" ">" (schemes.BaseName:
// one with a "/" is named after what follows it), or the group's name;
// "" for news:*, which names every group and no one thing.
func (n *NewsURL) LocalName() string {
	switch {
	case n.MessageID != nil:
		return schemes.BaseName(*n.MessageID)
	case n.Group != nil:
		return *n.Group
	}
	return ""
}

// Fields is the JSON object printed by `urlget parse`:
// {"group": null|"...", "message_id": null|"...", "all": bool}.
func (n *NewsURL) Fields() any {
	return newsFields{Group: n.Group, MessageID: n.MessageID, All: n.All}
}

type newsFields struct {
	Group     *string `json:"group"`
	MessageID *string `json:"message_id"`
	All       bool    `json:"all"`
}
