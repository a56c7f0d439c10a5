// Package prospero holds the typed value of prospero URLs (RFC 1738 §3.11):
//
//	prospero://<host>:<port>/<hsoname>;<field>=<value>
//
// It parses only; it does no I/O. See /work/shared/specs/prospero-notes.md
// §8 for how a handler resolves the value.
package prospero

import (
	"fmt"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// hsonameReserved is what §3.11 reserves in the hsoname: ";" starts the
// fields. "/" and "?" are data there ("no significance may be assumed").
const hsonameReserved = ";"

// fieldReserved is what the BNF's fieldname and fieldvalue exclude: ";"
// ends a field and "=" separates its name from its value.
const fieldReserved = ";="

// Field is one ";name=value" pair after the hsoname, decoded.
type Field = schemes.NameValue

// URL is a parsed prospero URL. The host is required, the port defaults to
// 1525, and no user name or password is allowed.
type URL struct {
	// HSOName is the host-specific object name, decoded, opaque to the
	// client. The "/" after the host is the URL's separator, not part of
	// it: prospero://host.dom//pros/name has the hsoname "/pros/name".
	// "?" and "/" are data in it, not a query or hierarchy.
	HSOName string
	// FieldList holds the ";field=value" pairs in the order written, e.g.
	// OBJECT-VERSION, which selects a version of the object.
	FieldList []Field

	u *schemes.URL
}

var _ schemes.Locator = (*URL)(nil)

// Parse reads a generic prospero URL. Errors are *schemes.Error of
// KindUsage naming the part at fault: "scheme", "host", "user", "hsoname"
// or "field".
//
// The hsoname must not be empty, and must not hold a NUL ("%00"): a
// Prospero server reads names as C strings, and the one source of "%00" in
// prospero URLs is the 1994 URI draft's "hsoname%00version" syntax, which
// RFC 1738 replaced with ";OBJECT-VERSION=version" — the error says so.
// Other decoded octets, CR and LF included, are kept for the handler to
// check.
func Parse(u *schemes.URL) (*URL, error) {
	if u.Scheme != "prospero" {
		return nil, u.SyntaxError("scheme", fmt.Sprintf("scheme %q is not prospero", u.Scheme))
	}
	u.DefaultPort = schemes.PortOf(declared, u.Scheme)
	if !u.Authority || u.Host == "" {
		return nil, u.SyntaxError("host", "missing host (want prospero://host:port/hsoname)")
	}
	if u.User != nil {
		return nil, u.SyntaxError("user", "a prospero URL has no user name or password (RFC 1738 §3.11)")
	}
	hsoText, fieldText, hasFields := strings.Cut(u.Path, ";")
	hso, err := schemes.Unescape(hsoText)
	switch {
	case err != nil:
		return nil, u.SyntaxError("hsoname", fmt.Sprintf("bad hsoname %q: %v", hsoText, err))
	case hso == "":
		return nil, u.SyntaxError("hsoname", "missing hsoname (want prospero://host:port/hsoname)")
	case strings.IndexByte(hso, 0) >= 0:
		return nil, u.SyntaxError("hsoname",
			fmt.Sprintf("NUL (%%00) in hsoname %q: the draft's hsoname%%00version form is obsolete, write ;OBJECT-VERSION=version", hsoText))
	}
	p := &URL{HSOName: hso, u: u}
	if hasFields {
		for _, f := range strings.Split(fieldText, ";") {
			field, err := parseField(u, f)
			if err != nil {
				return nil, err
			}
			p.FieldList = append(p.FieldList, field)
		}
	}
	return p, nil
}

// parseField reads one `fieldspec = ";" fieldname "=" fieldvalue`. The
// name must not be empty; the value may be. A second literal "=" is an
// error, since the BNF excludes it from both (write it as %3D).
func parseField(u *schemes.URL, f string) (Field, error) {
	nameText, valueText, ok := strings.Cut(f, "=")
	switch {
	case !ok:
		return Field{}, u.SyntaxError("field", fmt.Sprintf("bad field %q (want ;name=value)", ";"+f))
	case nameText == "":
		return Field{}, u.SyntaxError("field", fmt.Sprintf("empty field name in %q (want ;name=value)", ";"+f))
	case strings.IndexByte(valueText, '=') >= 0:
		return Field{}, u.SyntaxError("field", fmt.Sprintf(`literal "=" in the value of field %q (write it as %%3D)`, ";"+f))
	}
	name, err1 := schemes.Unescape(nameText)
	value, err2 := schemes.Unescape(valueText)
	if err1 != nil || err2 != nil {
		return Field{}, u.SyntaxError("field", fmt.Sprintf("bad field %q: malformed escape", ";"+f))
	}
	return Field{Name: name, Value: value}, nil
}

// Field returns the value of the first field whose name equals name
// without regard to ASCII case (Prospero attribute names are upper case by
// convention: OBJECT-VERSION), and whether there is one.
func (p *URL) Field(name string) (string, bool) {
	for _, f := range p.FieldList {
		if strings.EqualFold(f.Name, name) {
			return f.Value, true
		}
	}
	return "", false
}

// Generic returns the scheme-independent parts (host and port).
func (p *URL) Generic() *schemes.URL { return p.u }

// String formats the URL in canonical form (schemes.FormatLocator) from
// its typed fields, each re-escaped from its decoded value: ";" escaped in
// the hsoname, ";" and "=" in field names and values, nothing else but
// what must be (§3.11 reserves nothing more, so "%2F" and "/" give one
// hsoname).
func (p *URL) String() string { return schemes.FormatLocator(p.u, false, p.path()) }

// path is the canonical "/hsoname;field=value...".
func (p *URL) path() string {
	var b strings.Builder
	b.WriteByte('/')
	b.WriteString(schemes.Escape(p.HSOName, hsonameReserved))
	for _, f := range p.FieldList {
		b.WriteByte(';')
		b.WriteString(schemes.Escape(f.Name, fieldReserved))
		b.WriteByte('=')
		b.WriteString(schemes.Escape(f.Value, fieldReserved))
	}
	return b.String()
}

// Redacted is String: a prospero URL has no password.
func (p *URL) Redacted() string { return p.String() }

// LocalName is the link name: the hsoname's last "/" component, a
// trailing "/" aside ("/pros/docs/" names "docs"), as the handler looks
// a name up among its parent's links; the ";field=value" pairs are no
// part of it. The hsoname is opaque to RFC 1738, but Prospero's own names
// are paths of links, and it is the only name the URL has.
func (p *URL) LocalName() string { return schemes.BaseName(strings.TrimSuffix(p.HSOName, "/")) }

// Fields is the JSON object printed by `urlget parse`:
// {"hsoname": "...", "fields": {"NAME": "value", ...}}, fields in the
// order written. A name written more than once maps to an array of its
// values, so nothing is lost (FieldList keeps the exact sequence).
func (p *URL) Fields() any {
	return prosperoFields{HSOName: p.HSOName, Fields: schemes.OrderedObject(p.FieldList)}
}

type prosperoFields struct {
	HSOName string                `json:"hsoname"`
	Fields  schemes.OrderedObject `json:"fields"`
}
