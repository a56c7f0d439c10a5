package gemini

import (
	"strings"
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
)

var parse = schemestest.Parser(Parse)

// urlTests are the parser's table: each URL, its canonical form (the
// round-trip column: it parses back to the same value), its request
// line, or the part at fault.
var urlTests = []struct {
	raw, canon, request, bad string
}{
	{raw: "gemini://example.org", canon: "gemini://example.org/", request: "gemini://example.org/"},
	{raw: "gemini://example.org/", canon: "gemini://example.org/", request: "gemini://example.org/"},
	{raw: "gemini://EXAMPLE.org:1965/a/b.gmi", canon: "gemini://example.org/a/b.gmi", request: "gemini://example.org/a/b.gmi"},
	{raw: "gemini://h:1966/x?", canon: "gemini://h:1966/x?", request: "gemini://h:1966/x?"},
	{raw: "gemini://h/search?two%20words", canon: "gemini://h/search?two%20words", request: "gemini://h/search?two%20words"},
	{raw: "gemini://h/p#frag", canon: "gemini://h/p#frag", request: "gemini://h/p"},
	{raw: "gemini://h/%0D%0A", canon: "gemini://h/%0D%0A", request: "gemini://h/%0D%0A"},
	{raw: "gemini://[::1]/x", canon: "gemini://[::1]/x", request: "gemini://[::1]/x"},
	{raw: "gemini:///x", bad: "host"},
	{raw: "gemini:x", bad: "host"},
	{raw: "gemini://u@h/", bad: "user"},
	{raw: "gemini://u:p@h/", bad: "user"},
}

func TestParse(t *testing.T) {
	for _, tt := range urlTests {
		g, err := schemestest.Parse(t, tt.raw, Parse)
		if tt.bad != "" {
			schemestest.UsageError(t, err, tt.bad)
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.raw, err)
			continue
		}
		if s := g.String(); s != tt.canon {
			t.Errorf("%s: String %q, want %q", tt.raw, s, tt.canon)
		}
		schemestest.RoundTrip(t, g, parse)
		line, err := g.RequestLine()
		if err != nil || line != tt.request+"\r\n" {
			t.Errorf("%s: request line %q %v, want %q", tt.raw, line, err, tt.request+"\r\n")
		}
	}
}

// TestRequestLineBounded refuses a URL longer than a request may be.
func TestRequestLineBounded(t *testing.T) {
	long := "gemini://h/" + string(make([]byte, 0))
	for len(long) <= maxRequest {
		long += "a"
	}
	g, err := parse(long)
	if err != nil {
		t.Fatal(err)
	}
	_, err = g.RequestLine()
	schemestest.UsageError(t, err, "path")
}

// TestRawControlNeverSent: a space, TAB, CR or LF typed in a URL never
// reaches the server as one: the URL is refused or the byte written %XX,
// so the request line is one line, the URL's.
func TestRawControlNeverSent(t *testing.T) {
	for _, raw := range []string{"gemini://h/a b", "gemini://h/a\tb", "gemini://h/a\r\nb", "gemini://h/?x\ny"} {
		g, err := parse(raw)
		if err != nil {
			continue
		}
		line, err := g.RequestLine()
		if err != nil {
			continue
		}
		if i := strings.IndexFunc(strings.TrimSuffix(line, "\r\n"), func(r rune) bool { return r <= ' ' || r == 0x7f }); i >= 0 {
			t.Errorf("%q: request line %q holds a raw control byte", raw, line)
		}
	}
}

func TestWithSearch(t *testing.T) {
	g, _ := parse("gemini://h/find#x")
	loc, err := g.WithSearch("a b+c&d/é")
	if err != nil || loc.String() != "gemini://h/find?a%20b%2Bc%26d%2F%C3%A9" {
		t.Errorf("%v %v", loc, err)
	}
}

func TestLocalNames(t *testing.T) {
	schemestest.LocalNames(t, Parse, map[string]string{
		"gemini://h/":            "",
		"gemini://h/a/b%20c.gmi": "b c.gmi",
		"gemini://h/dir/":        "",
		"gemini://h/x.txt?q":     "x.txt",
	})
}

func FuzzParse(f *testing.F) {
	for _, tt := range urlTests {
		f.Add(tt.raw)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		x, _, ok := schemestest.FuzzRoundTrip(t, raw, parse)
		if ok {
			if line, err := x.RequestLine(); err == nil && len(line) > maxRequest+2 {
				t.Fatalf("%q: request line of %d bytes", raw, len(line))
			}
		}
	})
}
