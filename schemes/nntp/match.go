package nntp

import (
	"strconv"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// The replies that carry an article: "22x n <message-id>", the article's
// number in the selected group (0 when it was asked for by message-id and
// the server does not say) and its message-id. (STAT's 223, RFC 3977
// §6.2.4, has the same form; urlget never sends STAT.)
const (
	codeArticle = 220 // RFC 3977 §6.2.1: ARTICLE, the article follows
	codeHead    = 221 // RFC 3977 §6.2.2: HEAD, the headers follow
	codeBody    = 222 // RFC 3977 §6.2.3: BODY, the body follows
)

// Replies are matched to requests. A server answers commands in order
// (RFC 3977 §3.5), and nothing else in the protocol ties a reply to its
// command: a server that sends one article nobody asked for would shift
// every later reply onto the command after its own, each article landing
// under the next one's name. So the number or message-id of every 22x
// reply is compared with what was asked, and a reply that names another
// article ends the session (see mismatch).

// articleRef is what an article command asks for: a number in the
// selected group, or a message-id (without "<" ">").
type articleRef struct {
	number    *int64
	messageID string
}

// ref is what p's article command asks for.
func (p *plan) ref() articleRef { return articleRef{number: p.article, messageID: p.messageID} }

// String is the article as the command names it.
func (a articleRef) String() string {
	if a.number != nil {
		return strconv.FormatInt(*a.number, 10)
	}
	return "<" + a.messageID + ">"
}

// matches reports whether r, a 22x reply, is about a: by number, the
// number must be the one asked; by message-id, the message-id must be the
// one asked and the number may be anything (0 included, RFC 3977 §6.2.1).
// A reply without the number and message-id RFC 3977 requires matches
// nothing.
func (a articleRef) matches(r reply) bool {
	num, id, ok := strings.Cut(r.Text, " ")
	n, err := strconv.ParseInt(num, 10, 64)
	if !ok || err != nil || n < 0 {
		return false
	}
	if a.number != nil {
		return n == *a.number
	}
	id, _, _ = strings.Cut(id, " ")
	return sameMessageID(id, "<"+a.messageID+">")
}

// sameMessageID compares two message-ids, "<" ">" included. RFC 3977
// §3.6 makes them the same only when they are the same octets, and RFC
// 5536 §3.1.3 keeps Netnews comparisons case-sensitive; but servers that
// follow RFC 5322 treat the domain (after the last "@") without regard
// to case, and INN finds an article by an id whose domain differs in case
// from the one it stored and may answer with the stored one. Both name
// the same article, so a reply differing only there is accepted.
func sameMessageID(got, asked string) bool {
	if got == asked {
		return true
	}
	gl, gd, gok := cutLast(got, "@")
	al, ad, aok := cutLast(asked, "@")
	return gok && aok && gl == al && strings.EqualFold(gd, ad)
}

// cutLast cuts s around the last sep.
func cutLast(s, sep string) (before, after string, found bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}

// mismatch ends the session after a reply that names another article than
// a: the replies waiting after it, to commands sent ahead, cannot be
// trusted either, so the connection is closed, never kept nor parked. The
// error is KindProtocol (exit 6), retryable: the article asked again, on
// another connection, may well come.
func (s *session) mismatch(scheme, phase string, a articleRef, r reply) *schemes.Error {
	s.broken = true
	s.tr.Info("the reply names another article than " + a.String() + ": closing the connection")
	return &schemes.Error{Scheme: scheme, Phase: phase, Kind: schemes.KindProtocol, Code: r.Code, Retryable: true,
		Msg: "asked for article " + a.String() + ", the server answered " + strconv.Quote(clip(r.String())) +
			" (another article, or a reply out of step): the connection is closed and nothing of the reply kept"}
}
