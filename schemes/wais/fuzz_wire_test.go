package wais

import (
	"bytes"
	"testing"
)

// FuzzDecodeReply: the reply decoder never panics, and what it reads
// stays within the reply (a hostile length cannot make it allocate).
func FuzzDecodeReply(f *testing.F) {
	f.Add(notesSearchReply(f))
	f.Add([]byte{0x00, 0x0e, 0x17, 1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0x1b, 0x01, 0x00, 0x63, 0x05, 0x1c, 0x00, 0x02, 'S', '1'})
	f.Add([]byte{0x00, 0x0e, 0x17, 1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0x1b, 0x01, 0x00, 0x63, 0xff, 0xff, 0xff, 0xff, 0x7f})
	f.Fuzz(func(t *testing.T, b []byte) {
		rp, err := decodeReply(b, DefaultMax)
		if err != nil {
			return
		}
		total := 0
		for _, x := range rp.texts {
			total += len(x)
		}
		for _, h := range rp.hits {
			total += len(h.docID) + len(h.headline)
		}
		if total > len(b) {
			t.Fatalf("read %d bytes out of a %d-byte reply", total, len(b))
		}
	})
}

// FuzzDocName: every DocID made of records writes a docname that reads
// back to the same bytes.
func FuzzDocName(f *testing.F) {
	f.Add(notesDocID(f))
	f.Add([]byte{0x07, 0x01, 0x00})
	f.Add([]byte{0x81, 0x00, 0x02, ';', '='})
	f.Fuzz(func(t *testing.T, id []byte) {
		name, ok := docName(id)
		if !ok {
			return
		}
		back, err := parseDocName(name)
		if err != nil && len(id) > 0 {
			if bytes.Count([]byte(name), []byte(";")) <= maxDocIDRecords {
				t.Fatalf("%x: docname %q does not parse: %v", id, name, err)
			}
			return
		}
		if len(id) > 0 && !bytes.Equal(back, id) {
			t.Fatalf("%x → %q → %x", id, name, back)
		}
	})
}
