package ldap

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	asn1ber "github.com/go-asn1-ber/asn1-ber"
	goldap "github.com/go-ldap/ldap/v3"

	"github.com/urlget/urlget/internal/ber"
	"github.com/urlget/urlget/schemes"
)

// DefaultPageSize is the number of entries a search asks for at a time
// with the paged results control (RFC 2696): a large subtree comes in
// pages, which servers limit less than one search of everything.
const DefaultPageSize = 500

// The scopes of a SearchRequest (RFC 4511 §4.5.1.2).
var scopeCodes = map[string]int64{ScopeBase: 0, ScopeOne: 1, ScopeSub: 2}

// search runs one search on a session, page after page, handing its
// entries to its reader one at a time: each is decoded in place from
// the message just read, so memory holds one message whatever the
// search's size.
type search struct {
	s        *session
	ctx      context.Context
	l        *URL
	scope    string
	attrs    []string
	pageSize int
	id       int64  // the outstanding request
	cookie   []byte // the paging cookie of the last page, nil if none came
	entries  int
	// pages counts the pages that ended with a cookie, inPage the
	// entries of the current page, and bytes the entries' size: what
	// the batches of the reads are judged by (batchFor).
	pages, inPage int
	bytes         int
	done          bool
	// clean says the search ended with its result, success: the
	// session is at rest, and may serve the next request.
	clean  bool
	closed bool
	// keepRefs hands references (RFC 4511 §4.5.3) on as entries with
	// refs set, for the LDIF, which prints them as ldapsearch does; a
	// listing has no place for them, and only traces them.
	keepRefs bool
	ent      entry // the entry last read, reused
	// referrals are those of the result that ended the search, if any.
	referrals []string
}

// entry is a SearchResultEntry, its parts pointing into the message; or,
// with refs set, a SearchResultReference's URLs (then dn and attrs are
// empty).
type entry struct {
	dn    []byte
	attrs []attribute
	refs  [][]byte
}

// attribute is one attribute of an entry with its values as sent.
type attribute struct {
	name   []byte
	values [][]byte
}

// newSearch starts l's search on s, with scope and attrs instead of l's
// when not "" and non-nil.
func newSearch(ctx context.Context, s *session, l *URL, scope string, attrs []string, pageSize int) (*search, error) {
	if scope == "" {
		scope = l.Scope
	}
	if attrs == nil {
		attrs = l.Attributes
	}
	sr := &search{s: s, ctx: ctx, l: l, scope: scope, attrs: attrs, pageSize: pageSize}
	s.tr.Sent(fmt.Sprintf("search base=%q scope=%s filter=%s attributes=%s page=%d",
		l.DN, scope, l.Filter, attrList(attrs), pageSize))
	return sr, sr.send()
}

// send sends the SearchRequest (RFC 4511 §4.5.1) for the next page.
func (sr *search) send() error {
	filter, err := goldap.CompileFilter(sr.l.Filter)
	if err != nil {
		return &schemes.Error{Scheme: sr.s.scheme, Phase: "search", Kind: schemes.KindUsage, Part: "filter", Msg: err.Error()}
	}
	op := asn1ber.Encode(asn1ber.ClassApplication, asn1ber.TypeConstructed, goldap.ApplicationSearchRequest, nil, "SearchRequest")
	op.AppendChild(asn1ber.NewString(asn1ber.ClassUniversal, asn1ber.TypePrimitive, asn1ber.TagOctetString, sr.l.DN, "baseObject"))
	op.AppendChild(asn1ber.NewInteger(asn1ber.ClassUniversal, asn1ber.TypePrimitive, asn1ber.TagEnumerated, scopeCodes[sr.scope], "scope"))
	op.AppendChild(asn1ber.NewInteger(asn1ber.ClassUniversal, asn1ber.TypePrimitive, asn1ber.TagEnumerated, 0, "derefAliases: never"))
	op.AppendChild(asn1ber.NewInteger(asn1ber.ClassUniversal, asn1ber.TypePrimitive, asn1ber.TagInteger, 0, "sizeLimit"))
	op.AppendChild(asn1ber.NewInteger(asn1ber.ClassUniversal, asn1ber.TypePrimitive, asn1ber.TagInteger, 0, "timeLimit"))
	op.AppendChild(asn1ber.NewBoolean(asn1ber.ClassUniversal, asn1ber.TypePrimitive, asn1ber.TagBoolean, false, "typesOnly"))
	op.AppendChild(filter)
	as := asn1ber.Encode(asn1ber.ClassUniversal, asn1ber.TypeConstructed, asn1ber.TagSequence, nil, "attributes")
	for _, a := range sr.attrs {
		as.AppendChild(asn1ber.NewString(asn1ber.ClassUniversal, asn1ber.TypePrimitive, asn1ber.TagOctetString, a, "attribute"))
	}
	op.AppendChild(as)
	paging := goldap.NewControlPaging(uint32(sr.pageSize))
	paging.SetCookie(sr.cookie)
	controls := asn1ber.Encode(asn1ber.ClassContext, asn1ber.TypeConstructed, 0, nil, "controls")
	controls.AppendChild(paging.Encode())
	sr.cookie = nil
	sr.id, err = sr.s.send(op, controls)
	if err != nil {
		return resultError(sr.s.scheme, "search", err)
	}
	return nil
}

// attrList is attrs for a trace line ("*" for all user attributes).
func attrList(attrs []string) string {
	if len(attrs) == 0 {
		return "*"
	}
	return strings.Join(attrs, ",")
}

// next returns the next entry, valid until the next call, nil at the end
// of the search. References to other servers (RFC 4511 §4.5.3) are noted
// in the trace and not followed, as ldapsearch does not chase them
// (without -C); with keepRefs each is returned as an entry with refs.
func (sr *search) next() (*entry, error) {
	for !sr.done {
		if err := sr.ctx.Err(); err != nil {
			sr.done = true
			return nil, schemes.IOError(sr.s.scheme, "search", err)
		}
		sr.s.batch.want = sr.batchFor()
		m, err := sr.s.read(sr.id)
		if err != nil {
			return nil, sr.fail(err)
		}
		switch m.op {
		case opSearchEntry:
			sr.ent.refs = sr.ent.refs[:0]
			if err := sr.ent.decode(m.body); err != nil {
				return nil, sr.fail(err)
			}
			sr.entries++
			sr.inPage++
			sr.bytes += len(m.body)
			return &sr.ent, nil
		case opSearchReference:
			sr.ent.refs = sr.ent.refs[:0]
			for refs := m.body; len(refs) > 0; {
				var u []byte
				if u, refs, err = ber.Expect(refs, berOctetString); err != nil {
					return nil, sr.fail(err)
				}
				sr.s.tr.Received("reference " + schemes.Printable(string(u), 200) + " (not followed)")
				sr.ent.refs = append(sr.ent.refs, u)
			}
			if sr.keepRefs && len(sr.ent.refs) > 0 {
				sr.ent.dn, sr.ent.attrs = nil, sr.ent.attrs[:0]
				return &sr.ent, nil
			}
		case opIntermediate:
			// RFC 4511 §4.13: only for the extensions a request asked
			// for, which a search here asks for none of.
		case opSearchDone:
			r, err := parseResult(m.body)
			if err != nil {
				return nil, sr.fail(err)
			}
			if r.code != resultSuccess {
				sr.referrals = r.referrals
				return nil, sr.fail(&ldapError{r})
			}
			if sr.cookie, err = pagingCookie(m.controls); err != nil {
				return nil, sr.fail(err)
			}
			if len(sr.cookie) == 0 {
				// The last page, or a server that ignored the
				// (non-critical) control and sent everything at once.
				sr.done, sr.clean = true, true
				sr.s.tr.Received(fmt.Sprintf("search: success, %d entries", sr.entries))
				return nil, nil
			}
			sr.pages++
			sr.inPage = 0
			sr.s.tr.Sent(fmt.Sprintf("search: next page (%d entries so far)", sr.entries))
			if err := sr.send(); err != nil {
				sr.done = true
				return nil, err
			}
		default:
			return nil, sr.fail(fmt.Errorf("%w: reply 0x%02x to a search", errBER, m.op))
		}
	}
	return nil, nil
}

// batchMark is the batch a read waits for while a page has plenty to
// come (see batchConn).
const batchMark = 8 << 10

// batchFor is the batch the next read may wait for: batchMark while the
// current page's entries still to come (a full page's, at the size of
// those so far) make twice that; none on the first page, which may be
// the whole of a small search, nor for a page's first entry (the server
// is still working on the request), nor near a page's end.
func (sr *search) batchFor() int {
	if sr.pages == 0 || sr.entries == 0 || sr.inPage == 0 {
		return 0
	}
	if (sr.pageSize-sr.inPage)*(sr.bytes/sr.entries) < 2*batchMark {
		return 0
	}
	return batchMark
}

// fail ends the search with err, traced.
func (sr *search) fail(err error) error {
	sr.done = true
	e := resultError(sr.s.scheme, "search", err)
	sr.s.tr.Received(fmt.Sprintf("search: %d entries, then %v", sr.entries, e))
	return e
}

// decode reads a SearchResultEntry's contents into e, reusing its slices.
func (e *entry) decode(b []byte) error {
	dn, rest, err := ber.Expect(b, berOctetString)
	if err != nil {
		return err
	}
	list, _, err := ber.Expect(rest, berSequence)
	if err != nil {
		return err
	}
	e.dn, e.attrs = dn, e.attrs[:0]
	for len(list) > 0 {
		var pa, name, vals, v []byte
		if pa, list, err = ber.Expect(list, berSequence); err != nil {
			return err
		}
		if name, rest, err = ber.Expect(pa, berOctetString); err != nil {
			return err
		}
		if vals, _, err = ber.Expect(rest, berSet); err != nil {
			return err
		}
		n := len(e.attrs)
		if n < cap(e.attrs) {
			e.attrs = e.attrs[:n+1]
		} else {
			e.attrs = append(e.attrs, attribute{})
		}
		a := &e.attrs[n]
		a.name, a.values = name, a.values[:0]
		for len(vals) > 0 {
			if v, vals, err = ber.Expect(vals, berOctetString); err != nil {
				return err
			}
			a.values = append(a.values, v)
		}
	}
	return nil
}

// value is the first value of the attribute named name, nil if none.
func (e *entry) value(name string) []byte {
	for _, a := range e.attrs {
		if len(a.values) > 0 && strings.EqualFold(string(a.name), name) {
			return a.values[0]
		}
	}
	return nil
}

// pagingCookie reads the paged results control (RFC 2696 §2) among a
// SearchResultDone's controls, and returns a copy of its cookie (the
// message's buffer is reused), nil if there is none.
func pagingCookie(controls []byte) ([]byte, error) {
	for len(controls) > 0 {
		c, rest, err := ber.Expect(controls, berSequence)
		if err != nil {
			return nil, err
		}
		controls = rest
		typ, c, err := ber.Expect(c, berOctetString)
		if err != nil {
			return nil, err
		}
		if string(typ) != goldap.ControlTypePaging {
			continue
		}
		if len(c) > 0 && c[0] == berBoolean {
			if _, c, err = ber.Expect(c, berBoolean); err != nil {
				return nil, err
			}
		}
		if len(c) == 0 {
			return nil, nil
		}
		val, _, err := ber.Expect(c, berOctetString)
		if err != nil {
			return nil, err
		}
		seq, _, err := ber.Expect(val, berSequence)
		if err != nil {
			return nil, err
		}
		_, seq, err = ber.Expect(seq, berInteger)
		if err != nil {
			return nil, err
		}
		cookie, _, err := ber.Expect(seq, berOctetString)
		if err != nil {
			return nil, err
		}
		return bytes.Clone(cookie), nil
	}
	return nil, nil
}

// Close ends the search: a search that ended cleanly gives its session
// back for the next request (session.keep); one cut short, or failed,
// ends the session, the search with it.
func (sr *search) Close() error {
	if sr.closed {
		return nil // the session may serve another request by now
	}
	sr.closed = true
	if sr.clean {
		return sr.s.keep()
	}
	return sr.s.Close()
}

// ldifBody is a search's entries in LDIF, formatted an entry at a time
// as the body is read.
type ldifBody struct {
	sr  *search
	buf []byte // the current entry's LDIF
	off int    // how much of buf was read
	err error
}

// Read fills p with as many entries as have arrived: it waits for the
// server only while it has nothing to give, so that output comes in large
// writes (ldapsearch's stdio buffers it the same way) and still as soon as
// the server sends it.
func (b *ldifBody) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if b.off == len(b.buf) {
			if b.err != nil || (n > 0 && b.sr.s.rd.r.Buffered() == 0) {
				break
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
			b.buf, b.off = e.appendLDIF(b.buf[:0]), 0
		}
		c := copy(p[n:], b.buf[b.off:])
		b.off += c
		n += c
	}
	if n > 0 {
		return n, nil
	}
	return 0, b.err
}

func (b *ldifBody) Close() error { return b.sr.Close() }
