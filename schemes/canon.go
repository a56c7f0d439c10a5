package schemes

import (
	"net/netip"
	"strconv"
	"strings"
)

// The canonical form.
//
// Every URL has one canonical form, and it is written in one place: the
// String method of the URL's Locator. `urlget canon` prints it, the "url"
// of `urlget parse` is it, `urlget same` compares it, and a library caller
// gets it from fetch.Client.Parse(raw).String(). Registry.Canonical and
// Registry.Equivalent are that rule as functions.
//
// What the canonical form of every scheme has in common is written by
// FormatLocator (scheme, authority, fragment); the rest is the scheme's:
// each scheme package decodes the parts of its url-path it interprets and
// writes them again, escaping exactly what that scheme reserves, so two
// spellings that the scheme reads as the same value are written the same.
// A scheme that sends a part to the server as it is written (http) decides
// which spellings it may still merge; see its package.
//
// The package-level Canonical, CanonicalURL and Equivalent apply only the
// generic rules, for a scheme no registry knows: they know no default
// port either, which is the scheme's to declare (its parser sets
// URL.DefaultPort), so they keep every port written.

// FormatLocator writes a typed URL in canonical form: u's scheme in lower
// case, then, when u has an authority, "//user:password@host:port" with
// user and password re-escaped from their decoded values, the host in its
// canonical text (lower case, IDNA ASCII, IPv6 shortest form, bracketed)
// and the port left out when it is u.DefaultPort; then rest, the
// scheme's own canonical writing of what follows (a url-path with its
// leading "/", or an opaque part); then the fragment, normalized like an
// unknown scheme's path, and left out when void ("x#" is "x": the draft on
// URIs in WWW says a void fragment-id refers to the whole object). With
// redact the password is written "****".
//
// Every Locator's String and Redacted end here, so the parts all schemes
// share are canonical the same way in each.
func FormatLocator(u *URL, redact bool, rest string) string {
	b := make([]byte, 0, canonicalSizeHint(u)+len(rest))
	b = appendLower(b, u.Scheme)
	b = append(b, ':')
	if u.Authority {
		b = appendCanonicalAuthority(b, u, redact)
	}
	b = append(b, rest...)
	return string(appendCanonicalFragment(b, u.Fragment))
}

// CanonicalFragment is u's fragment as FormatLocator writes it: nil when
// the URL has none or a void one, otherwise the fragment with upper-case
// hex digits, unreserved characters decoded and unsafe ones encoded. It is
// what `urlget parse` shows, so that a URL and its canonical form show the
// same fragment.
func (u *URL) CanonicalFragment() *string {
	if u.Fragment == nil || *u.Fragment == "" {
		return nil
	}
	c := string(appendCanonicalPart(nil, *u.Fragment, false))
	if c == *u.Fragment {
		return u.Fragment
	}
	return &c
}

// Canonical returns the canonical form of raw: the String of the Locator
// its scheme's parser makes, or, for a scheme r does not know, the generic
// canonical form (CanonicalURL). A URL its scheme's parser refuses is an
// error, as it is for every other command.
func (r *Registry) Canonical(raw string) (string, error) {
	u, err := Parse(raw)
	if err != nil {
		return "", err
	}
	s, ok := r.schemes[u.Scheme]
	if !ok {
		return CanonicalURL(u), nil
	}
	loc, err := s.Parse(u)
	if err != nil {
		return "", err
	}
	return loc.String(), nil
}

// Equivalent reports whether a and b designate the same resource: whether
// their canonical forms (Registry.Canonical), without fragments, are equal.
// Fragments do not take part, for the reasons Equivalent gives.
func (r *Registry) Equivalent(a, b string) (bool, error) {
	ca, err := r.Canonical(a)
	if err != nil {
		return false, err
	}
	cb, err := r.Canonical(b)
	if err != nil {
		return false, err
	}
	return withoutFragment(ca) == withoutFragment(cb), nil
}

// withoutFragment cuts a canonical URL at its first "#": no canonical form
// holds a literal "#" before its fragment, since "#" is an unsafe character
// every part escapes.
func withoutFragment(canon string) string {
	if i := strings.IndexByte(canon, '#'); i >= 0 {
		return canon[:i]
	}
	return canon
}

// Canonical returns raw in the generic canonical form, the one "encoding
// level" at which the draft on URIs in WWW says two URLs must be brought
// before they are compared, for a scheme whose own rules are unknown (a
// registered scheme's are applied by Registry.Canonical):
//
//   - the "<URL:...>" wrapper and surrounding whitespace are stripped;
//   - scheme and host are lower case (the host in its IDNA ASCII form, an
//     IPv6 address in its RFC 5952 text form);
//   - a port equal to the URL's DefaultPort is dropped, and "//host"
//     without a url-path becomes "//host/" when it has one (a scheme
//     with a default port uses the common Internet syntax of RFC 1738
//     §3.1, where an empty url-path with or without its "/" is the
//     same). Parse leaves DefaultPort 0, so Canonical keeps every port
//     and adds no "/"; CanonicalURL applies both to a URL a scheme's
//     parser made;
//   - in the url-path (or opaque part) and the fragment, every escape has
//     upper-case hex digits, an escape of a character that never needs
//     escaping (IsUnreserved: alphanumerics and "$-_.+!*'(),") is decoded,
//     and every character that may never appear literally (space,
//     controls, 8-bit octets, the unsafe characters) is encoded;
//   - reserved characters (";/?:@=&") are never decoded or encoded, because
//     "%2F" and "/" mean different things: "a%2Fb" is one segment, "a/b" two;
//   - one exception: after the first "?" (the query, where the draft makes
//     "+" stand for a space) "%2B" stays encoded, so that a real plus is not
//     confused with an encoded space;
//   - user and password are written as FormatLocator writes them: the
//     decoded value re-escaped, so "%41" and "A" give the same form;
//   - an empty fragment ("x#") is dropped: the draft says a void
//     fragment-id "with or without the hash sign" refers to the whole object.
//     A non-empty fragment is kept, normalized like the path.
//
// Canonical does not remove "." and ".." segments or otherwise interpret
// paths: for ftp, "a/../b" is "CWD a", "CWD ..", which need not be "CWD b".
// The result parses (Parse) to the same URL, and Canonical is idempotent.
func Canonical(raw string) (string, error) {
	u, err := Parse(raw)
	if err != nil {
		return "", err
	}
	var buf [256]byte
	c := appendCanonical(buf[:0], u, true)
	if t := Trim(raw); string(c) == t {
		return t, nil // already canonical: no copy
	}
	return string(c), nil
}

// CanonicalURL returns the generic canonical form (see Canonical) of a
// parsed URL. It also accepts a URL built by hand: literal unsafe
// characters and stray "%" signs in Path, Opaque and Fragment are encoded.
func CanonicalURL(u *URL) string {
	return string(appendCanonical(make([]byte, 0, canonicalSizeHint(u)), u, true))
}

// Equivalent reports whether a and b designate the same resource at the
// generic encoding level: whether their generic canonical forms, without
// fragments, are equal (Registry.Equivalent adds each scheme's rules).
//
// Fragments do not take part: the draft on URIs in WWW says the fragment is
// "not involved in the basic URL definition" and the fragment-id "is not sent
// with the request" but used by the client once "the whole object" has been
// retrieved; RFC 1738 §2.2 calls "#" the delimiter of "a URL from a
// fragment/anchor identifier that might follow it". So
// "http://h/doc#intro" and "http://h/doc#end" locate the same object, which
// is what a retrieval client needs to know. To compare including fragments,
// compare the canonical strings.
//
// An error is returned if either does not parse.
func Equivalent(a, b string) (bool, error) {
	ua, err := Parse(a)
	if err != nil {
		return false, err
	}
	ub, err := Parse(b)
	if err != nil {
		return false, err
	}
	var bufA, bufB [256]byte
	ca := appendCanonical(bufA[:0], ua, false)
	cb := appendCanonical(bufB[:0], ub, false)
	return string(ca) == string(cb), nil
}

// NormalizeEscapes brings an escaped URL part to the encoding level a
// scheme chooses: every escape gets upper-case hex digits, the escape of
// an octet for which decode reports true is decoded, and every octet that
// may never appear literally (space, controls, 8-bit octets, the unsafe
// characters, a stray "%") is encoded. Reserved characters and all other
// escapes stay as they are. decode must accept only octets that may appear
// literally and that the scheme does not reserve. s itself is returned
// when nothing changes.
func NormalizeEscapes(s string, decode func(byte) bool) string {
	clean := true
	for i := 0; i < len(s) && clean; i++ {
		clean = s[i] != '%' && !mustEscape(s[i])
	}
	if clean {
		return s
	}
	if n := appendNormalized(make([]byte, 0, len(s)), s, decode, false); string(n) != s {
		return string(n)
	}
	return s
}

func canonicalSizeHint(u *URL) int {
	n := len(u.Scheme) + len(u.Host) + len(u.Path) + len(u.Opaque) + 16
	if u.User != nil {
		n += len(*u.User)
	}
	if u.Password != nil {
		n += len(*u.Password)
	}
	if u.Fragment != nil {
		n += len(*u.Fragment)
	}
	return n
}

// appendCanonical appends the generic canonical form of u to b, with the
// fragment only if withFragment.
func appendCanonical(b []byte, u *URL, withFragment bool) []byte {
	b = appendLower(b, u.Scheme)
	b = append(b, ':')
	if u.Authority {
		b = appendCanonicalAuthority(b, u, false)
		if u.HasPath || u.DefaultPort != 0 {
			b = append(b, '/')
			b = appendCanonicalPart(b, u.Path, true)
		}
	} else {
		b = appendCanonicalPart(b, u.Opaque, true)
	}
	if withFragment {
		b = appendCanonicalFragment(b, u.Fragment)
	}
	return b
}

// appendCanonicalAuthority appends "//user:password@host:port" in canonical
// form (see FormatLocator); with redact the password is "****".
func appendCanonicalAuthority(b []byte, u *URL, redact bool) []byte {
	b = append(b, "//"...)
	if u.User != nil {
		b = appendEscaped(b, *u.User, ":@/?;")
		if u.Password != nil {
			b = append(b, ':')
			if redact {
				b = append(b, Redacted...)
			} else {
				b = appendEscaped(b, *u.Password, ":@/?;")
			}
		}
		b = append(b, '@')
	}
	b = appendCanonicalHost(b, u.Host)
	if u.Port != 0 && u.Port != u.DefaultPort {
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(u.Port), 10)
	}
	return b
}

// appendCanonicalFragment appends "#" and the normalized fragment, or
// nothing for an absent or void one.
func appendCanonicalFragment(b []byte, frag *string) []byte {
	if frag == nil || *frag == "" {
		return b
	}
	b = append(b, '#')
	return appendCanonicalPart(b, *frag, false)
}

func appendLower(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return b
}

// appendCanonicalHost writes the host lower-case, an IPv6 address in its
// shortest text form and bracketed. Parse already stores that form; a URL
// built by hand may not.
func appendCanonicalHost(b []byte, host string) []byte {
	if strings.IndexByte(host, ':') < 0 {
		return appendLower(b, host)
	}
	b = append(b, '[')
	if addr, err := netip.ParseAddr(host); err == nil {
		b = addr.AppendTo(b)
	} else {
		b = appendLower(b, host)
	}
	return append(b, ']')
}

// appendEscaped appends raw with every octet that must be escaped, and every
// character of reserved, as %XX (the same as Escape, without allocating).
func appendEscaped(b []byte, raw, reserved string) []byte {
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if needsEscape(c, reserved) {
			b = append(b, '%', upperHex[c>>4], upperHex[c&15])
			continue
		}
		b = append(b, c)
	}
	return b
}

// appendCanonicalPart appends an escaped URL part (url-path, opaque part or
// fragment) at the generic canonical encoding level. With query, a "%2B"
// after the first literal "?" stays encoded (see Canonical).
func appendCanonicalPart(b []byte, s string, query bool) []byte {
	return appendNormalized(b, s, IsUnreserved, query)
}

// appendNormalized appends the escaped part s with upper-case hex digits,
// the escapes of octets decode accepts decoded, and octets that may never
// appear literally encoded (a stray "%" in a hand-built URL is the percent
// sign itself). With plusInQuery, "%2B" after the first literal "?" stays
// encoded whatever decode says.
func appendNormalized(b []byte, s string, decode func(byte) bool, plusInQuery bool) []byte {
	inQuery := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%':
			if i+2 < len(s) {
				hi, ok1 := unhex(s[i+1])
				lo, ok2 := unhex(s[i+2])
				if ok1 && ok2 {
					v := hi<<4 | lo
					if decode(v) && !(v == '+' && inQuery) {
						b = append(b, v)
					} else {
						b = append(b, '%', upperHex[v>>4], upperHex[v&15])
					}
					i += 2
					continue
				}
			}
			b = append(b, "%25"...)
		case mustEscape(c):
			b = append(b, '%', upperHex[c>>4], upperHex[c&15])
		default:
			if c == '?' && plusInQuery {
				inQuery = true
			}
			b = append(b, c)
		}
	}
	return b
}
