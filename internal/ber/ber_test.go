package ber

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"io"
	"slices"
	"strings"
	"testing"
)

// elements: values, their encodings as X.690 writes them, and the
// round-trip column: TLV(class, constructed, tag, contents) == wire,
// and the wire decodes back to the same header and contents.
var elements = []struct {
	name        string
	class       byte
	constructed bool
	tag         int
	contents    string // hex
	wire        string // hex
}{
	{"integer 0", ClassUniversal, false, TagInteger, "00", "020100"},
	{"ldap message", ClassUniversal, true, TagSequence, "020101", "3003020101"},
	{"empty octet string", ClassUniversal, false, TagOctetString, "", "0400"},
	{"application 4", ClassApplication, true, 4, "0400", "64020400"},
	{"context 3", ClassContext, true, 3, "", "a300"},
	{"private", ClassPrivate, false, 1, "ff", "c101ff"},
	{"tag 30", ClassContext, false, 30, "01", "9e0101"},
	{"tag 31", ClassContext, false, 31, "01", "9f1f0101"},
	{"tag 127", ClassContext, false, 127, "", "9f7f00"},
	{"tag 128", ClassContext, false, 128, "", "9f810000"},
	{"tag 211", ClassContext, true, 211, "", "bf815300"},
	{"tag 16383", ClassContext, false, 16383, "", "9fff7f00"},
	{"tag 16384", ClassContext, false, 16384, "", "9f81800000"},
	{"length 127", ClassUniversal, false, TagOctetString, strings.Repeat("61", 127), "047f" + strings.Repeat("61", 127)},
	{"length 128", ClassUniversal, false, TagOctetString, strings.Repeat("61", 128), "048180" + strings.Repeat("61", 128)},
	{"length 256", ClassUniversal, false, TagOctetString, strings.Repeat("61", 256), "04820100" + strings.Repeat("61", 256)},
}

func unhex(t testing.TB, s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestElements(t *testing.T) {
	for _, tt := range elements {
		contents, wire := unhex(t, tt.contents), unhex(t, tt.wire)
		if got := TLV(tt.class, tt.constructed, tt.tag, contents); !bytes.Equal(got, wire) {
			t.Errorf("%s: TLV = %x, want %x", tt.name, got, wire)
		}
		tail := append(slices.Clip(wire), 0x05, 0x00) // a NULL after it
		h, err := ParseHeader(tail)
		if err != nil {
			t.Fatalf("%s: ParseHeader: %v", tt.name, err)
		}
		want := Header{Class: tt.class, Constructed: tt.constructed, Tag: tt.tag, Length: len(contents), Size: len(wire) - len(contents)}
		if h != want {
			t.Errorf("%s: ParseHeader = %+v, want %+v", tt.name, h, want)
		}
		if tt.tag < 31 {
			id, c, rest, err := Element(tail)
			if err != nil || id != wire[0] || !bytes.Equal(c, contents) || !bytes.Equal(rest, []byte{5, 0}) {
				t.Errorf("%s: Element = %x %x %x %v", tt.name, id, c, rest, err)
			}
			if _, _, err := Expect(tail, wire[0]^0x01); err == nil {
				t.Errorf("%s: Expect took another identifier", tt.name)
			}
		} else if _, _, _, err := Element(tail); err == nil {
			t.Errorf("%s: Element took a high tag number", tt.name)
		}
		got, err := ReadElement(bufio.NewReader(bytes.NewReader(tail)), len(wire))
		if err != nil || !bytes.Equal(got, wire) {
			t.Errorf("%s: ReadElement = %x %v", tt.name, got, err)
		}
		if _, err := ReadElement(bufio.NewReader(bytes.NewReader(wire)), len(wire)-1); err == nil {
			t.Errorf("%s: ReadElement past its maximum", tt.name)
		}
	}
}

// TestIndefinite: YAZ writes a record's EXTERNAL with indefinite lengths;
// the reader follows them to their end-of-contents, nested.
func TestIndefinite(t *testing.T) {
	wire := unhex(t, "a8803080020101040000000000"+"0500")
	h, err := ParseHeader(wire)
	if err != nil || h.Length != Indefinite || h.Size != 2 || h.Tag != TagExternal || !h.Constructed {
		t.Errorf("ParseHeader = %+v %v", h, err)
	}
	got, err := ReadElement(bufio.NewReader(bytes.NewReader(wire)), 64)
	if err != nil || !bytes.Equal(got, wire[:len(wire)-2]) {
		t.Errorf("ReadElement = %x %v", got, err)
	}
	if _, _, _, err := Element(wire); err == nil {
		t.Error("Element took an indefinite length")
	}
}

// TestAppendElementReuses: reading message after message into one
// buffer keeps its memory and leaves EOF at the end as EOF.
func TestAppendElementReuses(t *testing.T) {
	stream := unhex(t, "300302010130030201023003020103")
	r := bufio.NewReader(bytes.NewReader(stream))
	buf := make([]byte, 0, 16)
	for i := range 3 {
		b, err := AppendElement(buf[:0], r, 16)
		if err != nil || len(b) != 5 || b[4] != byte(i+1) || &b[0] != &buf[:1][0] {
			t.Fatalf("message %d: %x %v", i, b, err)
		}
	}
	if _, err := AppendElement(buf[:0], r, 16); err != io.EOF {
		t.Errorf("after the last: %v", err)
	}
}

var ints = []struct {
	v        int64
	contents string
}{
	{0, "00"}, {1, "01"}, {127, "7f"}, {128, "0080"}, {255, "00ff"}, {256, "0100"},
	{-1, "ff"}, {-128, "80"}, {-129, "ff7f"}, {1 << 40, "010000000000"}, {-1 << 40, "ff0000000000"},
	{1<<63 - 1, "7fffffffffffffff"}, {-1 << 63, "8000000000000000"},
}

func TestInt(t *testing.T) {
	for _, tt := range ints {
		c := unhex(t, tt.contents)
		if got := IntContents(tt.v); !bytes.Equal(got, c) {
			t.Errorf("IntContents(%d) = %x, want %x", tt.v, got, c)
		}
		if got, err := Int(c); err != nil || got != tt.v {
			t.Errorf("Int(%x) = %d %v", c, got, err)
		}
	}
	for _, c := range []string{"", "010203040506070809"} {
		if _, err := Int(unhex(t, c)); err == nil {
			t.Errorf("Int(%s) accepted", c)
		}
	}
}

func TestBool(t *testing.T) {
	for c, want := range map[string]bool{"00": false, "01": true, "ff": true} {
		if got, err := Bool(unhex(t, c)); err != nil || got != want {
			t.Errorf("Bool(%s) = %t %v", c, got, err)
		}
	}
	for _, c := range []string{"", "0000"} {
		if _, err := Bool(unhex(t, c)); err == nil {
			t.Errorf("Bool(%s) accepted", c)
		}
	}
}

var oids = []struct {
	arcs     []int
	contents string
}{
	{[]int{1, 2, 840, 10003, 5, 10}, "2a8648ce13050a"},
	{[]int{1, 2, 840, 10003, 5, 109, 10}, "2a8648ce13056d0a"},
	{[]int{0, 0}, "00"},
	{[]int{2, 999, 1 << 20}, "8837c08000"},
}

func TestOID(t *testing.T) {
	for _, tt := range oids {
		c := unhex(t, strings.ReplaceAll(tt.contents, " ", ""))
		if got := OIDContents(tt.arcs); !bytes.Equal(got, c) {
			t.Errorf("OIDContents(%v) = %x, want %x", tt.arcs, got, c)
		}
		if got, err := OID(c); err != nil || !slices.Equal(got, tt.arcs) {
			t.Errorf("OID(%x) = %v %v", c, got, err)
		}
	}
	for _, c := range []string{"", "81", "2a86", "ffffffffff01", strings.Repeat("01", 65)} {
		if _, err := OID(unhex(t, c)); err == nil {
			t.Errorf("OID(%s) accepted", c)
		}
	}
}
