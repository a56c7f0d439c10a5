package z3950

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
)

func ptr(s string) *string { return &s }

// test is a row of tests.
type test struct {
	raw       string
	retrieval bool
	dbs       []string
	docid     *string
	esn       *string
	rs        []string
	str       string
	errPart   string // non-empty: Parse must fail with KindUsage and this Part
}

// tests cover RFC 2056's two forms and its three examples, verbatim (the
// first three rows; testdata/rfc2056-notes.md). A Session URL's docid is
// read as a Retrieval URL's (§3): one term, "+" a plus. str is what
// String must give (the round trip); "" means the input itself.
var tests = []test{
	{raw: "z39.50r://cnidr.org:2100/tmf?bkirch_rules__a1;esn=f;rs=marc", retrieval: true, dbs: []string{"tmf"},
		docid: ptr("bkirch_rules__a1"), esn: ptr("f"), rs: []string{"marc"}},
	{raw: "z39.50s://melvyl.ucop.edu/cat", dbs: []string{"cat"}},
	{raw: "z39.50r://melvyl.ucop.edu/mags?elecworld.v30.n19", retrieval: true, dbs: []string{"mags"}, docid: ptr("elecworld.v30.n19")},
	{raw: "z39.50s://cnidr.org:2100/tmf", dbs: []string{"tmf"}},
	{raw: "z39.50s://h"},
	{raw: "z39.50s://h/", str: "z39.50s://h/"},
	{raw: "z39.50s://h:210/db", dbs: []string{"db"}, str: "z39.50s://h/db"},
	{raw: "z39.50s://h/a+b+c", dbs: []string{"a", "b", "c"}},
	{raw: "z39.50s://h/a%2Bb", dbs: []string{"a+b"}},
	{raw: "z39.50s://h/db?computer", dbs: []string{"db"}, docid: ptr("computer")},
	{raw: "z39.50s://h/db?a+b", dbs: []string{"db"}, docid: ptr("a+b")},
	{raw: "z39.50s://h/db?a%20b", dbs: []string{"db"}, docid: ptr("a b")},
	{raw: "z39.50s://h/db?c%2B%2B", dbs: []string{"db"}, docid: ptr("c++"), str: "z39.50s://h/db?c++"},
	{raw: "z39.50s://h/db?a%3Bb", dbs: []string{"db"}, docid: ptr("a;b")},
	{raw: "z39.50s://h/db+db2?x;esn=B;rs=usmarc+sutrs", dbs: []string{"db", "db2"}, docid: ptr("x"), esn: ptr("B"), rs: []string{"usmarc", "sutrs"}},
	{raw: "z39.50s://h/;esn=F", esn: ptr("F")},
	{raw: "z39.50s://h/db;rs=XML;esn=F", dbs: []string{"db"}, esn: ptr("F"), rs: []string{"xml"}, str: "z39.50s://h/db;esn=F;rs=xml"},
	{raw: "z39.50s://h/db;rs=1.2.840.10003.5.10", dbs: []string{"db"}, rs: []string{"1.2.840.10003.5.10"}},
	{raw: "z39.50r://h/db?a+b", retrieval: true, dbs: []string{"db"}, docid: ptr("a+b")},
	{raw: "z39.50r://h/db?a%3Bb", retrieval: true, dbs: []string{"db"}, docid: ptr("a;b")},
	{raw: "z39.50r://h/db?73090924%20%2F%2Fr82", retrieval: true, dbs: []string{"db"}, docid: ptr("73090924 //r82")},
	{raw: "Z39.50R://H/db?1#f", retrieval: true, dbs: []string{"db"}, docid: ptr("1"), str: "z39.50r://h/db?1#f"},
	// Errors.
	{raw: "z39.50s:///db", errPart: "host"},
	{raw: "z39.50s:db", errPart: "host"},
	{raw: "z39.50s://u@h/db", errPart: "user"},
	{raw: "z39.50s://h/?x", errPart: "database"},
	{raw: "z39.50s://h/a++b", errPart: "database"},
	{raw: "z39.50s://h/db;esn=", errPart: "esn"},
	{raw: "z39.50s://h/db;esn=a;esn=b", errPart: "esn"},
	{raw: "z39.50s://h/db;rs=nosuch", errPart: "rs"},
	{raw: "z39.50s://h/db;rs=usmarc;rs=sutrs", errPart: "rs"},
	{raw: "z39.50s://h/db;rs=1.99", errPart: "rs"},
	{raw: "z39.50s://h/db;foo=1", errPart: "url"},
	{raw: "z39.50s://h/db;", errPart: "url"},
	{raw: "z39.50r://h", errPart: "database"},
	{raw: "z39.50r://h/db", errPart: "docid"},
	{raw: "z39.50r://h/db?", errPart: "docid"},
	{raw: "z39.50r://h/a+b?x", errPart: "database"},
	{raw: "z39.50r://h/db?x;rs=usmarc+sutrs", errPart: "rs"},
}

func parse(t testing.TB, raw string) (*URL, error) {
	t.Helper()
	return schemestest.Parse(t, raw, Parse)
}

func TestParse(t *testing.T) {
	schemestest.GoldenTable(t, Parse, tests, func(tt test) schemestest.Golden {
		return schemestest.Golden{Raw: tt.raw, Str: tt.str, ErrPart: tt.errPart}
	}, func(t *testing.T, tt test, z, _ *URL) {
		want := fields{Retrieval: tt.retrieval, Databases: tt.dbs, DocID: tt.docid, ESN: tt.esn, RecordSyntaxes: tt.rs}
		if got := z.Fields(); !reflect.DeepEqual(got, want) {
			t.Errorf("fields %s, want %s", js(got), js(want))
		}
	})
}

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestWords(t *testing.T) {
	for raw, want := range map[string][]string{
		"z39.50s://h/db?a+b++c":  {"a+b++c"},
		"z39.50s://h/db?a%20b":   {"a b"},
		"z39.50s://h/db":         nil,
		"z39.50s://h/db?":        nil,
		"z39.50r://h/db?a+b%20c": {"a+b c"},
	} {
		z, err := parse(t, raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := z.Words(); len(got) != len(want) || (len(want) > 0 && !reflect.DeepEqual(got, want)) {
			t.Errorf("%s: Words() = %q, want %q", raw, got, want)
		}
	}
}

func TestWithSearch(t *testing.T) {
	for raw, want := range map[string]string{
		"z39.50s://h/db":                 "z39.50s://h/db?apple%20pie%3B",
		"z39.50s://h":                    "z39.50s://h/Default?apple%20pie%3B",
		"z39.50r://h:2100/db?x;rs=sutrs": "z39.50s://h:2100/db?apple%20pie%3B;rs=sutrs",
	} {
		z, err := parse(t, raw)
		if err != nil {
			t.Fatal(err)
		}
		s, err := z.WithSearch("apple pie;")
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if s.String() != want {
			t.Errorf("%s: WithSearch = %s, want %s", raw, s, want)
		}
		if w := s.(*URL).Words(); !reflect.DeepEqual(w, []string{"apple pie;"}) {
			t.Errorf("%s: words %q", raw, w)
		}
	}
}

func TestLocalName(t *testing.T) {
	schemestest.LocalNames(t, Parse, map[string]string{
		"z39.50r://h/db?rec%2F1": "1",
		"z39.50s://h/cat+b?x":    "cat",
		"z39.50s://h":            "",
	})
}

func TestSchemes(t *testing.T) {
	r := schemes.NewRegistry()
	for _, s := range Schemes(nil) {
		r.Register(s)
	}
	for _, raw := range []string{"z39.50s://h/db?x", "z39.50r://h/db?x"} {
		loc, err := r.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		if p := loc.Generic().EffectivePort(); p != DefaultPort {
			t.Errorf("%s: port %d, want %d", raw, p, DefaultPort)
		}
	}
	u, _ := schemes.Parse("wais://h/db")
	if _, err := Parse(u); schemes.KindOf(err) != schemes.KindUsage {
		t.Errorf("Parse(wais URL) err = %v, want KindUsage", err)
	}
}
