// Package z3950 holds the typed value of the two Z39.50 URL schemes of
// RFC 2056 — the Session URL (z39.50s) and the Retrieval URL (z39.50r) —
// and carries them out over Z39.50-1995 (Init, Search, Present, Close in
// BER). Its parser does no I/O.
package z3950

import (
	"fmt"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// The schemes of RFC 2056 §2.
const (
	schemeSession   = "z39.50s"
	schemeRetrieval = "z39.50r"
)

// forms is the help every structural error ends with (RFC 2056 §2).
const forms = "(want z39.50s://host[:port][/[db{+db}][?docid]][;esn=e][;rs=syntax{+syntax}] or z39.50r://host[:port]/db?docid[;esn=e][;rs=syntax])"

// URL is a parsed Z39.50 URL (RFC 2056 §2):
//
//	z39.50s://<host>[:<port>][/[<database>{+<database>}[?<docid>]][;esn=<elementset>][;rs=<recordsyntax>{+<recordsyntax>}]]
//	z39.50r://<host>[:<port>]/<database>?<docid>[;esn=<elementset>][;rs=<recordsyntax>]
//
// §3 (host required, port 210, a docid needs a database, the docid
// searched as for a Retrieval URL) and §4 (exactly one record must
// match) are checked against the RFC's text. §2's syntax could not be
// read (testdata/rfc2056-notes.md): the form above, with "+" lists of
// databases and record syntaxes in a Session URL, is kept from before;
// the registry's summary of the forms agrees with it but for the lists.
// All fields are decoded.
type URL struct {
	// Retrieval is true for a Retrieval URL (z39.50r): one database, a
	// docid, at most one record syntax; false for a Session URL.
	Retrieval bool
	// Databases are the databases to search, in order; a Retrieval URL
	// has exactly one, a Session URL none or more.
	Databases []string
	// DocID is the query part after "?", decoded, nil when there is
	// none: the one search term naming the item (RFC 2056 §4). A
	// Session URL's docid is searched "in the same manner as for the
	// retrieval URL" (§3), so it is read the same way: "+" is a plus,
	// the whole docid one term.
	DocID *string
	// ESN is the element set name of ";esn=", nil when absent.
	ESN *string
	// RecordSyntaxes are the names (or dotted OIDs) of ";rs=", in order of
	// preference, lower-cased; empty when absent. Each is a known name
	// (SyntaxOf).
	RecordSyntaxes []string

	u *schemes.URL
}

var _ schemes.Locator = (*URL)(nil)

// Parse reads the Z39.50 parts of a generic URL. The attributes start at
// the first ";" of the url-path; the docid at the first "?" before it.
// Errors are *schemes.Error of KindUsage naming the part at fault:
// "scheme", "host", "user", "database", "docid", "esn" or "rs".
func Parse(u *schemes.URL) (*URL, error) {
	if u.Scheme != schemeSession && u.Scheme != schemeRetrieval {
		return nil, u.SyntaxError("scheme", fmt.Sprintf("scheme %q is not %s or %s", u.Scheme, schemeSession, schemeRetrieval))
	}
	u.DefaultPort = schemes.PortOf(declared, u.Scheme)
	if !u.Authority || u.Host == "" {
		return nil, u.SyntaxError("host", "missing host "+forms)
	}
	if u.User != nil {
		// RFC 2056 §2 has only host and port: a user would be dropped.
		return nil, u.SyntaxError("user", "Z39.50 URLs have no user or password")
	}
	z := &URL{Retrieval: u.Scheme == schemeRetrieval, u: u}
	path, attrs, hasAttrs := strings.Cut(u.Path, ";")
	dbs, docid, hasDocID := strings.Cut(path, "?")
	if dbs != "" {
		for _, d := range strings.Split(dbs, "+") {
			if d == "" {
				return nil, u.SyntaxError("database", "empty database name "+forms)
			}
			z.Databases = append(z.Databases, unescape(d))
		}
	}
	if hasDocID {
		if len(z.Databases) == 0 {
			// §3: "A database must be included if docid is included."
			return nil, u.SyntaxError("database", "a docid needs a database "+forms)
		}
		d := unescape(docid)
		z.DocID = &d
	}
	if hasAttrs {
		if err := z.parseAttrs(attrs); err != nil {
			return nil, err
		}
	}
	if z.Retrieval {
		switch {
		case len(z.Databases) != 1:
			return nil, u.SyntaxError("database", "a Retrieval URL names one database "+forms)
		case z.DocID == nil || *z.DocID == "":
			return nil, u.SyntaxError("docid", "a Retrieval URL needs a docid "+forms)
		case len(z.RecordSyntaxes) > 1:
			return nil, u.SyntaxError("rs", "a Retrieval URL names one record syntax "+forms)
		}
	}
	return z, nil
}

// parseAttrs reads ";esn=...;rs=..." (without the first ";"): each at
// most once, in either order, nothing else.
func (z *URL) parseAttrs(attrs string) error {
	for _, a := range strings.Split(attrs, ";") {
		name, value, ok := strings.Cut(a, "=")
		name = strings.ToLower(name)
		if !ok || (name != "esn" && name != "rs") {
			return z.u.SyntaxError("url", fmt.Sprintf("unknown attribute %q (want ;esn= or ;rs=) %s", a, forms))
		}
		if value == "" {
			return z.u.SyntaxError(name, fmt.Sprintf("empty ;%s= %s", name, forms))
		}
		switch name {
		case "esn":
			if z.ESN != nil {
				return z.u.SyntaxError(name, "two ;esn= attributes")
			}
			e := unescape(value)
			z.ESN = &e
		case "rs":
			if z.RecordSyntaxes != nil {
				return z.u.SyntaxError(name, "two ;rs= attributes")
			}
			for _, s := range strings.Split(value, "+") {
				s = strings.ToLower(unescape(s))
				if _, ok := SyntaxOf(s); !ok {
					return z.u.SyntaxError(name, fmt.Sprintf("unknown record syntax %q (want %s or a dotted OID)", s, syntaxNames()))
				}
				z.RecordSyntaxes = append(z.RecordSyntaxes, s)
			}
		}
	}
	return nil
}

// unescape decodes s, whose escapes the generic parser has checked.
func unescape(s string) string {
	d, _ := schemes.Unescape(s)
	return d
}

// Generic returns the scheme-independent parts (host, port).
func (z *URL) Generic() *schemes.URL { return z.u }

// Scheme is the URL's scheme, z39.50s or z39.50r.
func (z *URL) Scheme() string { return z.u.Scheme }

// String formats the URL in canonical form (schemes.FormatLocator): "+",
// "?", ";" and "/" escaped in database names and the esn; "?", ";" and
// "/" in the docid, of either scheme.
func (z *URL) String() string { return schemes.FormatLocator(z.u, false, z.path()) }

// Redacted is String: Z39.50 URLs carry no password.
func (z *URL) Redacted() string { return z.String() }

// path is the canonical url-path, with its leading "/" when it has one.
func (z *URL) path() string {
	if len(z.Databases) == 0 && z.DocID == nil && z.ESN == nil && len(z.RecordSyntaxes) == 0 {
		if z.u.HasPath {
			return "/"
		}
		return ""
	}
	var b strings.Builder
	b.WriteByte('/')
	for i, d := range z.Databases {
		if i > 0 {
			b.WriteByte('+')
		}
		b.WriteString(schemes.Escape(d, "/?;+"))
	}
	if z.DocID != nil {
		b.WriteByte('?')
		b.WriteString(schemes.Escape(*z.DocID, "/?;"))
	}
	if z.ESN != nil {
		b.WriteString(";esn=")
		b.WriteString(schemes.Escape(*z.ESN, "/?;+"))
	}
	if len(z.RecordSyntaxes) > 0 {
		b.WriteString(";rs=")
		for i, s := range z.RecordSyntaxes {
			if i > 0 {
				b.WriteByte('+')
			}
			b.WriteString(schemes.Escape(s, "/?;+"))
		}
	}
	return b.String()
}

// Fields is the JSON object printed by `urlget parse`.
func (z *URL) Fields() any {
	return fields{Retrieval: z.Retrieval, Databases: z.Databases, DocID: z.DocID, ESN: z.ESN, RecordSyntaxes: z.RecordSyntaxes}
}

type fields struct {
	Retrieval      bool     `json:"retrieval"`
	Databases      []string `json:"databases"`
	DocID          *string  `json:"docid"`
	ESN            *string  `json:"esn"`
	RecordSyntaxes []string `json:"rs"`
}

// LocalName is the docid of a Retrieval URL, else the first database's
// name (what a search's listing would be saved under); "" with neither.
func (z *URL) LocalName() string {
	switch {
	case z.Retrieval && z.DocID != nil:
		return schemes.BaseName(*z.DocID)
	case len(z.Databases) > 0:
		return schemes.BaseName(z.Databases[0])
	}
	return ""
}

// Words are the terms searched: the docid, whole, as one term, of either
// scheme (RFC 2056 §3 searches a Session URL's docid as §4 does a
// Retrieval URL's); nil without a docid or with an empty one.
func (z *URL) Words() []string {
	if z.DocID == nil || *z.DocID == "" {
		return nil
	}
	return []string{*z.DocID}
}

// WithSearch is the Session URL searching z's databases for words, taken
// whole as its docid, one term (schemes.Searcher), with z's esn and rs.
func (z *URL) WithSearch(words string) (schemes.Locator, error) {
	u := *z.u
	u.Scheme, u.Fragment = schemeSession, nil
	dbs := z.Databases
	if len(dbs) == 0 {
		dbs = []string{DefaultDatabase}
	}
	rs := z.RecordSyntaxes
	s := (&URL{Databases: dbs, DocID: &words, ESN: z.ESN, RecordSyntaxes: rs, u: &u}).String()
	pu, err := schemes.Parse(s)
	if err != nil {
		return nil, err
	}
	return Parse(pu)
}
