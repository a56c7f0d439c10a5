// Package schemestest holds the checks every scheme package's parser tests
// share, in the spirit of gocloud's drivertest: the round trip
// Parse(String()) of the schemes.Locator contract, the redaction of
// Redacted(), and the shape of a parse error. Each scheme package keeps its
// own tables and adds, next to these calls, the checks only it needs.
//
// It is imported by tests only; it is a plain package (not a _test.go file)
// so that all scheme packages can share it, and internal, so that no program
// outside this module comes to depend on test helpers.
package schemestest

import (
	"errors"
	"reflect"
	"testing"

	"github.com/urlget/urlget/schemes"
)

// Parser returns a function that parses raw as the registry does: the
// generic schemes.Parse, then the scheme package's parse. Every package's
// tests need this pair to turn text into a typed value.
func Parser[L schemes.Locator](parse func(*schemes.URL) (L, error)) func(raw string) (L, error) {
	return func(raw string) (L, error) {
		u, err := schemes.Parse(raw)
		if err != nil {
			var zero L
			return zero, err
		}
		return parse(u)
	}
}

// Parse is Parser(parse)(raw) for table rows whose text the generic parser
// must accept: it fails t if schemes.Parse rejects raw, so that a row
// expecting an error is sure the error came from the scheme's own parser
// and not from the generic one.
func Parse[L schemes.Locator](t testing.TB, raw string, parse func(*schemes.URL) (L, error)) (L, error) {
	t.Helper()
	u, err := schemes.Parse(raw)
	if err != nil {
		t.Fatalf("schemes.Parse(%q): %v", raw, err)
	}
	return parse(u)
}

// Same reports whether a and b designate the same thing: equal Fields()
// (the typed, decoded values) and equal generic parts other than Path and
// Opaque. Those two are left out because they are kept escaped as written,
// and String may write a different but equivalent escaping; for the same
// reason fragments are compared in canonical form. Authority is compared
// because news:x and news://h/x differ only there; ports are compared with
// the default applied, since the canonical form leaves a default port out.
func Same(a, b schemes.Locator) bool {
	ga, gb := a.Generic(), b.Generic()
	return reflect.DeepEqual(a.Fields(), b.Fields()) && ga.Scheme == gb.Scheme && ga.Authority == gb.Authority &&
		reflect.DeepEqual(ga.User, gb.User) && reflect.DeepEqual(ga.Password, gb.Password) &&
		ga.Host == gb.Host && ga.EffectivePort() == gb.EffectivePort() &&
		reflect.DeepEqual(ga.CanonicalFragment(), gb.CanonicalFragment())
}

// RoundTrip checks the Locator contract on loc: its String() parses (with
// parse) to a value Same as loc, which formats to the same String again;
// Redacted() hides exactly the password; LocalName() is one safe segment,
// the same for the reparsed value (checkLocalName). It reports failures
// with t.Errorf and returns the reparsed value and whether there is one,
// so that callers can add the comparisons only their scheme needs.
func RoundTrip[L schemes.Locator](t testing.TB, loc L, parse func(string) (L, error)) (L, bool) {
	t.Helper()
	s := loc.String()
	checkRedacted(t, loc, s)
	v, err := parse(s)
	if err != nil {
		t.Errorf("round trip: String %q does not parse: %v", s, err)
		return v, false
	}
	if !Same(loc, v) {
		t.Errorf("round trip via %q changed the value: %+v (generic %+v) → %+v (generic %+v)",
			s, loc.Fields(), *loc.Generic(), v.Fields(), *v.Generic())
	}
	if s2 := v.String(); s2 != s {
		t.Errorf("String not stable: %q then %q", s, s2)
	}
	checkLocalName(t, loc, v)
	return v, true
}

// checkRedacted checks that Redacted() is String() with the password, and
// nothing else, replaced. schemes.RedactString is the reference only where
// the URL has an authority: it is a heuristic for text, and would "redact"
// an opaque part such as news:0//:@0, which has no password. Without a
// password there is nothing to hide, so Redacted() must equal String().
func checkRedacted(t testing.TB, loc schemes.Locator, s string) {
	t.Helper()
	g, r := loc.Generic(), loc.Redacted()
	if g.Authority && r != schemes.RedactString(s) {
		t.Errorf("Redacted() = %q, want %q", r, schemes.RedactString(s))
	}
	if g.Password == nil && r != s {
		t.Errorf("Redacted() = %q, want String() %q: there is no password", r, s)
	}
}

// UsageError checks that err is a *schemes.Error of KindUsage naming part
// as the URL part at fault, as every parse error must be (it gives exit
// status 2 and tells the user what to fix). It returns the error, or nil
// after reporting with t.Errorf when err is no *schemes.Error, so that
// callers can check more (the phase, that the password is hidden).
func UsageError(t testing.TB, err error, part string) *schemes.Error {
	t.Helper()
	var e *schemes.Error
	if !errors.As(err, &e) {
		t.Errorf("err = %#v, want a *schemes.Error of KindUsage with Part %q", err, part)
		return nil
	}
	if e.Kind != schemes.KindUsage || e.Part != part {
		t.Errorf("err = %v (kind %v part %q), want KindUsage with Part %q", err, e.Kind, e.Part, part)
	}
	return e
}

// FuzzRoundTrip is the body of a FuzzParse<Scheme> test: parse must not
// panic on raw; if it fails, the error is a KindUsage *schemes.Error; if it
// succeeds, the value passes RoundTrip. It returns the parsed and the
// reparsed value and whether both exist, for the scheme's own extra checks.
func FuzzRoundTrip[L schemes.Locator](t *testing.T, raw string, parse func(string) (L, error)) (x, y L, ok bool) {
	t.Helper()
	x, err := parse(raw)
	if err != nil {
		if schemes.KindOf(err) != schemes.KindUsage {
			t.Fatalf("%q: error of kind %v, want KindUsage: %#v", raw, schemes.KindOf(err), err)
		}
		return x, y, false
	}
	y, ok = RoundTrip(t, x, parse)
	if t.Failed() {
		// Stop at the first input that fails, as t.Fatal would: the fuzzer
		// then minimizes it.
		t.FailNow()
	}
	return x, y, ok
}

// LocatorString is e's Locator as a string (password included), "" for an
// entry without one: what listing tests compare.
func LocatorString(e schemes.Entry) string {
	if e.Locator == nil {
		return ""
	}
	return e.Locator.String()
}
