package schemes

import "strings"

// Resolve resolves the reference ref against the absolute URL base and returns
// the target URL, by the strict algorithm of RFC 3986 §5.2.2, with
// remove_dot_segments (§5.2.4) and recomposition (§5.3). It works on the
// escaped strings: escapes are checked, never decoded, so "%2F" stays one
// character of a segment and is not a "/". The reference's fragment is kept;
// the base's is not.
//
// RFC 1738 §2.3 leaves relative links to other documents; the draft on URIs
// in WWW gives the rules RFC 3986 later made precise, and its examples hold:
// against "magic://a/b/c//d/e/f", "g" is "magic://a/b/c//d/e/g", "//g" is
// "magic://g" and "../g" is "magic://a/b/c//d/g".
//
// A reference is absolute when it starts with a scheme (RFC 1738 scheme
// characters) and ":" before any "/", "?" or "#" — "the colon must occur
// before any slash characters", as the draft says; "http:g" is therefore
// absolute (strict parsing), whatever the base. Both strings may be wrapped
// in "<URL:...>". Literal unsafe characters (space, controls, 8-bit) in the
// path and query of the result are encoded, as Parse does. The result is not
// otherwise checked: Parse it to use it.
func Resolve(base, ref string) (string, error) {
	rawBase := base
	base, ref = Trim(base), Trim(ref)
	b := splitRef(base)
	if !b.hasScheme {
		return "", SyntaxError("", rawBase, "scheme", "base URL is not absolute (want scheme:...)")
	}
	if _, _, err := SplitScheme(base); err != nil {
		return "", SyntaxError("", rawBase, "scheme", err.Error())
	}
	if err := CheckEscapes(base); err != nil {
		return "", SyntaxError(strings.ToLower(b.scheme), rawBase, "url", err.Error())
	}
	if err := CheckEscapes(ref); err != nil {
		return "", SyntaxError("", ref, "url", "bad reference: "+err.Error())
	}
	r := splitRef(ref)

	// RFC 3986 §5.2.2, strict (R.scheme is never ignored).
	var t uriRef
	switch {
	case r.hasScheme:
		t = r
		t.path = removeDotSegments(r.path)
	case r.hasAuthority:
		t = r
		t.scheme, t.hasScheme = b.scheme, true
		t.path = removeDotSegments(r.path)
	default:
		t.scheme, t.hasScheme = b.scheme, true
		t.authority, t.hasAuthority = b.authority, b.hasAuthority
		switch {
		case r.path == "":
			t.path = b.path
			if r.hasQuery {
				t.query, t.hasQuery = r.query, true
			} else {
				t.query, t.hasQuery = b.query, b.hasQuery
			}
		case r.path[0] == '/':
			t.path = removeDotSegments(r.path)
			t.query, t.hasQuery = r.query, r.hasQuery
		default:
			t.path = removeDotSegments(merge(b, r.path))
			t.query, t.hasQuery = r.query, r.hasQuery
		}
	}
	t.fragment, t.hasFragment = r.fragment, r.hasFragment
	return t.String(), nil
}

// uriRef is a URI reference split into the five components of RFC 3986
// Appendix B, still escaped. The has* fields tell an absent component from
// an empty one ("http://a/b?" has an empty query).
type uriRef struct {
	scheme, authority, path, query, fragment       string
	hasScheme, hasAuthority, hasQuery, hasFragment bool
}

// splitRef splits s like the regular expression of RFC 3986 Appendix B, with
// the scheme restricted to RFC 1738's scheme characters.
func splitRef(s string) uriRef {
	var r uriRef
	if i := strings.IndexByte(s, '#'); i >= 0 {
		r.fragment, r.hasFragment = s[i+1:], true
		s = s[:i]
	}
	if i := strings.IndexAny(s, ":/?"); i > 0 && s[i] == ':' && isSchemeName(s[:i]) {
		r.scheme, r.hasScheme = s[:i], true
		s = s[i+1:]
	}
	if strings.HasPrefix(s, "//") {
		s = s[2:]
		i := strings.IndexAny(s, "/?")
		if i < 0 {
			i = len(s)
		}
		r.authority, r.hasAuthority = s[:i], true
		s = s[i:]
	}
	if i := strings.IndexByte(s, '?'); i >= 0 {
		r.query, r.hasQuery = s[i+1:], true
		s = s[:i]
	}
	r.path = s
	return r
}

func isSchemeName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.') {
			return false
		}
	}
	return s != ""
}

// merge is RFC 3986 §5.2.3: the reference's path replaces the last segment
// of the base's, or is put under "/" when the base has an authority and an
// empty path.
func merge(base uriRef, refPath string) string {
	if base.hasAuthority && base.path == "" {
		return "/" + refPath
	}
	i := strings.LastIndexByte(base.path, '/')
	return base.path[:i+1] + refPath
}

// removeDotSegments is RFC 3986 §5.2.4. It works on whole segments: "." and
// ".." are removed with what they refer to, "..g" and "g." are names.
// Empty segments ("//") are kept: the draft gives them meaning.
func removeDotSegments(in string) string {
	if !strings.Contains(in, ".") {
		return in
	}
	out := make([]byte, 0, len(in))
	for in != "" {
		switch {
		case strings.HasPrefix(in, "../"): // A
			in = in[3:]
		case strings.HasPrefix(in, "./"): // A
			in = in[2:]
		case strings.HasPrefix(in, "/./"): // B
			in = in[2:]
		case in == "/.": // B
			in = "/"
		case strings.HasPrefix(in, "/../"): // C
			in = in[3:]
			out = out[:lastSlash(out)]
		case in == "/..": // C
			in = "/"
			out = out[:lastSlash(out)]
		case in == "." || in == "..": // D
			in = ""
		default: // E: move the first segment, with its leading "/", to out
			j := 1
			if in[0] != '/' {
				j = 0
			}
			k := strings.IndexByte(in[j:], '/')
			if k < 0 {
				k = len(in)
			} else {
				k += j
			}
			out = append(out, in[:k]...)
			in = in[k:]
		}
	}
	return string(out)
}

// lastSlash is the index of out's last "/", or 0: removing the last segment
// of the output buffer and its preceding "/".
func lastSlash(out []byte) int {
	for i := len(out) - 1; i >= 0; i-- {
		if out[i] == '/' {
			return i
		}
	}
	return 0
}

// String recomposes the reference (RFC 3986 §5.3), encoding literal unsafe
// characters of path and query.
func (r uriRef) String() string {
	var b strings.Builder
	b.Grow(len(r.scheme) + len(r.authority) + len(r.path) + len(r.query) + len(r.fragment) + 8)
	if r.hasScheme {
		b.WriteString(r.scheme)
		b.WriteByte(':')
	}
	if r.hasAuthority {
		b.WriteString("//")
		b.WriteString(r.authority)
	} else if strings.HasPrefix(r.path, "//") {
		// "x:/a" + "..//g" gives the path "//g", which must not be read
		// back as an authority: "/." keeps it a path (RFC 3986 §5.2.4 note).
		b.WriteString("/.")
	}
	b.WriteString(EscapeUnsafe(r.path))
	if r.hasQuery {
		b.WriteByte('?')
		b.WriteString(EscapeUnsafe(r.query))
	}
	if r.hasFragment {
		b.WriteByte('#')
		b.WriteString(r.fragment)
	}
	return b.String()
}
