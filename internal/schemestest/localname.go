package schemestest

import (
	"testing"

	"github.com/urlget/urlget/schemes"
)

// LocalNames checks Locator.LocalName for each URL of names, parsed with
// parse: it suggests the name names maps it to ("" for none), and so does
// its canonical form (the round trip: two spellings of one URL name one
// file), a name within the contract (checkLocalName).
func LocalNames[L schemes.Locator](t *testing.T, parse func(*schemes.URL) (L, error), names map[string]string) {
	t.Helper()
	for raw, want := range names {
		loc, err := Parse(t, raw, parse)
		if err != nil {
			t.Errorf("%s: %v", raw, err)
			continue
		}
		if got := loc.LocalName(); got != want {
			t.Errorf("%s: LocalName() = %q, want %q", raw, got, want)
		}
		if back, err := Parser(parse)(loc.String()); err != nil {
			t.Errorf("%s: String %q does not parse: %v", raw, loc.String(), err)
		} else {
			checkLocalName(t, loc, back)
		}
	}
}

// checkLocalName checks the contract of Locator.LocalName on loc: "" or
// one safe path segment (schemes.BaseName leaves it as it is: no "/",
// "\" or control character, not "." or ".."), and the same name from
// again, which is loc reparsed from its String.
func checkLocalName(t testing.TB, loc, again schemes.Locator) {
	t.Helper()
	name := loc.LocalName()
	if name != schemes.BaseName(name) {
		t.Errorf("%s: LocalName() = %q, not one safe path segment", loc.Redacted(), name)
	}
	if n := again.LocalName(); n != name {
		t.Errorf("%s: LocalName() = %q, but %q for its canonical form", loc.Redacted(), name, n)
	}
}
