package transport

import (
	"errors"
	"testing"

	"github.com/urlget/urlget/schemes"
)

func TestCheckChars(t *testing.T) {
	tests := []struct {
		part, value, forbidden string
		msg                    string // "" means allowed
	}{
		{"cwd segment 2", "pub", LineBreakers, ""},
		{"cwd segment 2", "pub\r", LineBreakers, "decoded CR in cwd segment 2 would inject a command"},
		{"name", "a\nDELE x", LineBreakers, "decoded LF in name would inject a command"},
		{"name", "a\x00b", LineBreakers, "decoded NUL in name would inject a command"},
		{"name", "a\tb", LineBreakers, ""},
		{"selector", "a\tb", "\r\n\t", "decoded TAB in selector would inject a field"},
		{"selector", "ab\r\n", "\r\n\t", "decoded CR in selector would inject a command"},
		{"selector", "caf\u00e9 space ok", "\r\n\t", ""},
		{"group", "x\x7fy", "\x7f", "decoded byte %7F in group would inject a field"},
	}
	for _, tt := range tests {
		err := CheckChars("ftp", tt.part, tt.value, tt.forbidden)
		if tt.msg == "" {
			if err != nil {
				t.Errorf("CheckChars(%q, %q) = %v, want nil", tt.part, tt.value, err)
			}
			continue
		}
		var se *schemes.Error
		if !errors.As(err, &se) {
			t.Fatalf("CheckChars(%q, %q) = %v, want *schemes.Error", tt.part, tt.value, err)
		}
		if se.Kind != schemes.KindSafety || se.Phase != "request" || se.Part != tt.part || se.Scheme != "ftp" || se.Msg != tt.msg {
			t.Errorf("CheckChars(%q, %q) = %+v, want KindSafety/request/%s %q", tt.part, tt.value, se, tt.part, tt.msg)
		}
	}
	if err := CheckLine("nntp", "group", "comp.lang\r\nPOST"); schemes.KindOf(err) != schemes.KindSafety {
		t.Errorf("CheckLine with CRLF = %v, want KindSafety", err)
	}
	if err := CheckLine("nntp", "group", "comp.lang.go"); err != nil {
		t.Errorf("CheckLine(clean) = %v", err)
	}
}
