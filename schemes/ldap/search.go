package ldap

import (
	"context"
	"fmt"
	"io"
	"strings"

	goldap "github.com/go-ldap/ldap/v3"

	"github.com/urlget/urlget/schemes"
)

// DefaultPageSize is the number of entries a search asks for at a time
// with the paged results control (RFC 2696): a large subtree comes in
// pages, and at most one page's results wait in memory.
const DefaultPageSize = 500

// resultBuffer is how many results go-ldap's reader may hold ahead of
// the reader of the body: the rest waits in the socket, so memory stays
// bounded however large the search.
const resultBuffer = 64

// search runs one search on a session, page after page, handing its
// entries to next one at a time.
type search struct {
	s       *session
	ctx     context.Context
	cancel  context.CancelFunc
	req     *goldap.SearchRequest
	paging  *goldap.ControlPaging
	cur     goldap.Response
	cookie  []byte // the paging cookie of the page being read, nil if none came
	entries int
	done    bool
	raw     error // go-ldap's error that ended the search, for its referral
}

// newSearch starts l's search (with attrs instead of l's when non-nil,
// and scope instead of l's when not "") on s.
func newSearch(ctx context.Context, s *session, l *URL, scope string, attrs []string, pageSize int) *search {
	if scope == "" {
		scope = l.Scope
	}
	if attrs == nil {
		attrs = l.Attributes
	}
	sc := map[string]int{ScopeBase: goldap.ScopeBaseObject, ScopeOne: goldap.ScopeSingleLevel, ScopeSub: goldap.ScopeWholeSubtree}[scope]
	paging := goldap.NewControlPaging(uint32(pageSize))
	req := goldap.NewSearchRequest(l.DN, sc, goldap.NeverDerefAliases, 0, 0, false, l.Filter, attrs, []goldap.Control{paging})
	ctx, cancel := context.WithCancel(ctx)
	sr := &search{s: s, ctx: ctx, cancel: cancel, req: req, paging: paging}
	s.tr.Sent(fmt.Sprintf("search base=%q scope=%s filter=%s attributes=%s page=%d",
		l.DN, scope, l.Filter, attrList(attrs), pageSize))
	sr.cur = s.conn.SearchAsync(ctx, req, resultBuffer)
	return sr
}

// attrList is attrs for a trace line ("*" for all user attributes).
func attrList(attrs []string) string {
	if len(attrs) == 0 {
		return "*"
	}
	return strings.Join(attrs, ",")
}

// next returns the next entry, nil at the end of the search. References
// to other servers (RFC 4511 §4.5.3) are noted in the trace and not
// followed, as ldapsearch does not chase them.
func (sr *search) next() (*goldap.Entry, error) {
	for !sr.done {
		if err := sr.ctx.Err(); err != nil {
			// go-ldap ends a canceled search as if it were over: the
			// rest is not there, which must not read as the end.
			sr.done = true
			return nil, schemes.IOError(sr.s.scheme, "search", err)
		}
		if sr.cur.Next() {
			switch {
			case sr.cur.Entry() != nil:
				sr.entries++
				return sr.cur.Entry(), nil
			case sr.cur.Referral() != "":
				sr.s.tr.Received("reference " + schemes.Printable(sr.cur.Referral(), 200) + " (not followed)")
			default:
				if c, ok := goldap.FindControl(sr.cur.Controls(), goldap.ControlTypePaging).(*goldap.ControlPaging); ok {
					sr.cookie = c.Cookie
				}
			}
			continue
		}
		if err := sr.cur.Err(); err != nil {
			sr.done, sr.raw = true, err
			e := resultError(sr.s.scheme, "search", err)
			sr.s.tr.Received(fmt.Sprintf("search: %d entries, then %v", sr.entries, e))
			return nil, e
		}
		if len(sr.cookie) == 0 {
			// No cookie: the last page, or a server that ignores the
			// (non-critical) control and sent everything at once.
			sr.done = true
			sr.s.tr.Received(fmt.Sprintf("search: success, %d entries", sr.entries))
			break
		}
		sr.s.tr.Sent(fmt.Sprintf("search: next page (%d entries so far)", sr.entries))
		// The previous page's goroutine has ended (its channel closed),
		// so the request is no longer being encoded.
		sr.paging.SetCookie(sr.cookie)
		sr.cookie = nil
		sr.cur = sr.s.conn.SearchAsync(sr.ctx, sr.req, resultBuffer)
	}
	return nil, nil
}

// Close stops the search and ends the session.
func (sr *search) Close() error {
	sr.cancel()
	return sr.s.Close()
}

// attributesOf is e's attributes with their values as sent.
func attributesOf(e *goldap.Entry) []attribute {
	out := make([]attribute, len(e.Attributes))
	for i, a := range e.Attributes {
		out[i] = attribute{name: a.Name, values: a.ByteValues}
	}
	return out
}

// ldifBody is a search's entries in LDIF, formatted an entry at a time
// as the body is read.
type ldifBody struct {
	sr  *search
	buf []byte // the current entry's LDIF
	off int    // how much of buf was read
	err error
}

func (b *ldifBody) Read(p []byte) (int, error) {
	for b.off == len(b.buf) {
		if b.err != nil {
			return 0, b.err
		}
		e, err := b.sr.next()
		if err != nil {
			b.err = err
			continue
		}
		if e == nil {
			b.err = io.EOF
			continue
		}
		b.buf, b.off = appendEntry(b.buf[:0], e.DN, attributesOf(e)), 0
	}
	n := copy(p, b.buf[b.off:])
	b.off += n
	return n, nil
}

func (b *ldifBody) Close() error { return b.sr.Close() }
