package ldap

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urlget/urlget/schemes"
)

// Handler retrieves LDAP URLs: it binds (anonymously, or simply with the
// caller's DN and password) and runs the URL's search, in pages, handing
// back its entries as LDIF (Fetch) or as a listing of entries (List). It
// dials only through the request's Dialer, holds configuration only, and
// is safe for concurrent use.
type Handler struct {
	// PageSize is the entries asked for a page (RFC 2696); 0 means
	// DefaultPageSize.
	PageSize int

	// words name the settings in messages as the caller does.
	words schemes.Words
}

var (
	_ schemes.Handler   = (*Handler)(nil)
	_ schemes.Lister    = (*Handler)(nil)
	_ schemes.Explainer = (*Handler)(nil)
)

// pageSize is the page size in effect.
func (h *Handler) pageSize() int {
	if h == nil || h.PageSize <= 0 {
		return DefaultPageSize
	}
	return h.PageSize
}

// Fetch runs the URL's search and returns its entries as LDIF, the way
// ldapsearch -LLL prints them, formatted as Body is read. The first
// result is awaited before Fetch returns, so that a base object that does
// not exist fails as not found, and a referral (RFC 4511 §4.1.10) comes
// back as a Redirect, which the fetch Client follows only as its redirect
// rules allow (the bind never goes with it).
func (h *Handler) Fetch(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	l, err := schemes.LocatorOf[*URL](req)
	if err != nil {
		return nil, err
	}
	if req.Browse {
		// A person at the gateway sees a search as a page of its
		// entries, each a link to its record, under a search form; an
		// entry as its record's lines, then the form and its children.
		if l.Scope != ScopeBase {
			return h.list(ctx, req, l, l.Scope, true)
		}
		return h.browseRecord(ctx, req, l)
	}
	sr, first, resp, err := h.start(ctx, req, l, "", nil, true)
	if resp != nil || err != nil {
		return resp, err
	}
	b := &ldifBody{sr: sr}
	if first != nil {
		b.buf = first.appendLDIF(nil)
	} else {
		b.err = io.EOF
	}
	return &schemes.Response{Body: b, Kind: schemes.EntryFile, Size: -1, Type: "text/x-ldif", Name: l.LocalName()}, nil
}

// start opens a session and a search on it, and waits for its first
// entry (nil: none; valid until the search's next), which is a reference
// only when refs asks for them (search.keepRefs). A referral comes back
// as resp. The session is one req.Conns kept from an earlier search with
// the same server, bind and security when there is one, else a new one;
// a kept one the server closed meanwhile (the search meets the end of
// the connection before any reply) is replaced once, by the pool.
func (h *Handler) start(ctx context.Context, req *schemes.Request, l *URL, scope string, attrs []string, refs bool) (*search, *entry, *schemes.Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, schemes.IOError(l.u.Scheme, "request", err)
	}
	b, err := h.bind(ctx, req, l)
	if err != nil {
		return nil, nil, nil, err
	}
	key := connKey(req, l, b)
	dial := func(ctx context.Context) (schemes.Session, error) {
		s, err := h.open(ctx, req, l, b)
		if err != nil {
			return nil, err
		}
		return s, nil
	}
	var sr *search
	var first *entry
	var resp *schemes.Response
	err = schemes.UseSession(ctx, req.Conns, key, nil, dial, func(v schemes.Session, leased bool) (bool, error) {
		s := v.(*session)
		s.conns, s.key = req.Conns, key
		if leased {
			s.tr = schemes.NewScope(req.Trace)
			s.tr.Info("reusing the connection to " + l.u.HostPort())
		}
		before := s.replies
		stale := func(err error) bool {
			return leased && ctx.Err() == nil && s.replies == before && schemes.KindOf(err) == schemes.KindConnect
		}
		var err error
		if sr, err = newSearch(ctx, s, l, scope, attrs, h.pageSize()); err != nil {
			s.Close()
			return stale(err), err
		}
		sr.keepRefs = refs
		if first, err = sr.next(); err == nil {
			return false, nil
		}
		sr.Close()
		var se *schemes.Error
		if to, ok := referral(l, errors.As(err, &se) && se.Code == resultReferral, sr.referrals); ok {
			s.tr.Received("referral to " + schemes.Printable(to, 200))
			resp = &schemes.Response{Redirect: to, Size: -1}
			return false, nil
		}
		return stale(err), err
	})
	if resp != nil || err != nil {
		return nil, nil, resp, err
	}
	return sr, first, nil, nil
}

// referral returns the first LDAP URL of a referral result (RFC 4511
// §4.1.10), completed from l as §4.1.10 says: a URL that names no DN
// means l's DN, and the search's other parts are then l's. The bind
// extensions are not carried over: whom to bind as on another server is
// for the person to say.
func referral(l *URL, isReferral bool, refs []string) (string, bool) {
	if !isReferral {
		return "", false
	}
	for _, raw := range refs {
		u, perr := schemes.Parse(raw)
		if perr != nil {
			continue
		}
		r, perr := Parse(u)
		if perr != nil {
			continue
		}
		if r.DN == "" {
			r.DN, r.Attributes, r.Scope, r.Filter = l.DN, l.Attributes, l.Scope, l.Filter
		}
		r.Extensions = nil
		u.HasPath, u.Path = true, r.path()[1:]
		return r.String(), true
	}
	return "", false
}

// List runs a search and lists its entries, each as the URL of its own
// DN (a base search, keeping the URL's bind). A URL of base scope is
// listed as its entry's children (a one-level search), as a directory's
// files are: so a walk of the tree goes down a level at a time. Entries
// the server says have no subordinates are files, the rest directories;
// each has its modifyTimestamp as its time, to the second, so that a
// mirror's second run fetches no entry that did not change.
func (h *Handler) List(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	l, err := schemes.LocatorOf[*URL](req)
	if err != nil {
		return nil, err
	}
	scope := l.Scope
	if scope == ScopeBase {
		scope = ScopeOne
	}
	return h.list(ctx, req, l, scope, false)
}

// list lists the entries of l's search with scope; withSearch puts a
// search of l's subtree first (an EntrySearch: the gateway's form).
func (h *Handler) list(ctx context.Context, req *schemes.Request, l *URL, scope string, withSearch bool) (*schemes.Response, error) {
	sr, first, resp, err := h.start(ctx, req, l, scope, listAttrs, false)
	if resp != nil || err != nil {
		return resp, err
	}
	var pending []schemes.Entry
	if withSearch {
		pending = append(pending, l.searchEntry())
	}
	return l.listing(sr, first, pending), nil
}

// searchEntry is the search of l's subtree, an EntrySearch.
func (l *URL) searchEntry() schemes.Entry {
	sub := l.Entry(l.DN)
	sub.Scope = ScopeSub
	sub.u.Path = sub.path()[1:]
	return schemes.Entry{Title: "Search below " + l.DN, Kind: schemes.EntrySearch, Size: -1, Locator: sub}
}

// browseRecord is l's entry as a page: its LDIF lines as text (EntryInfo),
// then a search of its subtree, then its children, from a base search and
// a one-level search on one session.
func (h *Handler) browseRecord(ctx context.Context, req *schemes.Request, l *URL) (*schemes.Response, error) {
	sr, first, resp, err := h.start(ctx, req, l, "", nil, false)
	if resp != nil || err != nil {
		return resp, err
	}
	var pending []schemes.Entry
	if first != nil {
		for line := range strings.Lines(string(first.appendLDIF(nil))) {
			if line = strings.TrimSuffix(line, "\n"); line != "" {
				pending = append(pending, schemes.Entry{Title: line, Kind: schemes.EntryInfo, Size: -1})
			}
		}
	}
	for e := first; e != nil; {
		if e, err = sr.next(); err != nil {
			sr.Close()
			return nil, err
		}
	}
	pending = append(pending, l.searchEntry())
	kids, err := newSearch(ctx, sr.s, l, ScopeOne, listAttrs, h.pageSize())
	if err != nil {
		sr.s.Close() // the second search failed: not at rest
		return nil, err
	}
	return l.listing(kids, nil, pending), nil
}

// listing streams pending, then first (nil: none), then the rest of sr's
// entries, each as an entry of a listing of l; closing it ends sr's session.
func (l *URL) listing(sr *search, first *entry, pending []schemes.Entry) *schemes.Response {
	if first != nil {
		pending = append(pending, l.listEntry(first))
	}
	next := func() (schemes.Entry, error) {
		if len(pending) > 0 {
			e := pending[0]
			pending = pending[1:]
			return e, nil
		}
		e, err := sr.next()
		if err != nil {
			return schemes.Entry{}, err
		}
		if e == nil {
			return schemes.Entry{}, io.EOF
		}
		return l.listEntry(e), nil
	}
	return &schemes.Response{Listing: schemes.ListingFunc(next, sr.Close), Kind: schemes.EntryDir, Size: -1, Name: l.LocalName()}
}

// The operational attributes a listing asks for: whether an entry has
// children (X.501 hasSubordinates; OpenLDAP and Active Directory provide
// it), and when it was last changed (RFC 4512 §3.4.4 modifyTimestamp, a
// GeneralizedTime).
const (
	attrHasSubordinates = "hasSubordinates"
	attrModifyTimestamp = "modifyTimestamp"
)

// listAttrs are the attributes a listing asks for: no user attribute,
// only what an entry of a listing says.
var listAttrs = []string{attrHasSubordinates, attrModifyTimestamp}

// listEntry is e as an entry of a listing of l.
func (l *URL) listEntry(e *entry) schemes.Entry {
	dn := string(e.dn)
	loc := l.Entry(dn)
	kind := schemes.EntryDir
	if string(e.value(attrHasSubordinates)) == "FALSE" {
		kind = schemes.EntryFile
	}
	ent := schemes.Entry{Name: loc.LocalName(), Title: dn, Kind: kind, Size: -1, Locator: loc}
	if t, ok := generalizedTime(e.value(attrModifyTimestamp)); ok {
		ent.ModTime, ent.Precision = t, time.Second
	}
	return ent
}

// generalizedTime reads a GeneralizedTime (RFC 4517 §3.3.13) as servers
// write modifyTimestamp: "20261205051500Z", in UTC, with or without a
// fraction of a second (Active Directory's ".0Z"), which is dropped: the
// time is kept to the second. Anything else is no time (false).
func generalizedTime(v []byte) (time.Time, bool) {
	s, ok := strings.CutSuffix(string(v), "Z")
	if !ok {
		return time.Time{}, false
	}
	if i := strings.IndexAny(s, ".,"); i >= 0 {
		s = s[:i]
	}
	t, err := time.Parse("20060102150405", s)
	if err != nil || len(s) != len("20060102150405") {
		return time.Time{}, false
	}
	return t, true
}

// Explain returns the plan without any I/O: the connection, TLS, the
// bind (its password as ****) and the search.
func (h *Handler) Explain(req *schemes.Request) ([]string, error) {
	l, err := schemes.LocatorOf[*URL](req)
	if err != nil {
		return nil, err
	}
	g := l.u
	plan := []string{"connect " + g.HostPort()}
	switch {
	case g.Scheme == schemeLDAPS:
		plan = append(plan, "TLS handshake with "+g.Host)
	case req.RequireTLS:
		plan = append(plan, "extended "+oidStartTLS+" (StartTLS), then the TLS handshake with "+g.Host)
	}
	dn := ""
	if req.Credentials != nil {
		dn, _, _ = req.Credentials(g.Scheme, g.Host, g.EffectivePort())
	}
	if b, ok := l.BindName(); ok {
		dn = b
	}
	if dn == "" {
		plan = append(plan, "no bind (anonymous)")
	} else {
		plan = append(plan, "bind simple "+dn+" (password ****)")
	}
	plan = append(plan, fmt.Sprintf("search base=%q scope=%s filter=%s attributes=%s, %d entries a page (RFC 2696)",
		l.DN, l.Scope, l.Filter, attrList(l.Attributes), h.pageSize()),
		"write the entries as LDIF (RFC 2849), as ldapsearch -LLL does")
	return plan, nil
}
