package nntp

import (
	"context"
	"io"
	"strconv"

	"github.com/urlget/urlget/schemes"
)

// sessionListing streams a listing read from a session (a group overview,
// the group list): it owns the session until the end of the listing, when
// the session goes back to the pool, or until an error or an early Close,
// when it is closed (its protocol state is then unknown).
type sessionListing struct {
	ctx   context.Context
	h     *Handler
	c     *conn
	p     *plan
	phase string
	// read returns the next entry from the session, io.EOF at the end of
	// the listing (the session then waits for the next command).
	read func() (schemes.Entry, error)
	done bool
}

// listingResponse is the Response of a listing that read streams from c.
func (h *Handler) listingResponse(ctx context.Context, c *conn, p *plan, phase string, read func() (schemes.Entry, error),
	name string, status int) *schemes.Response {
	l := &sessionListing{ctx: ctx, h: h, c: c, p: p, phase: phase, read: read}
	return &schemes.Response{Listing: schemes.ListingFunc(l.next, l.close), Kind: schemes.EntryDir, Size: -1,
		Name: name, Status: status}
}

// next returns the next entry; errors are *schemes.Error. Once the
// request's context is done it fails even while buffered lines remain.
func (l *sessionListing) next() (schemes.Entry, error) {
	if l.done {
		return schemes.Entry{}, io.EOF
	}
	if err := l.ctx.Err(); err != nil {
		l.end(false)
		return schemes.Entry{}, schemes.IOError(l.p.scheme, l.phase, err)
	}
	e, err := l.read()
	if err == io.EOF {
		l.end(true)
		return schemes.Entry{}, io.EOF
	}
	if err != nil {
		l.end(isReplyError(err)) // after a reply, the session is in a known state
		return schemes.Entry{}, l.h.blockError(l.ctx, l.p, l.phase, err)
	}
	return e, nil
}

// end ends the listing's use of the session: back to the pool when ok.
func (l *sessionListing) end(ok bool) {
	l.done = true
	l.c.finish(ok)
}

// close abandons the listing: a session left in the middle of a reply
// cannot be reused and is closed.
func (l *sessionListing) close() error {
	if !l.done {
		l.end(false)
	}
	return nil
}

// nntpScheme is the scheme of nntp URLs on the plan's server: nntps when
// the server speaks TLS from the start, else nntp (news: URLs included).
func (p *plan) nntpScheme() string {
	if p.tls {
		return "nntps"
	}
	return "nntp"
}

// authority is the "//user:password@host:port" of URLs on the plan's
// server, with the request URL's own credentials (none from netrc or
// --user, which the fetch Client supplies again where its policy allows),
// the port left out when it is the default.
func (p *plan) authority() string {
	u := schemes.URL{Host: p.host}
	if p.port != schemes.PortOf(declared, p.nntpScheme()) {
		u.Port = p.port
	}
	if p.gen.Authority {
		u.User, u.Password = p.gen.User, p.gen.Password
	}
	return u.AuthorityString(false)
}

// articlePrefix is the text of the plan's group's nntp URL up to the
// article number ("nntp://user:pw@host:port/group/"), with the password.
func (p *plan) articlePrefix() string {
	return p.nntpScheme() + ":" + p.authority() + "/" + schemes.Escape(p.group, "/") + "/"
}

// articleLocator is the Locator of article n at prefix (articlePrefix).
func articleLocator(prefix string, n int64) schemes.Locator {
	return locatorOf(prefix + strconv.FormatInt(n, 10))
}

// groupLocator is the Locator of group name as news:* lists it: news:name
// for news:* (a group name means the same on every server, and the
// reader's server answers it as it answered the list), and
// nntp://[user:password@]host:port/name for news://host/*, which names
// its server; nil for a name no URL can hold.
func (p *plan) groupLocator(name string) schemes.Locator {
	if !validGroup(name) {
		return nil
	}
	if p.gen.Authority {
		return locatorOf(p.nntpScheme() + ":" + p.authority() + "/" + schemes.Escape(name, "/"))
	}
	return locatorOf("news:" + schemes.Escape(name, ""))
}

// locatorOf parses raw, a news, nntp or nntps URL this package formatted,
// into its Locator; nil if it does not parse.
func locatorOf(raw string) schemes.Locator {
	u, err := schemes.Parse(raw)
	if err != nil {
		return nil
	}
	if u.Scheme == "news" {
		if n, err := ParseNews(u); err == nil {
			return n
		}
		return nil
	}
	if n, err := Parse(u); err == nil {
		return n
	}
	return nil
}
