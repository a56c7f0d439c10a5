package z3950

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// BER as Z39.50 uses it (ISO 8825-1 as Z39.50-1995 §4 prescribes): tags
// of any number, definite lengths written, definite and indefinite ones
// read (YAZ writes a record's EXTERNAL with indefinite lengths), always
// within maxAPDU octets and maxDepth levels.

// Tag classes (ISO 8825-1 §8.1.2.2), as the first octet's top two bits.
const (
	classUniversal   = 0x00
	classApplication = 0x40
	classContext     = 0x80
)

// Universal tags (ISO 8824) Z39.50 uses.
const (
	tagBoolean       = 1
	tagInteger       = 2
	tagBitString     = 3
	tagOctetString   = 4
	tagNull          = 5
	tagOID           = 6
	tagExternal      = 8
	tagSequence      = 16
	tagVisibleString = 26
	tagGeneralString = 27
)

// Limits on what a reply may be, whatever the server sends.
const (
	// maxDepth is the deepest nesting of constructed values read:
	// Z39.50's replies nest about a dozen deep.
	maxDepth = 64
	// maxNodes is the most values one APDU may hold.
	maxNodes = 1 << 20
	// maxLengthOctets bounds a length's long form: 4 octets say 4 GiB,
	// beyond any limit below.
	maxLengthOctets = 4
	// maxTagOctets bounds a high tag number's octets (2^28 tags).
	maxTagOctets = 4
)

// errOverflow: a value longer than the limit.
var errOverflow = errors.New("a reply longer than the limit")

// berError is an unreadable reply, or one beyond the limits.
type berError struct{ msg string }

func (e *berError) Error() string { return e.msg }

func berErrorf(format string, a ...any) error { return &berError{msg: fmt.Sprintf(format, a...)} }

// node is one decoded BER value: its tag, and either its contents
// (primitive) or its parts (constructed). Contents alias the APDU's
// bytes.
type node struct {
	class       byte
	constructed bool
	tag         int
	content     []byte
	kids        []node
}

// is reports whether n has the class and tag.
func (n *node) is(class byte, tag int) bool { return n.class == class && n.tag == tag }

// child is n's first part with the class and tag, nil if none.
func (n *node) child(class byte, tag int) *node {
	for i := range n.kids {
		if n.kids[i].is(class, tag) {
			return &n.kids[i]
		}
	}
	return nil
}

// ctx is n's first part of context class with tag, nil if none.
func (n *node) ctx(tag int) *node { return n.child(classContext, tag) }

// int reads a primitive INTEGER's contents (two's complement, at most 8
// octets).
func (n *node) int() (int64, error) {
	if n == nil {
		return 0, berErrorf("missing integer")
	}
	if n.constructed || len(n.content) == 0 || len(n.content) > 8 {
		return 0, berErrorf("bad integer of %d octets", len(n.content))
	}
	v := int64(int8(n.content[0]))
	for _, b := range n.content[1:] {
		v = v<<8 | int64(b)
	}
	return v, nil
}

// bool reads a BOOLEAN: any non-zero octet is true.
func (n *node) bool() (bool, error) {
	if n == nil || n.constructed || len(n.content) != 1 {
		return false, berErrorf("bad boolean")
	}
	return n.content[0] != 0, nil
}

// oid reads an OBJECT IDENTIFIER's contents.
func (n *node) oid() (OID, error) {
	if n == nil || n.constructed || len(n.content) == 0 || len(n.content) > 64 {
		return nil, berErrorf("bad object identifier")
	}
	var o OID
	v := 0
	for i, b := range n.content {
		if v > 1<<24 {
			return nil, berErrorf("object identifier arc too large")
		}
		v = v<<7 | int(b&0x7f)
		if b&0x80 != 0 {
			if i == len(n.content)-1 {
				return nil, berErrorf("truncated object identifier")
			}
			continue
		}
		if o == nil {
			switch {
			case v < 40:
				o = OID{0, v}
			case v < 80:
				o = OID{1, v - 40}
			default:
				o = OID{2, v - 80}
			}
		} else {
			o = append(o, v)
		}
		v = 0
	}
	return o, nil
}

// str reads a primitive string's octets (GeneralString, VisibleString,
// OCTET STRING, or an implicitly tagged one). Constructed strings, which
// BER allows but YAZ never sends, are refused.
func (n *node) str() ([]byte, error) {
	if n == nil {
		return nil, berErrorf("missing string")
	}
	if n.constructed {
		return nil, berErrorf("constructed string (tag %d) not supported", n.tag)
	}
	return n.content, nil
}

// readAPDU reads one BER value from r, at most max octets in all, nested
// at most maxDepth deep, and returns its octets. Indefinite lengths are
// followed to their end-of-contents (YAZ writes records so), within the
// same bounds.
func readAPDU(r *bufio.Reader, max int) ([]byte, error) {
	rd := apduReader{r: r, max: max}
	if err := rd.value(0); err != nil {
		if len(rd.buf) == 0 {
			return nil, err // nothing read: EOF stays EOF
		}
		return nil, noEOF(err)
	}
	return rd.buf, nil
}

// apduReader copies one BER value from r into buf.
type apduReader struct {
	r   *bufio.Reader
	buf []byte
	max int
}

// byte reads one octet into buf.
func (a *apduReader) byte() (byte, error) {
	if len(a.buf) >= a.max {
		return 0, errOverflow
	}
	b, err := a.r.ReadByte()
	if err != nil {
		return 0, err
	}
	a.buf = append(a.buf, b)
	return b, nil
}

// value reads one value: its tag, its length, its contents.
func (a *apduReader) value(depth int) error {
	if depth > maxDepth {
		return berErrorf("nested deeper than %d", maxDepth)
	}
	first, err := a.byte()
	if err != nil {
		return err
	}
	if first&0x1f == 0x1f {
		for i := 0; ; i++ {
			if i == maxTagOctets {
				return berErrorf("tag number too large")
			}
			b, err := a.byte()
			if err != nil {
				return err
			}
			if b&0x80 == 0 {
				break
			}
		}
	}
	l, err := a.byte()
	if err != nil {
		return err
	}
	if l == 0x80 {
		if first&0x20 == 0 {
			return berErrorf("indefinite length on a primitive value")
		}
		for {
			p, err := a.r.Peek(2)
			if err != nil {
				return err
			}
			if p[0] == 0 && p[1] == 0 {
				a.byte()
				_, err := a.byte()
				return err
			}
			if err := a.value(depth + 1); err != nil {
				return err
			}
		}
	}
	n := int(l)
	if l&0x80 != 0 {
		k := int(l & 0x7f)
		if k > maxLengthOctets {
			return errOverflow
		}
		n = 0
		for range k {
			b, err := a.byte()
			if err != nil {
				return err
			}
			n = n<<8 | int(b)
		}
	}
	if n > a.max-len(a.buf) {
		return errOverflow
	}
	at := len(a.buf)
	a.buf = append(a.buf, make([]byte, n)...)
	_, err = io.ReadFull(a.r, a.buf[at:])
	return err
}

// noEOF makes an end inside a value an unexpected one.
func noEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// decode reads b as exactly one BER value, within maxDepth and maxNodes.
func decode(b []byte) (node, error) {
	d := decoder{}
	n, rest, err := d.value(b, 0)
	if err != nil {
		return node{}, err
	}
	if len(rest) != 0 {
		return node{}, berErrorf("%d octets after the value", len(rest))
	}
	return n, nil
}

type decoder struct{ nodes int }

// value reads one value at the start of b, and what follows it.
func (d *decoder) value(b []byte, depth int) (node, []byte, error) {
	if depth > maxDepth {
		return node{}, nil, berErrorf("nested deeper than %d", maxDepth)
	}
	if d.nodes++; d.nodes > maxNodes {
		return node{}, nil, berErrorf("more than %d values", maxNodes)
	}
	if len(b) < 2 {
		return node{}, nil, berErrorf("truncated value")
	}
	n := node{class: b[0] & 0xc0, constructed: b[0]&0x20 != 0, tag: int(b[0] & 0x1f)}
	i := 1
	if n.tag == 0x1f {
		n.tag = 0
		for k := 0; ; k++ {
			if k == maxTagOctets || i >= len(b) {
				return node{}, nil, berErrorf("bad tag number")
			}
			c := b[i]
			i++
			n.tag = n.tag<<7 | int(c&0x7f)
			if c&0x80 == 0 {
				break
			}
		}
	}
	if i >= len(b) {
		return node{}, nil, berErrorf("truncated length")
	}
	l := int(b[i])
	i++
	if l == 0x80 {
		if !n.constructed {
			return node{}, nil, berErrorf("indefinite length on a primitive value")
		}
		rest := b[i:]
		for {
			if len(rest) >= 2 && rest[0] == 0 && rest[1] == 0 {
				return n, rest[2:], nil
			}
			k, r, err := d.value(rest, depth+1)
			if err != nil {
				return node{}, nil, err
			}
			n.kids = append(n.kids, k)
			rest = r
		}
	}
	if l&0x80 != 0 {
		k := l & 0x7f
		if k > maxLengthOctets || i+k > len(b) {
			return node{}, nil, berErrorf("bad length")
		}
		l = 0
		for _, c := range b[i : i+k] {
			l = l<<8 | int(c)
		}
		i += k
	}
	if l < 0 || l > len(b)-i {
		return node{}, nil, berErrorf("length %d beyond the %d octets left", l, len(b)-i)
	}
	content, rest := b[i:i+l], b[i+l:]
	if !n.constructed {
		n.content = content
		return n, rest, nil
	}
	for len(content) > 0 {
		k, r, err := d.value(content, depth+1)
		if err != nil {
			return node{}, nil, err
		}
		n.kids = append(n.kids, k)
		content = r
	}
	return n, rest, nil
}

// The encoder: each function returns one value's octets.

// tlv encodes one value of class with tag, constructed or not, around
// contents.
func tlv(class byte, constructed bool, tag int, contents ...[]byte) []byte {
	n := 0
	for _, c := range contents {
		n += len(c)
	}
	b := make([]byte, 0, n+8)
	first := class
	if constructed {
		first |= 0x20
	}
	if tag < 31 {
		b = append(b, first|byte(tag))
	} else {
		b = append(b, first|0x1f)
		b = appendBase128(b, tag)
	}
	b = appendLength(b, n)
	for _, c := range contents {
		b = append(b, c...)
	}
	return b
}

// appendBase128 writes v in base 128, high octets first, all but the last
// with bit 8 set (tag numbers, OID arcs).
func appendBase128(b []byte, v int) []byte {
	var tmp [5]byte
	i := len(tmp) - 1
	tmp[i] = byte(v & 0x7f)
	for v >>= 7; v > 0; v >>= 7 {
		i--
		tmp[i] = byte(v&0x7f) | 0x80
	}
	return append(b, tmp[i:]...)
}

// appendLength writes a definite length, short form below 128.
func appendLength(b []byte, n int) []byte {
	if n < 0x80 {
		return append(b, byte(n))
	}
	var tmp [8]byte
	i := len(tmp)
	for ; n > 0; n >>= 8 {
		i--
		tmp[i] = byte(n)
	}
	b = append(b, 0x80|byte(len(tmp)-i))
	return append(b, tmp[i:]...)
}

// intContents is v's INTEGER contents: the fewest two's complement octets.
func intContents(v int64) []byte {
	b := []byte{byte(v)}
	for v >>= 8; ; v >>= 8 {
		last := b[0]
		if (v == 0 && last&0x80 == 0) || (v == -1 && last&0x80 != 0) {
			return b
		}
		b = append([]byte{byte(v)}, b...)
	}
}

// oidContents is o's OBJECT IDENTIFIER contents.
func oidContents(o OID) []byte {
	b := appendBase128(nil, o[0]*40+o[1])
	for _, a := range o[2:] {
		b = appendBase128(b, a)
	}
	return b
}

// Short-hands for the values the APDUs are made of.

func ctxInt(tag int, v int64) []byte      { return tlv(classContext, false, tag, intContents(v)) }
func ctxStr(tag int, s string) []byte     { return tlv(classContext, false, tag, []byte(s)) }
func ctxCons(tag int, p ...[]byte) []byte { return tlv(classContext, true, tag, p...) }
func ctxBool(tag int, v bool) []byte {
	if v {
		return tlv(classContext, false, tag, []byte{1}) // YAZ writes TRUE as 1
	}
	return tlv(classContext, false, tag, []byte{0})
}
func ctxOID(tag int, o OID) []byte { return tlv(classContext, false, tag, oidContents(o)) }
func uniOID(o OID) []byte          { return tlv(classUniversal, false, tagOID, oidContents(o)) }

// ctxBits is an implicitly tagged BIT STRING holding bits 0..n-1 of set
// (bit 0 the first octet's high bit), n bits long.
func ctxBits(tag int, n int, set ...int) []byte {
	octets := make([]byte, 1+(n+7)/8)
	octets[0] = byte((8 - n%8) % 8) // unused bits in the last octet
	for _, i := range set {
		octets[1+i/8] |= 0x80 >> (i % 8)
	}
	return tlv(classContext, false, tag, octets)
}
