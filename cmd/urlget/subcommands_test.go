package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
)

// parsed runs `urlget parse raw` and returns its object, or nil with the
// exit status when it fails.
func parsed(t *testing.T, raw string) (map[string]any, int) {
	t.Helper()
	out, _, code := urlget(t, "", "parse", raw)
	if code != 0 {
		return nil, code
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("parse %q printed no JSON object: %v\n%s", raw, err, out)
	}
	return v, 0
}

// checkAgree checks, for one URL, that the commands and the library give
// one canonical form, with the round-trip column: `urlget canon` prints c,
// which is the "canonical" of `urlget parse` and
// fetch.Client.Parse(raw).String(); canon(c) = c; same(raw, c); parse(c)
// prints what parse(raw) prints but for the parts as written. It returns
// c, or "" when canon refuses raw (exit 2, as parse does).
func checkAgree(t *testing.T, raw string) string {
	t.Helper()
	out, stderr, code := urlget(t, "", "canon", raw)
	if code != 0 {
		if code != 2 {
			t.Errorf("canon %q: exit %d (%s), want 0 or 2", raw, code, stderr)
		}
		if _, pcode := parsed(t, raw); pcode != 2 {
			t.Errorf("canon %q refused it (exit 2) but parse exits %d", raw, pcode)
		}
		return ""
	}
	c := strings.TrimSuffix(out, "\n")
	if again, _, _ := urlget(t, "", "canon", c); again != out {
		t.Errorf("canon %q = %q, and canon of that = %q", raw, c, again)
	}
	if same, _, code := urlget(t, "", "same", raw, c); same != "same\n" || code != 0 {
		t.Errorf("same %q %q: %q exit %d", raw, c, same, code)
	}
	loc, err := (&fetch.Client{}).Parse(raw)
	x, xcode := parsed(t, raw)
	y, _ := parsed(t, c)
	switch {
	case schemes.KindOf(err) == schemes.KindUnsupported:
		if xcode != 8 {
			t.Errorf("parse %q of a scheme urlget does not know: exit %d, want 8", raw, xcode)
		}
	case err != nil || x == nil:
		t.Errorf("canon %q = %q, but the library says %v and parse exits %d", raw, c, err, xcode)
	case loc.String() != c || x[urlKey] != c:
		t.Errorf("%q: canon %q, parse canonical %v, fetch.Client.Parse(...).String() %q", raw, c, x[urlKey], loc.String())
	default:
		for _, k := range writtenKeys {
			delete(x, k)
			delete(y, k)
		}
		xs, _ := json.Marshal(x)
		ys, _ := json.Marshal(y)
		if string(xs) != string(ys) {
			t.Errorf("parse %q:\n%s\nparse of its canonical form %q:\n%s", raw, xs, c, ys)
		}
	}
	return c
}

// TestCanonParseSameAgree runs every example URL of RFC 1738 and the
// drafts through the commands and the library.
func TestCanonParseSameAgree(t *testing.T) {
	for _, ex := range schemestest.Examples {
		if c := checkAgree(t, ex.Raw); c != ex.Canon {
			t.Errorf("canon %q = %q, want %q", ex.Raw, c, ex.Canon)
		}
	}
}

// TestSameRules checks `urlget same` on each documented equivalence and
// near miss, both ways round.
func TestSameRules(t *testing.T) {
	for _, p := range schemestest.Pairs {
		want, wantCode := "different\n", 1
		if p.Same {
			want, wantCode = "same\n", 0
		}
		for _, ab := range [][2]string{{p.A, p.B}, {p.B, p.A}} {
			if out, stderr, code := urlget(t, "", "same", ab[0], ab[1]); out != want || code != wantCode {
				t.Errorf("same %q %q: %q exit %d (%s); want %q (%s)", ab[0], ab[1], out, code, stderr, want, p.Why)
			}
		}
	}
	if _, stderr, code := urlget(t, "", "same", "ftp://h/x;type=q", "ftp://h/x"); code != 2 || !strings.Contains(stderr, "typecode") {
		t.Errorf("same with a URL its scheme refuses: exit %d (%s), want 2 naming the typecode", code, stderr)
	}
}

// writtenKeys are the parts `urlget parse` prints as written, which a URL
// and its canonical form may write differently.
var writtenKeys = []string{"url", "scheme", "host", "port", "fragment"}

// TestParseShowsPartsAsWritten: parse prints each generic part as written
// (the host localhost stays, case stays, a port only when written), the
// canonical URL in "canonical", and the scheme's parts as it reads them.
func TestParseShowsPartsAsWritten(t *testing.T) {
	for raw, want := range map[string]map[string]any{
		"news:<abc@def>": {"url": "news:<abc@def>", "canonical": "news:abc@def", "host": nil, "port": nil,
			"news": map[string]any{"group": nil, "message_id": "abc@def", "all": false}},
		"gopher://host:70/1": {"url": "gopher://host:70/1", "canonical": "gopher://host/", "host": "host", "port": float64(70),
			"gopher": map[string]any{"type": "1", "selector": "", "search": nil, "plus": nil}},
		"gopher://host/1": {"canonical": "gopher://host/", "port": nil},
		"file://localhost/x#%7e": {"url": "file://localhost/x#%7e", "canonical": "file:///x#%7E", "host": "localhost", "fragment": "%7e",
			"file": map[string]any{"path": "/x"}},
		"<URL:HTTP://H:8080/%41%2f?q=%41&r#>": {"url": "HTTP://H:8080/%41%2f?q=%41&r#", "canonical": "http://h:8080/A%2F?q=%41&r",
			"scheme": "HTTP", "host": "H", "port": float64(8080), "fragment": "",
			"http": map[string]any{"path": "/A%2F", "search": "q=%41&r"}},
		"ftp://u:p%40ss@[2001:DB8::1]:2121/f": {"canonical": "ftp://u:p%40ss@[2001:db8::1]:2121/f", "user": "u", "password": "p@ss",
			"host": "2001:DB8::1", "port": float64(2121)},
	} {
		got, code := parsed(t, raw)
		if code != 0 {
			t.Fatalf("parse %q: exit %d", raw, code)
		}
		for k, v := range want {
			gs, _ := json.Marshal(got[k])
			ws, _ := json.Marshal(v)
			if string(gs) != string(ws) {
				t.Errorf("parse %q: %s = %s, want %s", raw, k, gs, ws)
			}
		}
	}
}

// FuzzCanonParseSameAgree: for any text, the commands and the library
// agree on the canonical form.
func FuzzCanonParseSameAgree(f *testing.F) {
	for _, ex := range schemestest.Examples {
		f.Add(ex.Raw)
	}
	for _, p := range schemestest.Pairs {
		f.Add(p.A)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if strings.HasPrefix(raw, "-") {
			return // a flag, not a URL
		}
		if checkAgree(t, raw); t.Failed() {
			t.FailNow()
		}
	})
}

// urlKey is the field of `urlget parse` that holds the canonical URL.
const urlKey = "canonical"
