// Package ldap implements LDAP URLs (RFC 4516) and their ldaps variant:
// the typed value (url.go, pure parsing), the LDIF a search's entries are
// written as (ldif.go, RFC 2849 as ldapsearch -LLL prints it), and a
// Handler that binds and searches over transport with go-ldap
// (handler.go, session.go).
//
//	ldap://host[:port]/dn[?attributes[?scope[?filter[?extensions]]]]
//
// The dn, each attribute, the filter and each extension value are
// percent-decoded after the URL is split on "?" (and the attribute and
// extension lists on ","), so an escaped "?" or "," is data (RFC 4516 §2.1).
package ldap

import (
	"errors"
	"fmt"
	"strings"

	goldap "github.com/go-ldap/ldap/v3"

	"github.com/urlget/urlget/schemes"
)

// The scopes of RFC 4516 §2 (RFC 4511 §4.5.1.2's baseObject,
// singleLevel and wholeSubtree).
const (
	ScopeBase = "base"
	ScopeOne  = "one"
	ScopeSub  = "sub"
)

// DefaultFilter is the filter of a URL that names none (RFC 4516 §2).
const DefaultFilter = "(objectClass=*)"

// The bindname extension's types: RFC 4516 §4's "e-bindname", RFC 2255
// §5's "bindname" and the "x-bindname" OpenLDAP's tools write. Its value
// is the DN to bind as (a simple bind; the password is the caller's).
var bindnameTypes = []string{"bindname", "e-bindname", "x-bindname"}

// Extension is one extension of an LDAP URL: a type (an OID or a name)
// and its decoded value; Critical is RFC 4516 §2's "!": a client that does
// not know the extension must not process the URL.
type Extension struct {
	Critical bool   `json:"critical,omitempty"`
	Type     string `json:"type"`
	Value    string `json:"value,omitempty"`
	HasValue bool   `json:"-"`
}

// URL is a parsed LDAP URL. Every field is decoded; Scope and Filter hold
// their defaults when the URL leaves them out.
type URL struct {
	// DN is the search's base object ("" for the root DSE).
	DN string
	// Attributes are the attribute selectors to return; none asks for all
	// user attributes (RFC 4511 §4.5.1.8).
	Attributes []string
	// Scope is ScopeBase, ScopeOne or ScopeSub.
	Scope string
	// Filter is the search filter in RFC 4515 text, checked by Parse.
	Filter string
	// Extensions are the URL's extensions in the order written.
	Extensions []Extension

	u *schemes.URL
}

var (
	_ schemes.Locator  = (*URL)(nil)
	_ schemes.Searcher = (*URL)(nil)
	_ schemes.Parented = (*URL)(nil)
)

// Parse reads an ldap or ldaps URL. Errors are *schemes.Error of KindUsage
// naming the part at fault: "scheme", "host" (none: urlget has no default
// server), "user" (RFC 4516 has no login: -u, netrc or bindname give it),
// "dn", "attributes", "scope", "filter" or "extensions" (malformed, or a
// critical one urlget does not know).
func Parse(u *schemes.URL) (*URL, error) {
	if schemes.PortOf(declared, u.Scheme) == 0 {
		return nil, u.SyntaxError("scheme", fmt.Sprintf("scheme %q is not ldap or ldaps", u.Scheme))
	}
	u.DefaultPort = schemes.PortOf(declared, u.Scheme)
	if !u.Authority || u.Host == "" {
		return nil, u.SyntaxError("host", "missing host (want "+u.Scheme+"://host/dn): urlget has no default LDAP server")
	}
	if u.User != nil {
		return nil, u.SyntaxError("user", "an LDAP URL has no login (RFC 4516 §2): bind with the bindname extension, the credentials option or netrc")
	}
	parts := strings.Split(u.Path, "?")
	if len(parts) > 5 {
		return nil, u.SyntaxError("extensions", `a "?" after the extensions (write it %3F)`)
	}
	for len(parts) < 5 {
		parts = append(parts, "")
	}
	l := &URL{u: u, Scope: ScopeBase, Filter: DefaultFilter}
	var err error
	if l.DN, err = decode(u, "dn", parts[0]); err != nil {
		return nil, err
	}
	if _, perr := goldap.ParseDN(l.DN); perr != nil {
		return nil, u.SyntaxError("dn", fmt.Sprintf("dn %q: %v", l.DN, perr))
	}
	if l.Attributes, err = attributes(u, parts[1]); err != nil {
		return nil, err
	}
	switch s := strings.ToLower(parts[2]); s {
	case "":
	case ScopeBase, ScopeOne, ScopeSub:
		l.Scope = s
	default:
		return nil, u.SyntaxError("scope", fmt.Sprintf("scope %q: want base, one or sub", parts[2]))
	}
	if parts[3] != "" {
		if l.Filter, err = decode(u, "filter", parts[3]); err != nil {
			return nil, err
		}
		if _, perr := goldap.CompileFilter(l.Filter); perr != nil {
			return nil, u.SyntaxError("filter", fmt.Sprintf("filter %q: %s (RFC 4515)", l.Filter, filterFault(perr)))
		}
	}
	if l.Extensions, err = extensions(u, parts[4]); err != nil {
		return nil, err
	}
	return l, nil
}

// decode percent-decodes one part; the generic parser checked the escapes.
func decode(u *schemes.URL, part, s string) (string, error) {
	d, err := schemes.Unescape(s)
	if err != nil {
		return "", u.SyntaxError(part, err.Error())
	}
	return d, nil
}

// attributes reads the comma-separated attribute selectors, each an
// attribute description, "*", "+" or "1.1" (RFC 4511 §4.5.1.8): letters,
// digits, "-", ";" and ".", so none can carry anything else to the server.
func attributes(u *schemes.URL, s string) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	var out []string
	for _, raw := range strings.Split(s, ",") {
		a, err := decode(u, "attributes", raw)
		if err != nil {
			return nil, err
		}
		if a == "" || (a != "*" && a != "+" && !isDescr(a, ";")) {
			return nil, u.SyntaxError("attributes", fmt.Sprintf("attribute %q is no attribute description", a))
		}
		out = append(out, a)
	}
	return out, nil
}

// isDescr reports whether s is made of letters, digits, "-", "." and the
// bytes of extra: an OID, a descriptor, or with ";" an attribute
// description with options.
func isDescr(s, extra string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || strings.IndexByte(extra, c) >= 0) {
			return false
		}
	}
	return s != ""
}

// extensions reads the comma-separated extensions, refusing a critical
// one this package does not carry out (RFC 4516 §2.1: the URL must not
// be processed).
func extensions(u *schemes.URL, s string) ([]Extension, error) {
	if s == "" {
		return nil, nil
	}
	var out []Extension
	for _, raw := range strings.Split(s, ",") {
		var e Extension
		raw, e.Critical = strings.CutPrefix(raw, "!")
		typ, val, hasVal := strings.Cut(raw, "=")
		t, err := decode(u, "extensions", typ)
		if err != nil {
			return nil, err
		}
		if !isDescr(t, "") {
			return nil, u.SyntaxError("extensions", fmt.Sprintf("extension type %q is no OID or name", t))
		}
		e.Type, e.HasValue = t, hasVal
		if e.Value, err = decode(u, "extensions", val); err != nil {
			return nil, err
		}
		if isBindname(t) {
			if _, perr := goldap.ParseDN(e.Value); perr != nil || !hasVal {
				return nil, u.SyntaxError("extensions", fmt.Sprintf("%s=%q is no DN", t, e.Value))
			}
		} else if e.Critical {
			return nil, u.SyntaxError("extensions", fmt.Sprintf("critical extension %q is not supported", t))
		}
		out = append(out, e)
	}
	return out, nil
}

// isBindname reports whether t names the bindname extension.
func isBindname(t string) bool {
	for _, b := range bindnameTypes {
		if strings.EqualFold(t, b) {
			return true
		}
	}
	return false
}

// BindName returns the DN the bindname extension names, and whether the
// URL has one.
func (l *URL) BindName() (string, bool) {
	for _, e := range l.Extensions {
		if isBindname(e.Type) {
			return e.Value, true
		}
	}
	return "", false
}

// Generic returns the scheme-independent parts (host, port).
func (l *URL) Generic() *schemes.URL { return l.u }

// String formats the URL in canonical form: every part escaped from its
// decoded value ("?" always, "," in attributes and extension values),
// the scope in lower case, and the trailing parts that hold their
// defaults left out.
func (l *URL) String() string { return schemes.FormatLocator(l.u, false, l.path()) }

// Redacted is String: LDAP URLs carry no password.
func (l *URL) Redacted() string { return l.String() }

// path is "/" and the url-path in canonical form.
func (l *URL) path() string {
	parts := make([]string, 5)
	parts[0] = schemes.Escape(l.DN, "?")
	as := make([]string, len(l.Attributes))
	for i, a := range l.Attributes {
		as[i] = schemes.Escape(a, "?,")
	}
	parts[1] = strings.Join(as, ",")
	if l.Scope != ScopeBase {
		parts[2] = l.Scope
	}
	if l.Filter != DefaultFilter {
		parts[3] = schemes.Escape(l.Filter, "?")
	}
	es := make([]string, len(l.Extensions))
	for i, e := range l.Extensions {
		s := schemes.Escape(e.Type, "?,=!")
		if e.Critical {
			s = "!" + s
		}
		if e.HasValue {
			s += "=" + schemes.Escape(e.Value, "?,")
		}
		es[i] = s
	}
	parts[4] = strings.Join(es, ",")
	n := len(parts)
	for n > 1 && parts[n-1] == "" {
		n--
	}
	return "/" + strings.Join(parts[:n], "?")
}

// TreePath is the DN as written in the URL, without the search's other
// parts.
func (l *URL) TreePath() string { return schemes.Escape(l.DN, "?") }

// LocalName is the DN's first RDN with its values decoded ("cn=Babs
// Jensen", "cn=Zoë"), "" for the root DSE and for an RDN that no file
// could be named after as it is: one whose values hold "/", "\" or a
// control character ("cn=a/b" is not "b"; two entries must not share
// a name), which a mirror then refuses by name.
func (l *URL) LocalName() string {
	dn, err := goldap.ParseDN(l.DN)
	if err != nil || len(dn.RDNs) == 0 {
		return ""
	}
	var b strings.Builder
	for i, a := range dn.RDNs[0].Attributes {
		if i > 0 {
			b.WriteByte('+')
		}
		b.WriteString(a.Type + "=" + a.Value)
	}
	if name := schemes.BaseName(b.String()); name == b.String() {
		return name
	}
	return ""
}

// Fields is the JSON object printed by `urlget parse`.
func (l *URL) Fields() any {
	return struct {
		DN         string      `json:"dn"`
		Attributes []string    `json:"attributes,omitempty"`
		Scope      string      `json:"scope"`
		Filter     string      `json:"filter"`
		Extensions []Extension `json:"extensions,omitempty"`
	}{l.DN, l.Attributes, l.Scope, l.Filter, l.Extensions}
}

// Entry returns the URL of the entry named dn on l's server: a base
// search of it, keeping l's extensions (the bind), as a listing's entries
// are.
func (l *URL) Entry(dn string) *URL {
	u := *l.u
	u.Fragment = nil
	e := &URL{DN: dn, Scope: ScopeBase, Filter: DefaultFilter, Extensions: l.Extensions, u: &u}
	u.HasPath, u.Path = true, e.path()[1:]
	return e
}

// WithSearch returns the search of l's subtree (scope sub, l's bind) for
// words a person typed in a form: every entry for no words, a filter as
// they wrote it when it is one ("(mail=*@example.org)"), else the entries whose cn, sn or mail
// holds the words or whose uid is them, the words escaped as filter
// values (RFC 4515 §3), so that they cannot change the filter's shape.
func (l *URL) WithSearch(words string) (schemes.Locator, error) {
	words = strings.TrimSpace(words)
	f := words
	if words == "" {
		f = DefaultFilter // every entry of the subtree
	} else if _, err := goldap.CompileFilter(words); err != nil || !strings.HasPrefix(words, "(") {
		e := goldap.EscapeFilter(words)
		f = "(|(cn=*" + e + "*)(sn=*" + e + "*)(mail=*" + e + "*)(uid=" + e + "))"
	}
	s := l.Entry(l.DN)
	s.Scope, s.Filter, s.Attributes = ScopeSub, f, l.Attributes
	s.u.Path = s.path()[1:]
	return s, nil
}

// filterFault is what go-ldap says is wrong with a filter, without its
// wrapping ("LDAP Result Code 201 \"Filter Compile Error\": ldap: "),
// which names no code the server sent: the filter never left urlget.
func filterFault(err error) string {
	var le *goldap.Error
	if errors.As(err, &le) && le.Err != nil {
		err = le.Err
	}
	return strings.TrimPrefix(err.Error(), "ldap: ")
}

// Parent is the URL of the entry above l's (schemes.Parented): a base
// search of the DN less its first RDN, spelled as l spells it, keeping
// l's bind, as a listing's entries are. A DN of one RDN has the root DSE
// ("") above it, which has nothing above it.
func (l *URL) Parent() (schemes.Locator, bool) {
	if l.DN == "" {
		return nil, false
	}
	return l.Entry(parentDN(l.DN)), true
}

// parentDN is dn less its first RDN: what follows the first "," (or the
// ";" of RFC 1779) that is not escaped with "\", without the spaces after
// it; "" for one RDN. Parse took dn (go-ldap's ParseDN, which refuses
// the quoted values of RFC 1779), so every other "," is escaped.
func parentDN(dn string) string {
	for i := 0; i < len(dn); i++ {
		switch dn[i] {
		case '\\':
			i++ // the escaped byte, or the first hex digit of a pair: neither is a separator
		case ',', ';':
			return strings.TrimLeft(dn[i+1:], " ")
		}
	}
	return ""
}
