package schemes

import (
	"net/netip"
	"strconv"
	"strings"
)

// Canonical returns raw in the canonical form of this package, the one
// "encoding level" at which the draft on URIs in WWW says two URLs must be
// brought before they are compared:
//
//   - the "<URL:...>" wrapper and surrounding whitespace are stripped;
//   - scheme and host are lower case (the host in its IDNA ASCII form, an
//     IPv6 address in its RFC 5952 text form);
//   - a port equal to the scheme's DefaultPort is dropped;
//   - for a scheme with a default port (one that uses the common Internet
//     syntax of RFC 1738 §3.1), "//host" without a url-path becomes
//     "//host/": an empty url-path with or without its "/" is the same;
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
//   - user and password are written as URL.AuthorityString writes them: the
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

// CanonicalURL returns the canonical form (see Canonical) of a parsed URL.
// It also accepts a URL built by hand: literal unsafe characters and stray
// "%" signs in Path, Opaque and Fragment are encoded.
func CanonicalURL(u *URL) string {
	return string(appendCanonical(make([]byte, 0, canonicalSizeHint(u)), u, true))
}

// Equivalent reports whether a and b designate the same resource at the same
// encoding level: whether their canonical forms, without fragments, are equal.
//
// Fragments do not take part: the draft on URIs in WWW says the fragment is
// "not involved in the basic URL definition" and the fragment-id "is not sent
// with the request" but used by the client once "the whole object" has been
// retrieved; RFC 1738 §2.2 calls "#" the delimiter of "a URL from a
// fragment/anchor identifier that might follow it". So
// "http://h/doc#intro" and "http://h/doc#end" locate the same object, which
// is what a retrieval client needs to know. To compare including fragments,
// compare the Canonical strings.
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

// appendCanonical appends the canonical form of u to b, with the fragment
// only if withFragment.
func appendCanonical(b []byte, u *URL, withFragment bool) []byte {
	start := len(b)
	b = appendLower(b, u.Scheme)
	defPort := DefaultPort(string(b[start:])) // no allocation: map index by string(bytes)
	b = append(b, ':')
	if u.Authority {
		b = append(b, "//"...)
		if u.User != nil {
			b = appendEscaped(b, *u.User, ":@/?;")
			if u.Password != nil {
				b = append(b, ':')
				b = appendEscaped(b, *u.Password, ":@/?;")
			}
			b = append(b, '@')
		}
		b = appendCanonicalHost(b, u.Host)
		if u.Port != 0 && u.Port != defPort {
			b = append(b, ':')
			b = strconv.AppendInt(b, int64(u.Port), 10)
		}
		if u.HasPath || defPort != 0 {
			b = append(b, '/')
			b = appendCanonicalPart(b, u.Path, true)
		}
	} else {
		b = appendCanonicalPart(b, u.Opaque, true)
	}
	if withFragment && u.Fragment != nil && *u.Fragment != "" {
		b = append(b, '#')
		b = appendCanonicalPart(b, *u.Fragment, false)
	}
	return b
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
// shortest text form and bracketed.
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
// fragment) at the canonical encoding level. With query, a "%2B" after the
// first literal "?" stays encoded (see Canonical).
func appendCanonicalPart(b []byte, s string, query bool) []byte {
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
					if IsUnreserved(v) && !(v == '+' && inQuery) {
						b = append(b, v)
					} else {
						b = append(b, '%', upperHex[v>>4], upperHex[v&15])
					}
					i += 2
					continue
				}
			}
			b = append(b, "%25"...) // a stray "%" in a hand-built URL: the percent sign itself
		case mustEscape(c):
			b = append(b, '%', upperHex[c>>4], upperHex[c&15])
		default:
			if c == '?' && query {
				inQuery = true
			}
			b = append(b, c)
		}
	}
	return b
}
