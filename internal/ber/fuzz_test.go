package ber

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"testing"
)

// seeds are the tables' encodings and the hostile inputs.
func seeds(f *testing.F) {
	for _, tt := range elements {
		b, _ := hex.DecodeString(tt.wire)
		f.Add(b)
	}
	for _, b := range hostile {
		f.Add(b)
	}
}

// FuzzElement: whatever the bytes, splitting never panics nor slices past
// them, and what Element and ParseHeader accept agree.
func FuzzElement(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		id, c, rest, err := Element(b)
		h, herr := ParseHeader(b)
		if err != nil {
			return
		}
		if herr != nil || h.Length != len(c) || h.Size+len(c)+len(rest) != len(b) || h.Tag != int(id&0x1f) {
			t.Fatalf("Element %x %d %d; ParseHeader %+v %v", id, len(c), len(rest), h, herr)
		}
		Int(c)
		Bool(c)
		// Minimal subidentifiers re-encode to the same octets; a leading
		// 0x80 (allowed by the decoder, not written by the encoder) is
		// skipped, with any other 0x80 octet, to keep the check simple.
		if o, err := OID(c); err == nil && !bytes.Contains(c, []byte{0x80}) && !bytes.Equal(OIDContents(o), c) {
			t.Fatalf("OID %x -> %v -> %x", c, o, OIDContents(o))
		}
	})
}

// FuzzReadElement: whatever the stream, reading never panics, never
// returns more than the max, and what it returns splits whole.
func FuzzReadElement(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		const max = 1 << 10
		r := bufio.NewReader(bytes.NewReader(b))
		for {
			e, err := ReadElement(r, max)
			if err != nil {
				return
			}
			if len(e) > max || !bytes.HasPrefix(b, e) {
				t.Fatalf("%d octets %x", len(e), e)
			}
			b = b[len(e):]
			if h, err := ParseHeader(e); err != nil || (h.Length != Indefinite && h.Size+h.Length != len(e)) {
				t.Fatalf("%x: %+v %v", e, h, err)
			}
		}
	})
}
