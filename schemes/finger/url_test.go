package finger

import (
	"reflect"
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
)

// test is a row of tests.
type test struct {
	raw     string
	user    string
	verbose bool
	forward []string
	query   string
	str     string
	errPart string
}

// tests is the parser's golden table: what each URL reads as, the query
// line it sends, and its canonical form (str; "" means the input itself),
// which the round trip parses again. errPart non-empty: Parse fails with
// KindUsage naming that part.
var tests = []test{
	// RFC 1288 §2.5.2: no user lists the users.
	{raw: "finger://h", query: "\r\n", str: "finger://h/"},
	{raw: "finger://h/", query: "\r\n"},
	{raw: "finger://h:79/plan", user: "plan", query: "plan\r\n", str: "finger://h/plan"},
	{raw: "FINGER://H:7979/plan", user: "plan", query: "plan\r\n", str: "finger://h:7979/plan"},
	{raw: "finger://h/plan#x", user: "plan", query: "plan\r\n"},
	// The long form: lynx's w/ and W/, and RFC 1288's "/W" written whole.
	{raw: "finger://h/w/plan", user: "plan", verbose: true, query: "/W plan\r\n", str: "finger://h/W/plan"},
	{raw: "finger://h/W/plan", user: "plan", verbose: true, query: "/W plan\r\n"},
	{raw: "finger://h/W/", verbose: true, query: "/W\r\n"},
	{raw: "finger://h/%2FW%20plan", user: "plan", verbose: true, query: "/W plan\r\n", str: "finger://h/W/plan"},
	{raw: "finger://h/%2FW%20%20plan", user: "plan", verbose: true, query: "/W plan\r\n", str: "finger://h/W/plan"},
	{raw: "finger://h/%2FW", verbose: true, query: "/W\r\n", str: "finger://h/W/"},
	{raw: "finger://h/w", user: "w", query: "w\r\n"},
	{raw: "finger://h/W", user: "W", query: "W\r\n"},
	// Printable ASCII is data, escaped or not.
	{raw: "finger://h/a.b-c_d", user: "a.b-c_d", query: "a.b-c_d\r\n"},
	{raw: "finger://h/%61", user: "a", query: "a\r\n", str: "finger://h/a"},
	{raw: "finger://h/a%3Fb", user: "a?b", query: "a?b\r\n"},
	{raw: "finger://h/a%3Bb", user: "a;b", query: "a;b\r\n"},
	// {H}: forwarding, which the parser reads and the handler polices.
	{raw: "finger://h/plan@h2", user: "plan", forward: []string{"h2"}, query: "plan@h2\r\n"},
	{raw: "finger://h/plan%40h2@h3", user: "plan", forward: []string{"h2", "h3"}, query: "plan@h2@h3\r\n", str: "finger://h/plan@h2@h3"},
	{raw: "finger://h/@h2", forward: []string{"h2"}, query: "@h2\r\n"},
	{raw: "finger://h/W/plan@h2", user: "plan", verbose: true, forward: []string{"h2"}, query: "/W plan@h2\r\n"},
	// Nothing may make a second token, a second line or a /W of its own.
	{raw: "finger://h/plan%0D%0Aroot", errPart: "user"},
	{raw: "finger://h/plan%0Aroot", errPart: "user"},
	{raw: "finger://h/plan%09x", errPart: "user"},
	{raw: "finger://h/plan%00", errPart: "user"},
	{raw: "finger://h/two%20words", errPart: "user"},
	{raw: "finger://h/%C3%A9", errPart: "user"},
	{raw: "finger://h/%7F", errPart: "user"},
	{raw: "finger://h/a/b", errPart: "user"},
	{raw: "finger://h/%2FWplan", errPart: "user"},
	{raw: "finger://h/W/W/plan", errPart: "user"},
	{raw: "finger://h/plan@", errPart: "forward"},
	{raw: "finger://h/plan@@h3", errPart: "forward"},
	{raw: "finger://h/plan@h2%0D%0A", errPart: "forward"},
	{raw: "finger://h/plan@h%20x", errPart: "forward"},
	// The authority names the host alone.
	{raw: "finger://plan@h/", errPart: "user"},
	{raw: "finger:plan", errPart: "host"},
	{raw: "finger:///plan", errPart: "host"},
}

var parseFinger = schemestest.Parser(Parse)

func TestParse(t *testing.T) {
	schemestest.GoldenTable(t, Parse, tests, func(tt test) schemestest.Golden {
		return schemestest.Golden{Raw: tt.raw, Str: tt.str, ErrPart: tt.errPart}
	}, func(t *testing.T, tt test, f, _ *URL) {
		if f.User != tt.user || f.Verbose != tt.verbose || !reflect.DeepEqual(f.Forward, tt.forward) {
			t.Errorf("got user %q verbose %v forward %q, want %q %v %q", f.User, f.Verbose, f.Forward, tt.user, tt.verbose, tt.forward)
		}
		if q := f.Query(); q != tt.query {
			t.Errorf("Query() = %q, want %q", q, tt.query)
		}
	})
}

func TestParseOtherScheme(t *testing.T) {
	u, err := schemes.Parse("gopher://h/0x")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Parse(u)
	schemestest.UsageError(t, err, "scheme")
}

// TestDefaultPort: Parse gives each URL finger's declared port.
func TestDefaultPort(t *testing.T) {
	f, err := parseFinger("finger://h/plan")
	if err != nil {
		t.Fatal(err)
	}
	if p := f.Generic().EffectivePort(); p != DefaultPort {
		t.Errorf("EffectivePort = %d, want %d", p, DefaultPort)
	}
}

func TestLocalName(t *testing.T) {
	schemestest.LocalNames(t, Parse, map[string]string{
		"finger://h/plan":    "plan",
		"finger://h/W/plan":  "plan",
		"finger://h/":        "",
		"finger://h/plan@h2": "plan",
		"finger://h/..":      "",
	})
}

// FuzzParseFinger: whatever parses round-trips, and no query line it
// makes has more than its one CRLF or a TAB.
func FuzzParseFinger(f *testing.F) {
	for _, tt := range tests {
		f.Add(tt.raw)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		x, _, ok := schemestest.FuzzRoundTrip(t, raw, parseFinger)
		if !ok {
			return
		}
		q := x.Query()
		for i := 0; i < len(q)-2; i++ {
			if c := q[i]; c < ' ' || c >= 0x7F {
				t.Fatalf("query %q of %q holds byte %#x", q, raw, c)
			}
		}
	})
}
