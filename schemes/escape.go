package schemes

import (
	"fmt"
	"strings"
)

// ReservedChars are the characters RFC 1738 §2.2 allows a scheme to reserve.
// A reserved character is never decoded or encoded by canonicalization,
// because doing so may change the meaning of a URL.
const ReservedChars = ";/?:@=&"

// UnsafeChars are the graphic characters RFC 1738 §2.2 calls unsafe; they,
// like space, controls and 8-bit octets, must always be encoded.
const UnsafeChars = "<>\"#%{}|\\^~[]`"

// safeExtra are the non-alphanumeric characters RFC 1738 lets appear
// unencoded with no special meaning ("$-_.+!*'(),").
const safeExtra = "$-_.+!*'(),"

// IsUnreserved reports whether octet b may always appear unencoded: an
// alphanumeric or one of "$-_.+!*'(),". Only these are decoded when a URL is
// put in canonical form.
func IsUnreserved(b byte) bool { return charClass[b]&classUnreserved != 0 }

// IsReserved reports whether b is one of RFC 1738's reserved characters.
func IsReserved(b byte) bool { return charClass[b]&classReserved != 0 }

// mustEscape reports whether octet b can never appear literally in a URL:
// controls, space, 8-bit octets and the unsafe characters.
func mustEscape(b byte) bool { return charClass[b]&classMustEscape != 0 }

const (
	classUnreserved = 1 << iota
	classReserved
	classMustEscape
)

// charClass classifies every octet once, so that the escaping loops, which
// run over every byte of every URL, do a table lookup instead of searching
// the character lists.
var charClass = func() (t [256]uint8) {
	for i := 0; i < 256; i++ {
		b := byte(i)
		if 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || strings.IndexByte(safeExtra, b) >= 0 {
			t[i] |= classUnreserved
		}
		if strings.IndexByte(ReservedChars, b) >= 0 {
			t[i] |= classReserved
		}
		if b <= 0x20 || b >= 0x7F || strings.IndexByte(UnsafeChars, b) >= 0 {
			t[i] |= classMustEscape
		}
	}
	return t
}()

const upperHex = "0123456789ABCDEF"

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// CheckEscapes verifies that every "%" in s starts a triplet "%" HEX HEX.
// RFC 1738 §2.2 allows "%" only as the start of an encoding, so
// "news:12345667123%asdghfh@info.cern.ch" is not a URL.
func CheckEscapes(s string) error {
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			continue
		}
		if i+2 >= len(s) {
			return fmt.Errorf("malformed escape %q at offset %d (want %%XX)", s[i:], i)
		}
		_, ok1 := unhex(s[i+1])
		_, ok2 := unhex(s[i+2])
		if !ok1 || !ok2 {
			return fmt.Errorf("malformed escape %q at offset %d (want %%XX)", s[i:i+3], i)
		}
		i += 2
	}
	return nil
}

// Unescape decodes every %XX triplet of s into its octet. The result is raw
// bytes (it may hold any octet, including CR, LF and NUL); callers that put
// it on a protocol command line must check it with transport's guard.
func Unescape(s string) (string, error) {
	if strings.IndexByte(s, '%') < 0 {
		return s, nil
	}
	if err := CheckEscapes(s); err != nil {
		return "", err
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' {
			hi, _ := unhex(s[i+1])
			lo, _ := unhex(s[i+2])
			b.WriteByte(hi<<4 | lo)
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String(), nil
}

// Escape encodes raw data for use inside one part of a URL: every octet that
// must always be encoded (controls, space, 8-bit, unsafe characters, "%") and
// every character of reserved, the characters the scheme reserves in that
// part, becomes %XX with upper-case hex. Everything else stays literal.
func Escape(raw, reserved string) string {
	// The reserved characters as a table, and runs of literal characters
	// copied whole: every name of a listing of millions goes through here
	// on its way into a URL.
	var res [256]bool
	for i := 0; i < len(reserved); i++ {
		res[reserved[i]] = true
	}
	first := -1
	n := 0
	for i := 0; i < len(raw); i++ {
		if c := raw[i]; mustEscape(c) || res[c] {
			if first < 0 {
				first = i
			}
			n++
		}
	}
	if n == 0 {
		return raw
	}
	var b strings.Builder
	b.Grow(len(raw) + 2*n)
	start := 0
	for i := first; i < len(raw); i++ {
		c := raw[i]
		if !mustEscape(c) && !res[c] {
			continue
		}
		b.WriteString(raw[start:i])
		b.WriteByte('%')
		b.WriteByte(upperHex[c>>4])
		b.WriteByte(upperHex[c&15])
		start = i + 1
	}
	b.WriteString(raw[start:])
	return b.String()
}

func needsEscape(c byte, reserved string) bool {
	return mustEscape(c) || strings.IndexByte(reserved, c) >= 0
}

// EscapeUnsafe encodes the octets of an already-escaped string that may never
// appear literally (controls, space, 8-bit, unsafe characters), leaving
// existing %XX triplets and reserved characters as they are. It is how text
// that a user typed with a literal space or "~" becomes a valid URL part
// without changing its meaning. s must already pass CheckEscapes.
func EscapeUnsafe(s string) string {
	clean := true
	for i := 0; i < len(s) && clean; i++ {
		clean = s[i] == '%' || !mustEscape(s[i])
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' || !mustEscape(c) {
			b.WriteByte(c) // a "%" here starts a triplet CheckEscapes accepted
			continue
		}
		b.WriteByte('%')
		b.WriteByte(upperHex[c>>4])
		b.WriteByte(upperHex[c&15])
	}
	return b.String()
}
