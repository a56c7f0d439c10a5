package z3950

import (
	"bufio"
	"fmt"

	"github.com/urlget/urlget/internal/ber"
)

// BER as Z39.50 uses it (ISO 8825-1 as Z39.50-1995 §4 prescribes), with
// internal/ber: tags of any number, definite lengths written, definite
// and indefinite ones read (YAZ writes a record's EXTERNAL with
// indefinite lengths), always within maxAPDU octets, ber.MaxDepth levels
// and maxNodes values. Here: the tree an APDU decodes to.

// maxNodes is the most values one APDU may hold: the tree costs memory
// per value, beyond the APDU's octets.
const maxNodes = 1 << 20

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
func (n *node) ctx(tag int) *node { return n.child(ber.ClassContext, tag) }

// int reads a primitive INTEGER's contents (two's complement, at most 8
// octets).
func (n *node) int() (int64, error) {
	if n == nil {
		return 0, berErrorf("missing integer")
	}
	if n.constructed {
		return 0, berErrorf("constructed integer")
	}
	v, err := ber.Int(n.content)
	if err != nil {
		return 0, berErrorf("bad integer of %d octets", len(n.content))
	}
	return v, nil
}

// bool reads a BOOLEAN: any non-zero octet is true.
func (n *node) bool() (bool, error) {
	if n == nil || n.constructed {
		return false, berErrorf("bad boolean")
	}
	v, err := ber.Bool(n.content)
	if err != nil {
		return false, berErrorf("bad boolean")
	}
	return v, nil
}

// oid reads an OBJECT IDENTIFIER's contents.
func (n *node) oid() (OID, error) {
	if n == nil || n.constructed {
		return nil, berErrorf("bad object identifier")
	}
	o, err := ber.OID(n.content)
	if err != nil {
		return nil, err
	}
	return OID(o), nil
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

// readAPDU reads one APDU from r, at most max octets in all, nested at
// most ber.MaxDepth deep, and returns its octets (a new slice: the
// decoded tree aliases them).
func readAPDU(r *bufio.Reader, max int) ([]byte, error) {
	return ber.ReadElement(r, max)
}

// decode reads b as exactly one BER value, within ber.MaxDepth and maxNodes.
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
	if depth > ber.MaxDepth {
		return node{}, nil, berErrorf("nested deeper than %d", ber.MaxDepth)
	}
	if d.nodes++; d.nodes > maxNodes {
		return node{}, nil, berErrorf("more than %d values", maxNodes)
	}
	h, err := ber.ParseHeader(b)
	if err != nil {
		return node{}, nil, err
	}
	n := node{class: h.Class, constructed: h.Constructed, tag: h.Tag}
	if h.Length == ber.Indefinite {
		rest := b[h.Size:]
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
	content, rest := b[h.Size:h.Size+h.Length], b[h.Size+h.Length:]
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

// Short-hands for the values the APDUs are made of.

func ctxInt(tag int, v int64) []byte {
	return ber.TLV(ber.ClassContext, false, tag, ber.IntContents(v))
}
func ctxStr(tag int, s string) []byte     { return ber.TLV(ber.ClassContext, false, tag, []byte(s)) }
func ctxCons(tag int, p ...[]byte) []byte { return ber.TLV(ber.ClassContext, true, tag, p...) }
func ctxBool(tag int, v bool) []byte {
	if v {
		return ber.TLV(ber.ClassContext, false, tag, []byte{1}) // YAZ writes TRUE as 1
	}
	return ber.TLV(ber.ClassContext, false, tag, []byte{0})
}
func ctxOID(tag int, o OID) []byte { return ber.TLV(ber.ClassContext, false, tag, ber.OIDContents(o)) }
func uniOID(o OID) []byte          { return ber.TLV(ber.ClassUniversal, false, ber.TagOID, ber.OIDContents(o)) }

// ctxBits is an implicitly tagged BIT STRING holding bits 0..n-1 of set
// (bit 0 the first octet's high bit), n bits long.
func ctxBits(tag int, n int, set ...int) []byte {
	octets := make([]byte, 1+(n+7)/8)
	octets[0] = byte((8 - n%8) % 8) // unused bits in the last octet
	for _, i := range set {
		octets[1+i/8] |= 0x80 >> (i % 8)
	}
	return ber.TLV(ber.ClassContext, false, tag, octets)
}
