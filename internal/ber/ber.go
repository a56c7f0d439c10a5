// Package ber reads and writes ASN.1 values in the Basic Encoding Rules
// (X.690, ISO 8825-1), as the schemes that speak BER on the wire (LDAP,
// Z39.50) need: splitting elements in place, decoding the contents of
// INTEGERs, BOOLEANs and OBJECT IDENTIFIERs, reading one whole element
// from a stream within a size bound, and encoding. Protocol knowledge
// (which tags mean what) stays in the scheme packages.
//
// Everything here is bounded whatever a server sends: lengths beyond the
// octets at hand or the caller's maximum are refused before anything is
// read or allocated for them, and nesting is limited to MaxDepth.
package ber

import (
	"errors"
	"fmt"
)

// Tag classes (X.690 §8.1.2.2), as the identifier octet's top two bits.
const (
	ClassUniversal   = 0x00
	ClassApplication = 0x40
	ClassContext     = 0x80
	ClassPrivate     = 0xc0
)

// Constructed is the identifier octet's bit for a constructed encoding
// (X.690 §8.1.2.5).
const Constructed = 0x20

// Universal tag numbers (X.680 §8.4) the schemes use.
const (
	TagBoolean       = 1
	TagInteger       = 2
	TagBitString     = 3
	TagOctetString   = 4
	TagNull          = 5
	TagOID           = 6
	TagExternal      = 8
	TagEnumerated    = 10
	TagSequence      = 16
	TagSet           = 17
	TagVisibleString = 26
	TagGeneralString = 27
)

// Limits on what is accepted, whatever the peer sends.
const (
	// MaxDepth is the deepest nesting of constructed values read: LDAP
	// messages nest a few levels, Z39.50's replies about a dozen; more
	// is hostile, and recursion must stop somewhere.
	MaxDepth = 64
	// MaxLengthOctets bounds a length's long form: 4 octets say 4 GiB,
	// beyond any maximum a caller sets, and keep the sum in an int on
	// 32-bit platforms.
	MaxLengthOctets = 4
	// MaxTagOctets bounds a high tag number's octets (2^28 tags, far
	// beyond any protocol's).
	MaxTagOctets = 4
	// Indefinite is Header.Length for the indefinite form (X.690
	// §8.1.3.6): contents end at an end-of-contents (two zero octets).
	Indefinite = -1
)

var (
	// ErrMalformed is an encoding that breaks X.690 or this package's
	// limits on tags, lengths and nesting.
	ErrMalformed = errors.New("malformed BER")
	// ErrTooLong is an element longer than the caller's maximum.
	ErrTooLong = errors.New("a BER element longer than the limit")
)

// malformed is ErrMalformed with why.
func malformed(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, a...))
}

// Header is an element's identifier and length octets, decoded.
type Header struct {
	// Class is one of the Class constants.
	Class byte
	// Constructed is true for a constructed encoding.
	Constructed bool
	// Tag is the tag number within the class.
	Tag int
	// Length is the contents' length, or Indefinite.
	Length int
	// Size is the number of identifier and length octets.
	Size int
}

// ParseHeader decodes the header at the start of b. A definite length
// must fit in the octets of b after the header, so that
// b[h.Size:h.Size+h.Length] is always safe; the indefinite form is
// accepted on constructed values only (X.690 §8.1.3.2).
func ParseHeader(b []byte) (Header, error) {
	h, err := header(b)
	if err == errShort {
		return Header{}, malformed("truncated header")
	}
	if err == nil && h.Length > len(b)-h.Size {
		return Header{}, malformed("length %d beyond the %d octets left", h.Length, len(b)-h.Size)
	}
	return h, err
}

// maxHeader is the most octets a header accepted here has: identifier,
// MaxTagOctets of tag number, the first length octet and MaxLengthOctets.
const maxHeader = 1 + MaxTagOctets + 1 + MaxLengthOctets

// errShort is a header cut short by the end of the octets at hand.
var errShort = errors.New("short header")

// header decodes the header at the start of b, whatever follows it;
// errShort if b ends inside it.
func header(b []byte) (Header, error) {
	if len(b) < 2 {
		return Header{}, errShort
	}
	h := Header{Class: b[0] & 0xc0, Constructed: b[0]&Constructed != 0, Tag: int(b[0] & 0x1f)}
	i := 1
	if h.Tag == 0x1f { // high tag number form, base 128 (X.690 §8.1.2.4)
		h.Tag = 0
		for k := 0; ; k++ {
			if k == MaxTagOctets {
				return Header{}, malformed("tag number of more than %d octets", MaxTagOctets)
			}
			if i >= len(b) {
				return Header{}, errShort
			}
			c := b[i]
			i++
			h.Tag = h.Tag<<7 | int(c&0x7f)
			if c&0x80 == 0 {
				break
			}
		}
	}
	if i >= len(b) {
		return Header{}, errShort
	}
	l := int(b[i])
	i++
	switch {
	case l == 0x80:
		if !h.Constructed {
			return Header{}, malformed("indefinite length on a primitive value")
		}
		h.Length, h.Size = Indefinite, i
		return h, nil
	case l&0x80 != 0:
		k := l & 0x7f
		if k > MaxLengthOctets {
			return Header{}, malformed("length of %d octets", k)
		}
		if i+k > len(b) {
			return Header{}, errShort
		}
		l = 0
		for _, c := range b[i : i+k] {
			l = l<<8 | int(c)
		}
		i += k
	}
	h.Length, h.Size = l, i
	return h, nil
}

// Element splits the first element off b: its identifier octet, its
// contents and what follows, all slices of b (nothing is copied or
// allocated). It is the fast path for protocols whose tags all fit the
// identifier octet and whose lengths are definite, as LDAP's (RFC 4511
// §5.1): the high tag number form and the indefinite length are refused.
func Element(b []byte) (id byte, content, rest []byte, err error) {
	if len(b) < 2 || b[0]&0x1f == 0x1f {
		return 0, nil, nil, ErrMalformed
	}
	id, n, hdr := b[0], int(b[1]), 2
	if n&0x80 != 0 {
		k := n & 0x7f
		if k == 0 || k > MaxLengthOctets || len(b) < 2+k {
			return 0, nil, nil, ErrMalformed
		}
		n = 0
		for _, c := range b[2 : 2+k] {
			n = n<<8 | int(c)
		}
		hdr += k
	}
	if n > len(b)-hdr {
		return 0, nil, nil, ErrMalformed
	}
	return id, b[hdr : hdr+n], b[hdr+n:], nil
}

// Expect is Element, failing unless the identifier octet is want.
func Expect(b []byte, want byte) (content, rest []byte, err error) {
	id, content, rest, err := Element(b)
	if err == nil && id != want {
		err = fmt.Errorf("%w: element 0x%02x where 0x%02x belongs", ErrMalformed, id, want)
	}
	return content, rest, err
}
