package wais

import (
	"testing"

	"github.com/urlget/urlget/schemes"
)

// FuzzParseWAIS checks that Parse never panics and that whatever it accepts
// formats to a URL that parses to an equal value and formats the same.
func FuzzParseWAIS(f *testing.F) {
	for _, tt := range tests {
		f.Add(tt.raw)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		g, err := schemes.Parse(raw)
		if err != nil {
			return
		}
		u, err := Parse(g)
		if err != nil {
			if schemes.KindOf(err) != schemes.KindUsage {
				t.Fatalf("%q: error of kind %v: %v", raw, schemes.KindOf(err), err)
			}
			return
		}
		s := u.String()
		g2, err := schemes.Parse(s)
		if err != nil {
			t.Fatalf("%q: String %q does not parse: %v", raw, s, err)
		}
		u2, err := Parse(g2)
		if err != nil {
			t.Fatalf("%q: String %q does not parse: %v", raw, s, err)
		}
		if !same(u, u2) {
			t.Fatalf("%q: round trip via %q: %+v → %+v", raw, s, u.Fields(), u2.Fields())
		}
		if s2 := u2.String(); s2 != s {
			t.Fatalf("%q: String not stable: %q → %q", raw, s, s2)
		}
	})
}
