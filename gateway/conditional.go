package gateway

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// conditional reports whether r asks for a document only if it changed
// (If-None-Match, If-Modified-Since: a cache revalidating what it holds).
func conditional(r *http.Request) bool {
	return r.Header.Get("If-None-Match") != "" || r.Header.Get("If-Modified-Since") != ""
}

// notModified answers r, a conditional GET or HEAD of loc, with 304 Not
// Modified when the scheme's stat (fetch.MethodStat: FTP's MLST or SIZE
// and MDTM, HTTP's HEAD) says the document did not change, without
// fetching it, and reports whether it did. It answers nothing (false)
// when the scheme cannot stat, the stat fails (the GET that follows
// says why), loc is no document the gateway would serve as its bytes (a
// directory, or a message shown as a page), or the document changed.
// An answer fetched with a login or to a form's words is never stored,
// so it is never revalidated either: it is fetched.
//
// If-None-Match is compared (weakly, RFC 9110 §13.1.2) with the tags a
// GET could have given: the server's own, the one of the stat's size
// and time, and the one of the time alone (the GET of a converted text
// counts no size); the 304 carries the one that matched. Without it,
// If-Modified-Since is compared with the stat's time, to its precision
// (RFC 9110 §13.1.3, which If-None-Match overrides); that 304 carries no
// tag, since the client evidently holds none.
func (s *Server) notModified(ctx context.Context, w http.ResponseWriter, r *http.Request, loc schemes.Locator, proxy bool) bool {
	if !conditional(r) || !s.c.Caps(loc).Has(schemes.Stats) || s.private(loc) {
		return false
	}
	st, err := s.c.Do(ctx, &fetch.Request{Method: fetch.MethodStat, URL: loc, WantModTime: true})
	if err != nil || st.Kind != schemes.EntryFile || !proxy && isMessage(contentType(st.Response)) {
		return false
	}
	now := time.Now()
	v := validatorsOf(st.ETag, st.Size, st.ModTime, st.Precision, now)
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		var timeOnly string
		if !st.ModTime.IsZero() {
			timeOnly = madeETag(-1, st.ModTime, st.Precision, now)
		}
		tag := matchNone(inm, v.etag, timeOnly)
		if tag == "" {
			return false
		}
		if tag != "*" {
			v.etag = tag
		}
		s.unchanged(w, loc, v)
		return true
	}
	ims, err := http.ParseTime(r.Header.Get("If-Modified-Since"))
	if err != nil || st.ModTime.IsZero() || schemes.ChangedAfter(st.ModTime, st.Precision, ims) {
		return false
	}
	v.etag = ""
	s.unchanged(w, loc, v)
	return true
}

// unchanged answers 304 with what a 200 would say of the document's
// freshness and version (RFC 9110 §15.4.5), and no body.
func (s *Server) unchanged(w http.ResponseWriter, loc schemes.Locator, v validators) {
	h := w.Header()
	s.cacheAs(h, loc, cacheDocument)
	v.set(h)
	w.WriteHeader(http.StatusNotModified)
}

// timeCondition is the If-Modified-Since of r to ask the scheme of loc
// itself, when it can (Caps Conditional) and cannot stat (notModified
// asked the stat): zero when r has none, has If-None-Match (which
// overrides it), or its answer is never stored (private).
func (s *Server) timeCondition(r *http.Request, loc schemes.Locator) time.Time {
	caps := s.c.Caps(loc)
	if !caps.Has(schemes.Conditional) || caps.Has(schemes.Stats) || r.Header.Get("If-None-Match") != "" || s.private(loc) {
		return time.Time{}
	}
	t, err := http.ParseTime(r.Header.Get("If-Modified-Since"))
	if err != nil {
		return time.Time{}
	}
	return t
}

// cacheStat gives h, the head of a HEAD's answer from the scheme's stat
// st of loc, what cacheAnswer gives a GET's.
func (s *Server) cacheStat(h http.Header, loc schemes.Locator, st *fetch.Response, proxy bool) {
	if st.Kind == schemes.EntryDir {
		s.cacheAs(h, loc, cacheListing)
		if proxy {
			h.Add("Vary", "Accept")
		}
		return
	}
	s.cacheAs(h, loc, cacheDocument)
	if proxy || !isMessage(contentType(st.Response)) {
		validatorsOf(st.ETag, st.Size, st.ModTime, st.Precision, time.Now()).set(h)
	}
}

// rangeStillFits reports whether a Range of r, a request for loc, is to
// be answered: when r has no If-Range, or the document is still the one
// its If-Range names (RFC 9110 §13.1.5): the strong tag the gateway gives
// it, or its Last-Modified, exact to the second, which the scheme's stat
// tells. Otherwise the whole document is sent (200), as a client that
// resumes a copy of another version must get, never bytes of two: also
// when the scheme cannot stat, or the stat fails.
func (s *Server) rangeStillFits(ctx context.Context, r *http.Request, loc schemes.Locator) bool {
	ir := strings.TrimSpace(r.Header.Get("If-Range"))
	if ir == "" {
		return true
	}
	if !s.c.Caps(loc).Has(schemes.Stats) {
		return false
	}
	st, err := s.c.Do(ctx, &fetch.Request{Method: fetch.MethodStat, URL: loc, WantModTime: true})
	if err != nil || st.ModTime.IsZero() && st.ETag == "" {
		return false
	}
	if strings.HasPrefix(ir, `"`) {
		tag := validatorsOf(st.ETag, st.Size, st.ModTime, st.Precision, time.Now()).etag
		return validETag(ir) && ir == tag // the strong comparison: a weak tag never fits
	}
	t, err := http.ParseTime(ir)
	return err == nil && st.Precision <= time.Second && !st.ModTime.IsZero() && st.ModTime.Unix() == t.Unix()
}
