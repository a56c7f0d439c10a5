package gateway

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// How long a cache (a browser's, or a shared one in front of the
// gateway: nginx's proxy_cache, a CDN) may serve the gateway's answers
// without asking again, when Options.DocumentMaxAge and ListingMaxAge
// are zero. A document changes seldom, and when a cache asks again the
// answer is a 304 from the scheme's stat, which costs the server no
// transfer; a listing is one request to read again, and shows what came
// or went, so it is kept fresh for less.
const (
	DefaultDocumentMaxAge = 5 * time.Minute
	DefaultListingMaxAge  = time.Minute
)

// The Cache-Control values of answers that no cache may keep: the
// gateway's answers start with noStore (ServeHTTP), so that every
// failure, refusal, redirect and form is never stored, and only the
// answers that may be are given another (cacheAs). An answer fetched
// with a login, or to a form's words, is private as well: it is one
// person's, and the words or the login's rights made it.
const (
	noStore      = "no-store"
	privateStore = "private, no-store"
)

// cacheKind is what an answer is, for how long it may be kept.
type cacheKind int

const (
	cacheDocument cacheKind = iota // a document, as its server sent it, or shown as a page
	cacheListing                   // a listing (HTML or JSON), or a page the gateway makes alone
)

// maxAge is the freshness lifetime of answers of kind.
func (s *Server) maxAge(kind cacheKind) time.Duration {
	d, def := s.opt.ListingMaxAge, DefaultListingMaxAge
	if kind == cacheDocument {
		d, def = s.opt.DocumentMaxAge, DefaultDocumentMaxAge
	}
	switch {
	case d == 0:
		return def
	case d < 0:
		return 0
	}
	return d
}

// cacheControl is the Cache-Control of an answer of kind about loc:
// private and never stored when loc was fetched with a login or carries
// a form's words (see private), else fresh for the kind's max-age, or
// stored but revalidated at each use (no-cache) when that is 0.
func (s *Server) cacheControl(loc schemes.Locator, kind cacheKind) string {
	if loc != nil && s.private(loc) {
		return privateStore
	}
	age := s.maxAge(kind)
	if age <= 0 {
		return "no-cache"
	}
	return "max-age=" + strconv.FormatInt(int64(age/time.Second), 10)
}

// cacheAs gives h the Cache-Control of an answer of kind about loc.
func (s *Server) cacheAs(h http.Header, loc schemes.Locator, kind cacheKind) {
	h.Set("Cache-Control", s.cacheControl(loc, kind))
}

// private reports whether an answer about loc is one person's: it was
// fetched with a login (a password in the URL or one the gateway
// remembers, or a login of the Client's own: Credentials, Netrc) or
// carries words a form sent (a search's, a gemini input's).
func (s *Server) private(loc schemes.Locator) bool {
	g := loc.Generic()
	if g.Password != nil {
		return true
	}
	if g.User != nil {
		if _, ok := s.logins.recall(g); ok {
			return true
		}
	}
	if g.Host != "" && g.User == nil && s.c.Credentials != nil {
		if _, _, ok := s.c.Credentials(g.Scheme, g.Host, g.EffectivePort()); ok {
			return true
		}
	}
	if g.Host != "" && s.c.Netrc != nil {
		// A netrc gives a URL without a login its login, and one with
		// its user that user's password.
		if login, _, ok := s.c.Netrc.Lookup(g.Host); ok && (g.User == nil || login == *g.User) {
			return true
		}
	}
	return hasWords(loc)
}

// hasWords reports whether loc carries a form's words: it is a search
// (schemes.Searcher) whose URL with its words taken out does not start
// with loc's (a URL without words gains only the empty search's
// separator, gopher's %09, a "?"). A URL the scheme writes otherwise
// without words counts as with them: the answer is then not stored,
// never stored wrongly.
func hasWords(loc schemes.Locator) bool {
	sr, ok := loc.(schemes.Searcher)
	if !ok {
		return false
	}
	bare, err := sr.WithSearch("")
	return err == nil && !strings.HasPrefix(bare.String(), loc.String())
}

// validators are what the gateway tells of a document's version: its
// entity tag (ETag, "" when there is none to make) and its time.
type validators struct {
	etag string
	mod  time.Time
}

// validatorsOf makes the validators of a document from what its scheme
// told of it: the server's own entity tag where it gave one (HTTP's),
// else one made of its size and modification time — never of its name,
// URL or login. Such a tag is strong only when both are known and the
// time is exact to the second and older than its precision (RFC 9110
// §8.8.2.2: a time as recent as that could hide a second change within
// it); weak (W/) otherwise, and made of the time alone when the size is
// not known (a transfer that converts text, FTP's TYPE A, counts no
// bytes before it ends). Without a time there is no tag.
func validatorsOf(etag string, size int64, mod time.Time, prec time.Duration, now time.Time) validators {
	v := validators{mod: mod}
	if etag != "" && validETag(etag) {
		v.etag = etag
		return v
	}
	if mod.IsZero() {
		return v
	}
	v.etag = madeETag(size, mod, prec, now)
	return v
}

// madeETag is the entity tag of a document of size bytes last modified at
// mod, known to prec (see validatorsOf).
func madeETag(size int64, mod time.Time, prec time.Duration, now time.Time) string {
	secs := strconv.FormatInt(mod.Unix(), 16)
	if size < 0 {
		return `W/"` + secs + `"`
	}
	tag := `"` + strconv.FormatInt(size, 16) + "-" + secs + `"`
	if prec > time.Second || now.Sub(mod) < max(prec, time.Second) {
		return "W/" + tag
	}
	return tag
}

// set gives h the validators v has.
func (v validators) set(h http.Header) {
	if v.etag != "" {
		h.Set("ETag", v.etag)
	}
	if !v.mod.IsZero() {
		h.Set("Last-Modified", v.mod.UTC().Format(http.TimeFormat))
	}
}

// validETag reports whether t is an entity-tag as RFC 9110 §8.8.3 spells
// one: [W/] DQUOTE *etagc DQUOTE, etagc being any visible character but
// DQUOTE, or obs-text. A server's tag that is not is not passed on: it
// could carry anything into the gateway's header.
func validETag(t string) bool {
	t = strings.TrimPrefix(t, "W/")
	if len(t) < 2 || t[0] != '"' || t[len(t)-1] != '"' {
		return false
	}
	for i := 1; i < len(t)-1; i++ {
		if c := t[i]; c == '"' || c < 0x21 || c == 0x7f {
			return false
		}
	}
	return true
}

// tagOpaque is an entity tag without its weakness, for the weak comparison
// (RFC 9110 §8.8.3.2) that If-None-Match asks for.
func tagOpaque(t string) string { return strings.TrimPrefix(strings.TrimSpace(t), "W/") }

// matchNone returns the entity tag of the list field (an If-None-Match)
// that matches one of tags by the weak comparison, or "*" when the field
// is "*" and tags is not empty (the document is there), or "".
func matchNone(field string, tags ...string) string {
	field = strings.TrimSpace(field)
	if field == "" {
		return ""
	}
	if field == "*" {
		for _, t := range tags {
			if t != "" {
				return "*"
			}
		}
		return ""
	}
	for _, f := range entityTags(field) {
		for _, t := range tags {
			if t != "" && tagOpaque(f) == tagOpaque(t) {
				return f
			}
		}
	}
	return ""
}

// entityTags reads a list of entity tags (RFC 9110 §5.6.1, §8.8.3: a
// comma may stand inside a tag's quotes), up to the first thing in it
// that is no entity tag.
func entityTags(field string) []string {
	var out []string
	for {
		field = strings.TrimLeft(field, " \t,")
		if field == "" {
			return out
		}
		weak := strings.HasPrefix(field, "W/")
		rest := strings.TrimPrefix(field, "W/")
		if !strings.HasPrefix(rest, `"`) {
			return out
		}
		end := strings.IndexByte(rest[1:], '"')
		if end < 0 {
			return out
		}
		n := end + 2
		if weak {
			n += 2
		}
		if t := field[:n]; validETag(t) {
			out = append(out, t)
		}
		field = field[n:]
	}
}

// cacheAnswer gives h what caches are told of the answer to r, a request
// for loc that resp answers (a document, or a listing: HTML, or JSON to
// a proxy's client that asked for it), before it is sent: how long it
// stays fresh (cacheControl; private when loc or the URL a redirect led
// to is), a document's validators, and that a proxy's listing depends
// on the Accept header (HTML or JSON: Vary).
func (s *Server) cacheAnswer(h http.Header, loc schemes.Locator, resp *fetch.Response, proxy bool) {
	kind := cacheDocument
	if resp.Listing != nil || resp.Body == nil {
		kind = cacheListing
	}
	s.cacheAs(h, loc, kind)
	if resp.URL != nil && s.private(resp.URL) {
		h.Set("Cache-Control", privateStore)
	}
	if resp.Listing != nil && proxy {
		h.Add("Vary", "Accept")
	}
	// A message shown as a page is not the bytes the tags stand for.
	if kind == cacheDocument && (proxy || !isMessage(contentType(resp.Response))) {
		validatorsOf(resp.ETag, resp.Size, resp.ModTime, resp.Precision, time.Now()).set(h)
	}
}
