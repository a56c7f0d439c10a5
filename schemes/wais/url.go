// Package wais holds the typed value of wais URLs (RFC 1738 §3.9): a
// database, a search of it, or one document of it. It parses only; it does
// no I/O.
package wais

import (
	"fmt"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// forms is the help every structural error ends with.
const forms = "(want /database, /database?search or /database/wtype/wpath)"

// URL is a parsed wais URL, one of
//
//	wais://host:port/database
//	wais://host:port/database?search
//	wais://host:port/database/wtype/wpath
//
// All fields are decoded. At most one of Search and WType/WPath is set;
// WType and WPath are set together.
type URL struct {
	// Database is the name of the WAIS database; never empty.
	Database string
	// Search is the search of the second form, nil otherwise. A "+" in the
	// URL means a space (the libwww convention every WAIS client follows,
	// since HTML forms write spaces that way); a real "+" is written %2B.
	Search *string
	// WType is the WAIS type of the document of the third form ("TEXT",
	// or "TEXT,HTML" as libwww writes it), nil otherwise.
	WType *string
	// WPath is the document id of the third form, decoded, nil otherwise.
	// It may contain "/": clients write it as "<length>/<docname>". A
	// handler rebuilding the DocID must split EscapedWPath instead, since
	// decoding merges a "%3B" inside a value with the ";" between records.
	WPath *string

	// rawWPath is WPath escaped as written, brought to the generic
	// canonical level (NormalizeEscapes with IsUnreserved: no reserved
	// character decoded, so the ";" and "=" of DocID records stay told
	// from escaped ones); see EscapedWPath.
	rawWPath string

	u *schemes.URL
}

var _ schemes.Locator = (*URL)(nil)

// Parse reads the wais-specific parts of a generic URL. The first "/" or
// "?" after the database decides the form; in the third form wtype ends at
// the next "/" and wpath is all the rest, "/" included. Errors are
// *schemes.Error of KindUsage naming the part at fault: "scheme", "host",
// "user", "database", "wtype" or "wpath".
func Parse(u *schemes.URL) (*URL, error) {
	if u.Scheme != "wais" {
		return nil, u.SyntaxError("scheme", fmt.Sprintf("scheme %q is not wais", u.Scheme))
	}
	u.DefaultPort = schemes.PortOf(declared, u.Scheme)
	if !u.Authority || u.Host == "" {
		return nil, u.SyntaxError("host", "missing host "+forms)
	}
	if u.User != nil {
		// The BNF has only hostport: a user would be silently dropped.
		return nil, u.SyntaxError("user", "wais URLs have no user or password")
	}
	w := &URL{u: u}
	path := u.Path
	db, rest, sep := path, "", byte(0)
	if i := strings.IndexAny(path, "/?"); i >= 0 {
		db, rest, sep = path[:i], path[i+1:], path[i]
	}
	if db == "" {
		return nil, u.SyntaxError("database", "missing database "+forms)
	}
	w.Database = unescape(db)
	switch sep {
	case '?':
		s := unescape(strings.ReplaceAll(rest, "+", " "))
		w.Search = &s
	case '/':
		wtype, wpath, ok := strings.Cut(rest, "/")
		switch {
		case wtype == "":
			return nil, u.SyntaxError("wtype", "missing wtype "+forms)
		case !ok || wpath == "":
			return nil, u.SyntaxError("wpath", "missing wpath "+forms)
		}
		t, p := unescape(wtype), unescape(wpath)
		w.WType, w.WPath, w.rawWPath = &t, &p, schemes.NormalizeEscapes(wpath, schemes.IsUnreserved)
	}
	return w, nil
}

// unescape decodes s, whose escapes the generic parser has checked.
func unescape(s string) string {
	d, _ := schemes.Unescape(s)
	return d
}

// Generic returns the scheme-independent parts (host, port).
func (w *URL) Generic() *schemes.URL { return w.u }

// EscapedWPath is the document id as written in the URL, still escaped
// (in canonical form: only escapes of unreserved characters decoded),
// for splitting into DocID records ("1=...;2=...;") before decoding each
// value. It is "" when WPath is nil; if WPath was changed after Parse, it
// is WPath escaped afresh.
func (w *URL) EscapedWPath() string {
	switch {
	case w.WPath == nil:
		return ""
	case unescape(w.rawWPath) == *w.WPath:
		return w.rawWPath
	}
	return schemes.Escape(*w.WPath, "")
}

// String formats the URL in canonical form (schemes.FormatLocator) from
// its typed fields: "/" and "?" are escaped in the database and wtype,
// "/", "?" and "+" in the search, whose spaces are written "+" (so "+"
// and "%20" are one search); the wpath is written as EscapedWPath gives
// it.
func (w *URL) String() string { return schemes.FormatLocator(w.u, false, w.path()) }

// Redacted is String; wais URLs carry no password, but Locator wants it.
func (w *URL) Redacted() string { return w.String() }

// path is the canonical "/database[?search|/wtype/wpath]".
func (w *URL) path() string {
	var b strings.Builder
	b.WriteByte('/')
	b.WriteString(schemes.Escape(w.Database, "/?"))
	switch {
	case w.Search != nil:
		b.WriteByte('?')
		// "%20" can only come from a space: a "%" itself is written "%25".
		b.WriteString(strings.ReplaceAll(schemes.Escape(*w.Search, "/?+"), "%20", "+"))
	case w.WType != nil || w.WPath != nil:
		b.WriteByte('/')
		if w.WType != nil {
			b.WriteString(schemes.Escape(*w.WType, "/?"))
		}
		b.WriteByte('/')
		b.WriteString(w.EscapedWPath())
	}
	return b.String()
}

// Fields is the JSON object printed by `urlget parse`:
// {"database": "...", "search": null|"...", "wtype": null|"...", "wpath": null|"..."}.
func (w *URL) Fields() any {
	return fields{Database: w.Database, Search: w.Search, WType: w.WType, WPath: w.WPath}
}

type fields struct {
	Database string  `json:"database"`
	Search   *string `json:"search"`
	WType    *string `json:"wtype"`
	WPath    *string `json:"wpath"`
}

// WithSearch is the URL of the search of w's database for words
// (schemes.Searcher); a document URL's database is searched.
func (w *URL) WithSearch(words string) (schemes.Locator, error) {
	u := *w.u
	u.Fragment = nil
	s := (&URL{Database: w.Database, Search: &words, u: &u}).String()
	pu, err := schemes.Parse(s)
	if err != nil {
		return nil, err
	}
	return Parse(pu)
}
