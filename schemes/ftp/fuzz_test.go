package ftp

import (
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
)

// FuzzParseFTP checks that Parse never panics and that whatever it accepts
// formats to a URL that parses to an equal value and formats the same.
func FuzzParseFTP(f *testing.F) {
	for _, tt := range tests {
		f.Add(tt.raw)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		schemestest.FuzzRoundTrip(t, raw, schemestest.Parser(Parse))
	})
}
