package wais

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
)

func ptr(s string) *string { return &s }

// A freeWAIS-sf hit URL from wais-notes.md §7: the wpath holds literal "/"
// and ";" between records, and escapes inside values.
const hit = "wais://127.0.0.1:2210/demo/TEXT/107/1=vm%3A2210;2=/var/lib/waisdb/index/demo;" +
	"3=0%20107%20/var/lib/waisdb/corpus/orchard.txt;4=vm%3A2210;5=/var/lib/waisdb/index/demo;" +
	"6=0%20107%20/var/lib/waisdb/corpus/orchard.txt;7=%00;"

// test is a row of tests.
type test struct {
	raw                  string
	db                   string
	search, wtype, wpath *string
	str                  string
	errPart              string // non-empty: Parse must fail with KindUsage and this Part
}

// tests cover the three forms of RFC 1738 §3.9, the URI draft's example
// and the conventions of wais-notes.md. str is what String must give; ""
// means the input itself.
var tests = []test{
	{raw: "wais://quake.think.com/wais-discussion-archives?lynch", db: "wais-discussion-archives", search: ptr("lynch")},
	{raw: "wais://h/db", db: "db"},
	{raw: "wais://h:2210/db", db: "db"},
	{raw: "wais://h/db?", db: "db", search: ptr("")},
	{raw: "wais://h/db?apple+pie", db: "db", search: ptr("apple pie")},
	{raw: "wais://h/db?apple%20pie", db: "db", search: ptr("apple pie"), str: "wais://h/db?apple+pie"},
	{raw: "wais://h/db?c%2B%2B", db: "db", search: ptr("c++")},
	{raw: "wais://h/db?a=b&c;d:e@f", db: "db", search: ptr("a=b&c;d:e@f")},
	{raw: "wais://h/db?a/b?c", db: "db", search: ptr("a/b?c"), str: "wais://h/db?a%2Fb%3Fc"},
	{raw: "wais://h/my%20db?x", db: "my db", search: ptr("x")},
	{raw: "wais://h/a%2Fb%3Fc", db: "a/b?c"},
	{raw: "wais://h/db/TEXT/107/doc", db: "db", wtype: ptr("TEXT"), wpath: ptr("107/doc")},
	{raw: "wais://h/db/TEXT,HTML/12/doc", db: "db", wtype: ptr("TEXT,HTML"), wpath: ptr("12/doc")},
	{raw: "wais://h/db/TEXT/x?y", db: "db", wtype: ptr("TEXT"), wpath: ptr("x?y")},
	{raw: "wais://h/db/WSRC/0/1=a%3Bb;", db: "db", wtype: ptr("WSRC"), wpath: ptr("0/1=a;b;")},
	{raw: "wais://h/db/T%2FX/p", db: "db", wtype: ptr("T/X"), wpath: ptr("p")},
	{raw: hit, db: "demo", wtype: ptr("TEXT"), wpath: ptr("107/1=vm:2210;2=/var/lib/waisdb/index/demo;" +
		"3=0 107 /var/lib/waisdb/corpus/orchard.txt;4=vm:2210;5=/var/lib/waisdb/index/demo;" +
		"6=0 107 /var/lib/waisdb/corpus/orchard.txt;7=\x00;")},
	{raw: "WAIS://H/db#frag", db: "db", str: "wais://h/db#frag"},
	{raw: "wais://[::1]/db", db: "db"},
	// Errors.
	{raw: "wais://h", errPart: "database"},
	{raw: "wais://h/", errPart: "database"},
	{raw: "wais://h/?x", errPart: "database"},
	{raw: "wais://h//TEXT/x", errPart: "database"},
	{raw: "wais://h/db/", errPart: "wtype"},
	{raw: "wais://h/db//x", errPart: "wtype"},
	{raw: "wais://h/db/TEXT", errPart: "wpath"},
	{raw: "wais://h/db/TEXT/", errPart: "wpath"},
	{raw: "wais:///db", errPart: "host"},
	{raw: "wais:db", errPart: "host"},
	{raw: "wais://u@h/db", errPart: "user"},
}

// parse runs the generic parser and this package's, failing t if the
// generic one rejects raw: error rows must fail in this package's Parse.
func parse(t testing.TB, raw string) (*URL, error) {
	t.Helper()
	return schemestest.Parse(t, raw, Parse)
}

func TestParse(t *testing.T) {
	schemestest.GoldenTable(t, Parse, tests, func(tt test) schemestest.Golden {
		return schemestest.Golden{Raw: tt.raw, Str: tt.str, ErrPart: tt.errPart}
	}, func(t *testing.T, tt test, w, again *URL) {
		want := fields{Database: tt.db, Search: tt.search, WType: tt.wtype, WPath: tt.wpath}
		if got := w.Fields(); !reflect.DeepEqual(got, want) {
			t.Errorf("fields %s, want %s", js(got), js(want))
		}
		// The escaped wpath is compared too: its escapes carry the
		// DocID's structure, which the decoded WPath in Fields() loses.
		if again != nil && again.EscapedWPath() != w.EscapedWPath() {
			t.Errorf("round trip via %q: wpath %q → %q", w.String(), w.EscapedWPath(), again.EscapedWPath())
		}
	})
}

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestFieldsJSON(t *testing.T) {
	for raw, want := range map[string]string{
		"wais://h/db":          `{"database":"db","search":null,"wtype":null,"wpath":null}`,
		"wais://h/db?a+b":      `{"database":"db","search":"a b","wtype":null,"wpath":null}`,
		"wais://h/db/TEXT/1/x": `{"database":"db","search":null,"wtype":"TEXT","wpath":"1/x"}`,
	} {
		w, err := parse(t, raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := js(w.Fields()); got != want {
			t.Errorf("%s: JSON %s, want %s", raw, got, want)
		}
	}
}

func TestEscapedWPath(t *testing.T) {
	w, err := parse(t, "wais://h/db/TEXT/5/1=a%3Bb;2=c;")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := w.EscapedWPath(), "5/1=a%3Bb;2=c;"; got != want {
		t.Errorf("EscapedWPath() = %q, want %q", got, want)
	}
	w.WPath = ptr("9/x y")
	if got, want := w.EscapedWPath(), "9/x%20y"; got != want {
		t.Errorf("after change: EscapedWPath() = %q, want %q", got, want)
	}
	if got, want := w.String(), "wais://h/db/TEXT/9/x%20y"; got != want {
		t.Errorf("after change: String() = %q, want %q", got, want)
	}
	w, _ = parse(t, "wais://h/db")
	if w.EscapedWPath() != "" {
		t.Errorf("database URL: EscapedWPath() = %q", w.EscapedWPath())
	}
}

func TestErrorMessage(t *testing.T) {
	_, err := parse(t, "wais://h/db/TEXT")
	want := "wais://h/db/TEXT: missing wpath (want /database, /database?search or /database/wtype/wpath)"
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %s", err, want)
	}
}

func TestSchemes(t *testing.T) {
	r := schemes.NewRegistry()
	for _, s := range Schemes(nil) {
		r.Register(s)
	}
	loc, err := r.Parse("wais://h/db?x")
	if err != nil {
		t.Fatal(err)
	}
	if p := loc.Generic().EffectivePort(); p != 210 {
		t.Errorf("port %d, want 210", p)
	}
	u, _ := schemes.Parse("gopher://h/")
	if _, err := Parse(u); schemes.KindOf(err) != schemes.KindUsage {
		t.Errorf("Parse(gopher URL) err = %v, want KindUsage", err)
	}
}
