package ldap

import (
	"bytes"
	"encoding/base64"
)

// ldifWidth is the longest line ldapsearch writes by default (libldap
// folds "at 76" but counts so that its lines hold 78 bytes, as checked
// against ldapsearch in the integration tests): a longer one is broken,
// and continued on the next line after one space (RFC 2849 §2, note 2).
const ldifWidth = 78

// alwaysBase64 are the attribute types whose values ldapsearch writes in
// base64 whatever they hold (libldap's ldif_must_b64_encode), so that a
// password is not shown at a glance.
var alwaysBase64 = []string{"userPassword", "2.5.4.35"}

// appendLDIF appends e as ldapsearch -LLL writes it: an entry, or a
// reference.
func (e *entry) appendLDIF(b []byte) []byte {
	if len(e.refs) > 0 {
		return appendReference(b, e.refs)
	}
	return appendEntry(b, e.dn, e.attrs)
}

// refWidth is the longest line of a reference as ldapsearch -LLL writes
// it: a comment, which libldap folds one byte later than a value (as
// checked against ldapsearch in the integration tests and TestReference).
const refWidth = ldifWidth + 1

// appendReference appends a SearchResultReference (RFC 4511 §4.5.3) as
// ldapsearch -LLL writes it (print_reference, LDIF_PUT_COMMENT): each
// URL on a comment line, "# ref" and the URL with nothing between them
// ("#ref" for an empty one), folded at refWidth, then an empty line. A
// URL is text (RFC 4516), but a server can send any bytes: a control
// byte is written %XX, as a URL escapes it, so that a reference cannot
// end its comment line and write LDIF of its own (ldapsearch writes it
// as it came).
func appendReference(b []byte, refs [][]byte) []byte {
	for _, u := range refs {
		if len(u) == 0 {
			b = append(b, "#ref\n"...)
			continue
		}
		b = append(b, "# ref"...)
		n := len("# ref")
		put := func(c byte) {
			if n == refWidth {
				b = append(b, '\n', ' ')
				n = 1
			}
			b = append(b, c)
			n++
		}
		for _, c := range u {
			if c < 0x20 || c == 0x7f {
				const hex = "0123456789ABCDEF"
				put('%')
				put(hex[c>>4])
				put(hex[c&0xf])
				continue
			}
			put(c)
		}
		b = append(b, '\n')
	}
	return append(b, '\n')
}

// appendEntry appends one entry as ldapsearch -LLL writes it: the "dn"
// line, one line per value in the server's order, then an empty line.
func appendEntry(b []byte, dn []byte, attrs []attribute) []byte {
	b = appendLine(b, []byte("dn"), dn)
	for _, a := range attrs {
		for _, v := range a.values {
			b = appendLine(b, a.name, v)
		}
	}
	return append(b, '\n')
}

// appendLine appends "name: value" or, for a value that is not a safe
// string, "name:: base64" (RFC 2849 §2's SAFE-STRING, as libldap's
// ldif_sput_wrap decides it: printable ASCII, not starting with a space,
// ":" or "<", not ending with a space), folded at ldifWidth.
func appendLine(b []byte, name, v []byte) []byte {
	b = append(b, name...)
	b = append(b, ':')
	n := len(name) + 1
	if len(v) == 0 {
		return append(b, '\n')
	}
	s := v
	if needsBase64(name, v) {
		b = append(b, ':')
		n++
		s = base64.StdEncoding.AppendEncode(nil, v)
	}
	b = append(b, ' ')
	n++
	for _, c := range s {
		if n == ldifWidth {
			b = append(b, '\n', ' ')
			n = 1
		}
		b = append(b, c)
		n++
	}
	return append(b, '\n')
}

// needsBase64 reports whether v must be written in base64 after name.
func needsBase64(name, v []byte) bool {
	for _, t := range alwaysBase64 {
		if bytes.EqualFold(name, []byte(t)) {
			return true
		}
	}
	if bytes.Contains(name, []byte(";binary")) { // as libldap: case-sensitive
		return true
	}
	first, last := v[0], v[len(v)-1]
	if !isGraph(first) || first == ':' || first == '<' || !isGraph(last) {
		return true
	}
	for _, c := range v {
		if c < 0x20 || c > 0x7E {
			return true
		}
	}
	return false
}

// isGraph is C's isgraph in the C locale: printable ASCII but space.
func isGraph(c byte) bool { return c > 0x20 && c < 0x7F }
