package z3950

import (
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
)

// FuzzParseZ3950 checks that Parse never panics and that whatever it
// accepts formats to a URL that parses to an equal value and formats the
// same; seeded with the table, RFC 2056's examples first.
func FuzzParseZ3950(f *testing.F) {
	for _, tt := range tests {
		f.Add(tt.raw)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		schemestest.FuzzRoundTrip(t, raw, schemestest.Parser(Parse))
	})
}
