package testbed

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestZebraRecords: every record is well-formed ISO 2709 (its leader's
// length and base address, its directory against its fields), its 001 is
// unique even with its blanks trimmed, and its leader says UTF-8 exactly
// when it holds more than ASCII.
func TestZebraRecords(t *testing.T) {
	ids := map[string]int{}
	forms := map[string]bool{}
	for n := 1; n <= ZebraRecords(); n++ {
		r := ZebraRecord(n)
		b := r.ISO2709()
		if got, _ := strconv.Atoi(string(b[:5])); got != len(b) || b[len(b)-1] != 0x1d {
			t.Fatalf("record %d: length %q, %d octets", n, b[:5], len(b))
		}
		base, _ := strconv.Atoi(string(b[12:17]))
		if b[base-1] != 0x1e || (base-24-1)%12 != 0 || (base-25)/12 != len(r.Fields) {
			t.Fatalf("record %d: base %d for %d fields", n, base, len(r.Fields))
		}
		for i, f := range r.Fields {
			e := b[24+12*i : 36+12*i]
			l, _ := strconv.Atoi(string(e[3:7]))
			at, _ := strconv.Atoi(string(e[7:12]))
			if string(e[:3]) != f.Tag || b[base+at+l-1] != 0x1e {
				t.Fatalf("record %d field %d: entry %q", n, i, e)
			}
		}
		ascii := !bytes.ContainsFunc(b, func(r rune) bool { return r >= utf8.RuneSelf })
		if (b[9] == 'a') == ascii || !utf8.Valid(b) {
			t.Errorf("record %d: leader/09 %q, ASCII only %v", n, b[9], ascii)
		}
		id := strings.TrimSpace(r.Control("001"))
		if m, dup := ids[id]; dup {
			t.Errorf("records %d and %d have the 001 %q", m, n, id)
		}
		ids[id] = n
		forms[strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return '9'
			}
			return r
		}, r.Control("001"))[:3]] = true
	}
	if len(forms) < 5 {
		t.Errorf("001 forms %v, want five", forms)
	}
}
