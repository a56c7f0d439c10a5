package wais

import (
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
)

// FuzzParseWAIS checks that Parse never panics and that whatever it accepts
// formats to a URL that parses to an equal value and formats the same.
func FuzzParseWAIS(f *testing.F) {
	for _, tt := range tests {
		f.Add(tt.raw)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		// The escaped wpath is compared too: its escapes carry the DocID's
		// structure, which the decoded WPath in Fields() loses.
		if u, u2, ok := schemestest.FuzzRoundTrip(t, raw, schemestest.Parser(Parse)); ok && u.EscapedWPath() != u2.EscapedWPath() {
			t.Fatalf("%q: round trip via %q: wpath %q → %q", raw, u.String(), u.EscapedWPath(), u2.EscapedWPath())
		}
	})
}
