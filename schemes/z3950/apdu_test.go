package z3950

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"github.com/urlget/urlget/internal/ber"
)

// capture is testdata/yaz-client.txt: the APDUs of a yaz-client session
// with yaz-ztest (its header says how it was made), in order, each with
// its direction ('>' yaz-client's, '<' the server's).
type captured struct {
	dir  byte
	apdu []byte
}

func capture(t *testing.T) []captured {
	t.Helper()
	b, err := os.ReadFile("testdata/yaz-client.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out []captured
	for _, line := range strings.Split(string(b), "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		h, err := hex.DecodeString(line[2:])
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, captured{line[0], h})
	}
	return out
}

// TestEncodingMatchesYAZ checks this package's requests byte for byte
// against what yaz-client sent for the same operations.
func TestEncodingMatchesYAZ(t *testing.T) {
	c := capture(t)
	for _, tc := range []struct {
		name string
		got  []byte
		want []byte
	}{
		// find 5: yaz-client names its first result set "1", as we do.
		{"find 5", searchRequest([]string{"Default"}, []string{"5"}), c[2].apdu},
		{"close", closeRequest(), c[10].apdu},
	} {
		if !bytes.Equal(tc.got, tc.want) {
			t.Errorf("%s:\n got %x\nwant %x", tc.name, tc.got, tc.want)
		}
	}
	// find @and @and a b c was yaz-client's result set "2": the rest is ours.
	and := searchRequest([]string{"Default"}, []string{"a", "b", "c"})
	want := bytes.Replace(c[4].apdu, []byte{0x91, 0x01, '2'}, []byte{0x91, 0x01, '1'}, 1)
	if !bytes.Equal(and, want) {
		t.Errorf("find a b c:\n got %x\nwant %x", and, want)
	}
	// show 1 and show 2 asked of result set "2".
	for i, p := range map[int][]byte{6: presentRequest(1, 1, oidUSMARC, ""), 8: presentRequest(2, 1, oidSUTRS, "F")} {
		want := bytes.Replace(c[i].apdu, []byte{0x9f, 0x1f, 0x01, '2'}, []byte{0x9f, 0x1f, 0x01, '1'}, 1)
		if !bytes.Equal(p, want) {
			t.Errorf("present %d:\n got %x\nwant %x", i, p, want)
		}
	}
}

// TestDecodeYAZReplies reads yaz-ztest's replies of the capture.
func TestDecodeYAZReplies(t *testing.T) {
	c := capture(t)
	dec := func(i int) node {
		t.Helper()
		// Through readAPDU as from a connection: the frame is the whole value.
		b, err := readAPDU(bufio.NewReader(bytes.NewReader(c[i].apdu)), maxAPDU)
		if err != nil || !bytes.Equal(b, c[i].apdu) {
			t.Fatalf("reply %d: readAPDU: %v (%d of %d bytes)", i, err, len(b), len(c[i].apdu))
		}
		n, err := decode(b)
		if err != nil {
			t.Fatalf("reply %d: %v", i, err)
		}
		return n
	}
	n := dec(1)
	ir, err := decodeInit(&n)
	if err != nil || !ir.accepted || ir.name != "GFS/YAZ" {
		t.Errorf("init: %+v %v", ir, err)
	}
	n = dec(3)
	sr, err := decodeSearch(&n)
	if err != nil || sr.count != 5 || !sr.status {
		t.Errorf("search: %+v %v", sr, err)
	}
	n = dec(7) // USMARC, indefinite lengths
	pr, err := decodePresent(&n, 1)
	if err != nil || len(pr.records) != 1 || !pr.records[0].syntax.Equal(oidUSMARC) || len(pr.records[0].data) != 366 || pr.records[0].db != "Default" {
		t.Fatalf("present usmarc: %+v %v", pr, err)
	}
	text, err := marcText(pr.records[0].data)
	if err != nil {
		t.Fatal(err)
	}
	golden, _ := os.ReadFile("testdata/record1.txt") // yaz-marcdump's rendering of the same record
	if !bytes.Equal(text, golden) {
		t.Errorf("marcText:\n%s\nwant (yaz-marcdump):\n%s", text, golden)
	}
	if got := marcTitle(pr.records[0].data); got != "How to program a computer" {
		t.Errorf("title %q", got)
	}
	if got := marcControl(pr.records[0].data, "001"); got != "   11224466 " {
		t.Errorf("001 %q", got)
	}
	if _, err := decodePresent(&n, 0); err == nil {
		t.Error("a record more than asked for was accepted")
	}
	n = dec(9)
	pr, err = decodePresent(&n, 1)
	if err != nil || len(pr.records) != 1 || string(pr.records[0].data) != "This is dummy SUTRS record number 2\n" {
		t.Errorf("present sutrs: %+v %v", pr, err)
	}
	n = dec(11)
	if err := expect(&n, pduClose); err != nil {
		t.Error(err)
	}
	if err := expect(&n, pduSearchResponse); err == nil || !strings.Contains(err.Error(), "Association terminated by client") {
		t.Errorf("a Close for a SearchResponse: %v", err)
	}
}

// TestSyntaxOf: a record syntax is named by any of its names or its OID.
// (The BER of integers, OIDs and tags is internal/ber's: TestInt, TestOID,
// TestElements.)
func TestSyntaxOf(t *testing.T) {
	for _, s := range []string{"usmarc", "MARC21", "1.2.840.10003.5.10"} {
		if o, ok := SyntaxOf(s); !ok || !o.Equal(oidUSMARC) {
			t.Errorf("SyntaxOf(%q) = %s %t", s, o, ok)
		}
	}
}

// TestHostileBER: what a server sends cannot make the APDU tree decoder
// nest without bound, read past a value's end, or panic. (readAPDU is
// ber.ReadElement: internal/ber's TestHostile reads the same inputs.)
func TestHostileBER(t *testing.T) {
	deep := bytes.Repeat([]byte{0x30, 0x80}, ber.MaxDepth+2) // indefinite SEQUENCEs nested too deep
	for name, b := range map[string][]byte{
		"huge length":          {0x30, 0x84, 0x7f, 0xff, 0xff, 0xff},
		"length octets":        {0x30, 0x85, 1, 0, 0, 0, 0},
		"long tag":             {0x3f, 0x81, 0x81, 0x81, 0x81, 0x01, 0x00},
		"deep":                 deep,
		"endless indefinite":   append([]byte{0x30, 0x80}, bytes.Repeat([]byte{0x04, 0x00}, 1<<17)...),
		"truncated":            {0x30, 0x05, 0x02, 0x01},
		"primitive indefinite": {0x04, 0x80, 0x00, 0x00},
	} {
		if _, err := decode(b); err == nil {
			t.Errorf("%s: decode accepted it", name)
		}
	}
	// Within the frame, lengths beyond the value.
	for _, b := range [][]byte{{0x30, 0x03, 0x04, 0x05, 0x00}, {0x30, 0x02, 0x1f, 0x81}, {0x06, 0x01, 0x81}} {
		n, err := decode(b)
		if err == nil {
			if _, err = n.oid(); err == nil {
				t.Errorf("%x: accepted", b)
			}
		}
	}
}

// FuzzDecode checks that no reply makes decoding panic or read beyond its
// bounds.
func FuzzDecode(f *testing.F) {
	f.Add([]byte{0xb9, 0x80, 0x00, 0x00})
	f.Add(ctxCons(pduPresentResponse, ctxInt(24, 1), ctxInt(25, 2), ctxInt(27, 0)))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := readAPDU(bufio.NewReader(bytes.NewReader(b)), 1<<16)
		if err != nil {
			return
		}
		n, err := decode(r)
		if err != nil {
			return
		}
		decodeInit(&n)
		decodeSearch(&n)
		if p, err := decodePresent(&n, 10); err == nil {
			for _, rec := range p.records {
				render(rec, false)
				marcTitle(rec.data)
			}
		}
	})
}

func TestMarcTextHostile(t *testing.T) {
	for _, b := range []string{"", "short", "00100nam  2200099   4500" + "001000", "00040nam  2200037   4500" + "001000500000\x1e" + "ab\x1d"} {
		if _, err := marcText([]byte(b)); err == nil {
			t.Errorf("%q: accepted", b)
		}
		marcTitle([]byte(b))
	}
}

// TestMarcXML: a MARCXML record's title (245 $a $b) and control number
// (001, as written: the listing trims it), the first of each; "" for
// what a record lacks, for another syntax, and for a field that XML
// cut short does not end.
func TestMarcXML(t *testing.T) {
	const head = `<record xmlns="http://www.loc.gov/MARC21/slim"><leader>00315nam a2200121 a 4500</leader>`
	const f245 = `<datafield tag="245" ind1="1" ind2="0"><subfield code="a">Computer processing :</subfield><subfield code="b">the proceedings /</subfield><subfield code="c">ed. by X</subfield></datafield>`
	for _, tt := range []struct {
		syntax         OID
		data           string
		title, control string
	}{
		{oidXML, head + `<controlfield tag="001">   41000013 </controlfield><controlfield tag="003">UGTB</controlfield>` +
			`<datafield tag="100" ind1="1" ind2=" "><subfield code="a">Someone</subfield></datafield>` + f245 + `</record>`,
			"Computer processing : the proceedings /", "   41000013 "},
		{oidApplXML, head + `<controlfield tag="001">41000026 //r02</controlfield><controlfield tag="001">second</controlfield>` + f245 +
			`<datafield tag="245" ind1="1" ind2="0"><subfield code="a">Another</subfield></datafield></record>`,
			"Computer processing : the proceedings /", "41000026 //r02"},
		{oidXML, head + f245 + `<controlfield tag="001">T&#333;ky&#333; &amp; co</controlfield></record>`, "Computer processing : the proceedings /", "Tōkyō & co"},
		{oidXML, head + `<controlfield tag="003">UGTB</controlfield></record>`, "", ""},
		{oidXML, head + `<controlfield tag="001">cut`, "", ""},
		{oidXML, "<a><b", "", ""},
		{oidSUTRS, head + `<controlfield tag="001">1</controlfield>` + f245, "", ""},
	} {
		title, control := marcXML(record{syntax: tt.syntax, data: []byte(tt.data)})
		if title != tt.title || control != tt.control {
			t.Errorf("%s %q: %q %q, want %q %q", tt.syntax, tt.data, title, control, tt.title, tt.control)
		}
	}
}
