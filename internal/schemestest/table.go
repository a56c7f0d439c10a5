package schemestest

import (
	"testing"

	"github.com/urlget/urlget/schemes"
)

// Golden is what every row of a scheme's golden parse table says besides
// the typed fields: the URL as written (Raw), its canonical form, which
// String must give (Str; "" means Raw itself), and for a row that must not
// parse the URL part its error names (ErrPart).
type Golden struct{ Raw, Str, ErrPart string }

// GoldenTable runs a scheme's golden parse table, a subtest per row named
// by its URL: the URL is parsed as the registry does (Parse: the generic
// parser must accept it, so that an error row's error comes from the
// scheme's parser); a row with an ErrPart must fail with KindUsage naming
// that part, in phase "parse"; any other must parse, read as the row says
// (check, with the parsed value), give Str from String, and round-trip
// (RoundTrip). check also gets the round trip's value, again, for a
// scheme that compares more than Fields (the zero L when the round trip
// failed, which RoundTrip has reported). golden tells a row's Golden.
func GoldenTable[R any, L schemes.Locator](t *testing.T, parse func(*schemes.URL) (L, error), rows []R,
	golden func(R) Golden, check func(t *testing.T, row R, loc, again L)) {
	t.Helper()
	for _, row := range rows {
		g := golden(row)
		t.Run(g.Raw, func(t *testing.T) {
			loc, err := Parse(t, g.Raw, parse)
			if g.ErrPart != "" {
				if e := UsageError(t, err, g.ErrPart); e != nil && e.Phase != "parse" {
					t.Errorf("err = %v: phase %q, want parse", err, e.Phase)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := g.Str
			if want == "" {
				want = g.Raw
			}
			if s := loc.String(); s != want {
				t.Errorf("String() = %q, want %q", s, want)
			}
			again, _ := RoundTrip(t, loc, Parser(parse))
			check(t, row, loc, again)
		})
	}
}
