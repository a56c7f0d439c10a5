package schemes

import (
	"strings"
	"testing"
)

// TestCharClasses checks the lookup table against RFC 1738's lists: every
// octet is exactly one of unreserved, reserved or must-escape, except "%",
// which must be escaped when it is data.
func TestCharClasses(t *testing.T) {
	for i := 0; i < 256; i++ {
		b := byte(i)
		alnum := 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
		wantU := alnum || strings.IndexByte("$-_.+!*'(),", b) >= 0
		wantR := strings.IndexByte(";/?:@=&", b) >= 0
		wantM := b <= 0x20 || b >= 0x7F || strings.IndexByte("<>\"#%{}|\\^~[]`", b) >= 0
		if IsUnreserved(b) != wantU || IsReserved(b) != wantR || mustEscape(b) != wantM {
			t.Errorf("octet %#02x: unreserved %v reserved %v mustEscape %v", b, IsUnreserved(b), IsReserved(b), mustEscape(b))
		}
		if n := btoi(wantU) + btoi(wantR) + btoi(wantM); n != 1 {
			t.Errorf("octet %#02x is in %d classes", b, n)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestEscapeUnescape(t *testing.T) {
	for _, tt := range []struct{ raw, reserved, want string }{
		{"a b", "", "a%20b"},
		{"a/b;c", "/;", "a%2Fb%3Bc"},
		{"100%", "", "100%25"},
		{"~user", "", "%7Euser"},
		{"\r\n\x00\xff", "", "%0D%0A%00%FF"},
		{"plain-text_1.2", "", "plain-text_1.2"},
	} {
		got := Escape(tt.raw, tt.reserved)
		if got != tt.want {
			t.Errorf("Escape(%q, %q) = %q, want %q", tt.raw, tt.reserved, got, tt.want)
		}
		back, err := Unescape(got)
		if err != nil || back != tt.raw {
			t.Errorf("Unescape(%q) = %q, %v, want %q", got, back, err, tt.raw)
		}
	}
	if got := EscapeUnsafe("a b%2Fc/d~"); got != "a%20b%2Fc/d%7E" {
		t.Errorf("EscapeUnsafe = %q", got)
	}
	for _, bad := range []string{"%", "%4", "%zz", "a%g1", "%%41"} {
		if _, err := Unescape(bad); err == nil {
			t.Errorf("Unescape(%q): no error", bad)
		}
		if CheckEscapes(bad) == nil {
			t.Errorf("CheckEscapes(%q): no error", bad)
		}
	}
	if got, err := Unescape("%41%62%2f"); err != nil || got != "Ab/" {
		t.Errorf("Unescape = %q, %v", got, err)
	}
}
