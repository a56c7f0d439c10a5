package schemes_test

import (
	"testing"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
)

// parsers is the registry the library's zero fetch.Client parses with:
// the canonical form is a matter of parsing only, so the rows here are
// the library's answer (the command's tests run them through urlget).
func parsers() *schemes.Registry { return fetch.DefaultRegistry() }

// TestRegistryCanonical runs every example URL of RFC 1738 and the drafts
// through the library's rule, with the round-trip column.
func TestRegistryCanonical(t *testing.T) {
	r := parsers()
	for _, ex := range schemestest.Examples {
		c, ok := schemestest.CheckCanonical(t, r, ex.Raw)
		if !ok {
			c = ""
		}
		if c != ex.Canon {
			t.Errorf("Canonical(%q) = %q, want %q", ex.Raw, c, ex.Canon)
		}
	}
}

// TestRegistryEquivalent checks each documented equivalence, and each near
// miss, both ways round.
func TestRegistryEquivalent(t *testing.T) {
	r := parsers()
	for _, p := range schemestest.Pairs {
		for _, ab := range [][2]string{{p.A, p.B}, {p.B, p.A}} {
			same, err := r.Equivalent(ab[0], ab[1])
			if err != nil || same != p.Same {
				t.Errorf("Equivalent(%q, %q) = %v, %v; want %v (%s)", ab[0], ab[1], same, err, p.Same, p.Why)
			}
		}
		for _, raw := range []string{p.A, p.B} {
			schemestest.CheckCanonical(t, r, raw)
		}
	}
	if _, err := r.Equivalent("news:1%as@h", "news:1@h"); schemes.KindOf(err) != schemes.KindUsage {
		t.Errorf("Equivalent with a malformed URL: %v, want a usage error", err)
	}
	if _, err := r.Equivalent("news:1@h", "ftp://h/x;type=q"); schemes.KindOf(err) != schemes.KindUsage {
		t.Errorf("Equivalent with a URL its scheme refuses: %v, want a usage error", err)
	}
}

// registryPortTests are URLs with their scheme's default port, which
// the generic rules keep (canonicalTests) and the registry drops: the
// scheme's parser gives each URL the port its declaration names.
var registryPortTests = []struct{ raw, want string }{
	{"HTTP://Host:80/%7e", "http://host/%7E"},
	{"ftp://h:21/pub", "ftp://h/pub"},
	{"gopher://h:70/0x", "gopher://h/0x"},
	{"gopher://h:71/0x", "gopher://h:71/0x"},
	{"HTTPS://H:443", "https://h/"},
	{"http://h", "http://h/"},
	{"http://[2001:DB8:0:0:0:0:0:1]:80/", "http://[2001:db8::1]/"},
	{"x-other://h:80/", "x-other://h:80/"},
}

// TestRegistryDefaultPorts: through the registry a default port is
// left out, as the scheme declares it.
func TestRegistryDefaultPorts(t *testing.T) {
	r := parsers()
	for _, tt := range registryPortTests {
		if got, err := r.Canonical(tt.raw); err != nil || got != tt.want {
			t.Errorf("Canonical(%q) = %q, %v; want %q", tt.raw, got, err, tt.want)
		}
	}
}

// FuzzRegistryCanonical: whatever parses has a canonical form that is
// idempotent, equivalent to it, and parses to the same value.
func FuzzRegistryCanonical(f *testing.F) {
	for _, ex := range schemestest.Examples {
		f.Add(ex.Raw)
	}
	for _, p := range schemestest.Pairs {
		f.Add(p.A)
		f.Add(p.B)
	}
	r := parsers()
	f.Fuzz(func(t *testing.T, raw string) {
		if schemestest.CheckCanonical(t, r, raw); t.Failed() {
			t.FailNow()
		}
	})
}
