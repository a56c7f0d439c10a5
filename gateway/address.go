package gateway

import (
	"errors"
	"net/http"
	"strings"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// opaque reports whether URLs of scheme do not use the common Internet
// scheme syntax of RFC 1738 §3.1 ("//" and an authority), as the
// scheme's declaration says (schemes.Name.Opaque: a news: message-id or
// group, a mailto: address). The address of such a URL holds its opaque
// part after "/SCHEME/"; for every other scheme it is what follows "//".
// The two cannot be told apart from the address alone (news:a@b and a
// hierarchical x://a@b look alike), so the scheme decides. Address and
// URLOf are functions of the address alone, so they read the
// declarations of every scheme urlget knows.
func opaque(scheme string) bool {
	n, _ := fetch.DefaultRegistry().Declared(scheme)
	return n.Opaque
}

// Address returns the gateway address of raw, an absolute URL: the
// origin-form request target "/SCHEME/REST?QUERY" (see the package doc),
// or "" when raw cannot be given one (no scheme, or a URL of a
// hierarchical scheme without "//"). The fragment is dropped: it is never
// sent to a server. Bytes that may not appear in a request target (space,
// controls, non-ASCII, and the characters RFC 1738 calls unsafe) are
// %-escaped; everything else, %-escapes included, is kept byte for byte,
// so that URLOf gives raw back.
func Address(raw string) string {
	raw = schemes.Trim(raw)
	scheme, rest, ok := strings.Cut(raw, ":")
	if !ok || !validScheme(scheme) {
		return ""
	}
	scheme = strings.ToLower(scheme)
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		rest = rest[:i]
	}
	if !opaque(scheme) {
		if rest, ok = strings.CutPrefix(rest, "//"); !ok {
			return ""
		}
	}
	return "/" + scheme + "/" + escapeTarget(rest)
}

// LocatorAddress is the gateway address of loc: Address of its canonical
// form without its password (the gateway remembers a password it was
// given and puts it back; see logins), or "" when the password cannot be
// taken out of the URL.
func LocatorAddress(loc schemes.Locator) string { return Address(stripped(loc)) }

// ErrNoURL is URLOf's error for a request target that is no gateway
// address.
var ErrNoURL = errors.New("gateway: the request target is not a gateway address")

// URLOf returns the URL r asks for: the absolute URL of a request in
// absolute form (a proxy request, RFC 9112 §3.2.2) as it was written, or
// the URL of a gateway address, read from the raw request target
// (r.RequestURI) and never from the decoded path, so that %2F, %09 and
// every other escape reach the scheme as written.
func URLOf(r *http.Request) (string, error) {
	target := r.RequestURI
	if target == "" && r.URL != nil {
		target = r.URL.RequestURI() // a request made by a client, not read by a server
	}
	if !strings.HasPrefix(target, "/") {
		// Absolute form: the URL itself.
		if scheme, _, ok := strings.Cut(target, ":"); ok && validScheme(scheme) {
			return target, nil
		}
		return "", ErrNoURL
	}
	scheme, rest, ok := strings.Cut(target[1:], "/")
	if !ok || !validScheme(scheme) {
		return "", ErrNoURL
	}
	scheme = strings.ToLower(scheme)
	if opaque(scheme) {
		return scheme + ":" + rest, nil
	}
	return scheme + "://" + rest, nil
}

// validScheme reports whether s is a scheme name (RFC 1738 §2.1: letters,
// digits, "+", "-" and ".", first a letter).
func validScheme(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return true
}

// escapeTarget %-escapes the bytes of s that a request target may not
// hold as they are, or that a browser would change on the way (it escapes
// spaces and quotes itself, cuts at "#", and turns "\" into "/"), and a
// stray "%" that starts no escape; every escape stays as written.
func escapeTarget(s string) string {
	const hex = "0123456789ABCDEF"
	clean := true
	for i := 0; i < len(s) && clean; i++ {
		clean = !unsafeAt(s, i)
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); i++ {
		if c := s[i]; unsafeAt(s, i) {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// unsafeAt reports whether s[i] must be escaped in a request target.
func unsafeAt(s string, i int) bool {
	c := s[i]
	if c == '%' {
		return i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2])
	}
	return c <= ' ' || c >= 0x7f || strings.IndexByte("\"<>\\^`{|}#", c) >= 0
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
