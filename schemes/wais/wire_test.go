package wais

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"
)

// unhex reads hex bytes written with spaces, as wais-notes §9 shows them.
func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// notesDocID is the 161-byte DocID of wais-notes §9 (records 1–3, their
// copies 4–6, and 7).
func notesDocID(t testing.TB) []byte {
	rec := func(tag byte, v string) []byte { return append([]byte{tag, byte(len(v))}, v...) }
	var id []byte
	for _, base := range []byte{0, 3} {
		id = append(id, rec(base+1, "vm:2210")...)
		id = append(id, rec(base+2, "/var/lib/waisdb/index/demo")...)
		id = append(id, rec(base+3, "0 107 /var/lib/waisdb/corpus/orchard.txt")...)
	}
	id = append(id, 0x07, 0x01, 0x00)
	if len(id) != 161 {
		t.Fatalf("DocID of %d bytes", len(id))
	}
	return id
}

func TestCompressedIntegers(t *testing.T) {
	for _, tt := range []struct {
		v   int
		hex string
	}{{5, "05"}, {99, "63"}, {128, "8100"}, {150, "8116"}, {483, "8363"}, {8632, "c338"}, {0, "00"}, {1<<21 - 1, "ffff7f"}} {
		got := appendCI(nil, tt.v)
		if hex.EncodeToString(got) != tt.hex {
			t.Errorf("appendCI(%d) = %x, want %s", tt.v, got, tt.hex)
		}
		back, err := (&reader{b: got}).ci()
		if err != nil || back != tt.v {
			t.Errorf("round trip of %d: %d, %v", tt.v, back, err)
		}
	}
	if _, err := (&reader{b: unhex(t, "ff ff ff ff ff 01")}).ci(); err == nil {
		t.Error("a 6-byte compressed integer was read")
	}
}

// TestSearchAPDUIsTheCapture: the Search for "apple" in "demo" is the
// 64 bytes freeWAIS-sf's waissearch sent (wais-notes §9).
func TestSearchAPDUIsTheCapture(t *testing.T) {
	want := append([]byte("0000000039z2wais        0"), unhex(t, `
		00 16 16 00 00 1e 00 13 88 00 00 1e 01 11 00 12 04 64 65 6d 6f 14 01 33
		63 0d 6a 05 61 70 70 6c 65 6f 01 01 72 01 28`)...)
	apdu := searchAPDU("demo", "apple", 40)
	if got := append(header(len(apdu)), apdu...); !bytes.Equal(got, want) {
		t.Errorf("search request\n got %x\nwant %x", got, want)
	}
}

// TestRetrieveAPDUIsTheCapture: the retrieval of bytes 0–107 of the §9
// hit is the 338 bytes of the capture.
func TestRetrieveAPDUIsTheCapture(t *testing.T) {
	id := notesDocID(t)
	want := []byte("0000000313z2wais        0")
	want = append(want, unhex(t, `00 2d 16 00 00 0a 00 00 10 00 00 0f 01 11 03 46 4f 4f 12 04 64 65 6d 6f 14 01 31
		13 0f 20 1f 44 6f 63 75 6d 65 6e 74 20 54 65 78 74 02 01 33 15 82 07`)...)
	want = append(want, 0x2c, 0x11)
	want = append(want, "un re ig ig ig ig"...)
	want = append(want, 0x2d, 0x81, 0x21)
	want = append(want, id...)
	for _, term := range [][2]string{{"wt re ig ig ig ig", "TEXT"}, {"wb ro ig ig ig ig", "0"}, {"wb rl ig ig ig ig", "107"}} {
		want = append(want, 0x2c, 0x11)
		want = append(want, term[0]...)
		want = append(want, 0x2d, byte(len(term[1])))
		want = append(want, term[1]...)
		want = append(want, 0x2e, 0x01, 'a')
	}
	apdu := retrieveAPDU("demo", id, "TEXT", 0, 107)
	got := append(header(len(apdu)), apdu...)
	if len(got) != 338 || !bytes.Equal(got, want) {
		t.Errorf("retrieval request (%d bytes)\n got %x\nwant %x", len(got), got, want)
	}
}

// notesSearchReply is a search reply shaped as the §9 capture: the fixed
// part, then one header group of the orchard hit and one catalog header.
func notesSearchReply(t testing.TB) []byte {
	id := notesDocID(t)
	group := []byte{0x74, 0x81, 0x21}
	group = append(group, id...)
	group = append(group, unhex(t, "76 02 01 ce 77 01 00 78 01 6b 81 03 01 02 81 04 07 81 05 04 54 45 58 54")...)
	group = append(group, 0x79, 0x1a)
	group = append(group, "/var/lib/waisdb/index/demo"...)
	group = append(group, unhex(t, "7a 01 30 7b 12")...)
	group = append(group, "Orchard management"...)
	if len(group) != 239 {
		t.Fatalf("group of %d bytes", len(group))
	}
	ext := append([]byte{0x81, 0x16, 0x81, 0x6f}, group...)
	cat := []byte{0x74, 0x05, 0x02, 0x01, 'd', 0x07, 0x00, 0x76, 0x01, 0x00, 0x78, 0x01, 0x05, 0x7b, 0x07}
	cat = append(cat, "Catalog"...)
	ext = append(ext, 0x81, 0x16, byte(len(cat)))
	ext = append(ext, cat...)
	b := unhex(t, "00 0e 17 01 00 00 00 00 00 02 00 00 00 1b 01 00")
	b = append(b, 0x63)
	b = appendCI(b, len(ext))
	return append(b, ext...)
}

func TestDecodeSearchReply(t *testing.T) {
	rp, err := decodeReply(notesSearchReply(t), DefaultMax)
	if err != nil {
		t.Fatal(err)
	}
	if rp.status != 1 || rp.records != 2 || len(rp.hits) != 2 || len(rp.diags) != 0 {
		t.Fatalf("%+v", rp)
	}
	h := rp.hits[0]
	if !bytes.Equal(h.docID, notesDocID(t)) || h.score != 462 || h.length != 107 || h.lines != 2 ||
		strings.Join(h.types, ",") != "TEXT" || h.source != "/var/lib/waisdb/index/demo" || h.date != "0" || h.headline != "Orchard management" {
		t.Errorf("hit %+v", h)
	}
	if c := rp.hits[1]; c.headline != "Catalog" || c.length != 5 {
		t.Errorf("catalog %+v", c)
	}
}

// TestDecodeTextAndDiagnostic: a retrieval reply's text group, and the
// past-the-end diagnostic with its 2-byte length and 1d trailer.
func TestDecodeTextAndDiagnostic(t *testing.T) {
	text := []byte("Apples and pears.\n")
	grp := []byte{0x74, 0x03, 0x02, 0x01, 'x', 0x75, 0x01, 0x00, 0x7f, byte(len(text))}
	grp = append(grp, text...)
	ext := append([]byte{0x81, 0x19, byte(len(grp))}, grp...)
	ext = append(ext, 0x1c, 0x00, 0x17)
	ext = append(ext, "SFRequest out of range\x01"...)
	ext = append(ext, 0x1d)
	b := unhex(t, "00 11 17 00 00 00 00 00 00 02 00 00 00 1b 01 00 02 01 33")
	b = append(b, 0x63, byte(len(ext)))
	b = append(b, ext...)
	rp, err := decodeReply(b, DefaultMax)
	if err != nil {
		t.Fatal(err)
	}
	if len(rp.texts) != 1 || !bytes.Equal(rp.texts[0], text) || len(rp.diags) != 1 ||
		rp.diags[0] != (diagnostic{"SF", "Request out of range"}) {
		t.Errorf("%+v", rp)
	}
}

// TestDocNameRoundTrip: a DocID written as the docname of §7 and read
// back is the same bytes; the §7 example URL gives the §9 DocID.
func TestDocNameRoundTrip(t *testing.T) {
	id := notesDocID(t)
	name, ok := docName(id)
	want := "1=vm%3A2210;2=/var/lib/waisdb/index/demo;3=0%20107%20/var/lib/waisdb/corpus/orchard.txt;" +
		"4=vm%3A2210;5=/var/lib/waisdb/index/demo;6=0%20107%20/var/lib/waisdb/corpus/orchard.txt;7=%00;"
	if !ok || name != want {
		t.Fatalf("docName = %q, want %q", name, want)
	}
	for _, tt := range []struct{ name string }{
		{want}, {"1=a%3Bb%3Dc;"}, {"200=x;3=;"}, {"1=%FF%00%25;"},
	} {
		id, err := parseDocName(tt.name)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if back, ok := docName(id); !ok || back != tt.name {
			t.Errorf("round trip of %q: %q", tt.name, back)
		}
	}
	if id, err := parseDocName(want); err != nil || !bytes.Equal(id, notesDocID(t)) {
		t.Errorf("the §7 docname gives %x (%v)", id, err)
	}
	for _, bad := range []string{"x=1;", "1", "1=%G0;", "-1=a;"} {
		if _, err := parseDocName(bad); err == nil {
			t.Errorf("parseDocName(%q) accepted", bad)
		}
	}
}
