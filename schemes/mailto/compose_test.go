package mailto

import (
	"strings"
	"testing"
)

func TestFold(t *testing.T) {
	long := "Subject: " + strings.Repeat("word ", 40) + "end"
	got := fold(long)
	for _, l := range strings.Split(got, "\r\n") {
		if len(l) > 78 {
			t.Errorf("line of %d: %q", len(l), l)
		}
	}
	if strings.ReplaceAll(got, "\r\n", "") != long {
		t.Errorf("unfolding %q does not give the original", got)
	}
	if s := "Subject: " + strings.Repeat("x", 100); fold(s) != s {
		t.Errorf("a line without spaces was changed")
	}
	if s := "Subject: " + strings.Repeat("x", 100) + " tail"; strings.ReplaceAll(fold(s), "\r\n", "") != s || !strings.Contains(fold(s), "\r\n tail") {
		t.Errorf("fold(%q) = %q", s, fold(s))
	}
}
