package gopher

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
	raw          string
	typ          byte
	sel          string
	search, plus *string
	str          string
	errPart      string // non-empty: Parse must fail with KindUsage and this Part
}

// tests cover RFC 1738 §3.4 (every Gopher+ form of §3.4.3-§3.4.9), the URI
// draft's example and the request table of gopher-notes.md. str is what
// String must give; "" means the input itself.
var tests = []test{
	// §3.4.1: empty gopher-path, with or without "/", is type 1, selector "".
	{raw: "gopher://h", typ: '1', str: "gopher://h/"},
	{raw: "gopher://h/", typ: '1'},
	{raw: "gopher://h/1", typ: '1', str: "gopher://h/"},
	{raw: "gopher://host:70/1", typ: '1', str: "gopher://host/"},
	{raw: "GOPHER://Host:70", typ: '1', str: "gopher://host/"},
	{raw: "gopher://h/%31", typ: '1', str: "gopher://h/"},
	{raw: "gophers://h:7070/0x", typ: '0', sel: "x", str: "gophers://h/0x"},
	{raw: "gophers://h:70/0x", typ: '0', sel: "x"},
	{raw: "gopher://h:7070/1", typ: '1', str: "gopher://h:7070/"},
	{raw: "gopher://h/11", typ: '1', sel: "1"},
	{raw: "gopher://h/00/about.txt", typ: '0', sel: "0/about.txt"},
	// The URI draft's references.
	{raw: "gopher://boombox.micro.umn.edu/11/gopher/", typ: '1', sel: "1/gopher/"},
	{raw: "gopher://h/0/text/lf.txt", typ: '0', sel: "/text/lf.txt"},
	// The URI draft's reference (typed with spaces, as printed).
	{raw: "<gopher://gopher.micro.umn.edu/00/Information About Gopher/About Gopher>", typ: '0',
		sel: "0/Information About Gopher/About Gopher",
		str: "gopher://gopher.micro.umn.edu/00/Information%20About%20Gopher/About%20Gopher"},
	// No character is reserved: "/", "?", ";", "=", "&", ":" and "@" are data.
	{raw: "gopher://h/0/a?b;c=d&e:f@g", typ: '0', sel: "/a?b;c=d&e:f@g"},
	{raw: "gopher://h/0%2Fa%3Fb", typ: '0', sel: "/a?b", str: "gopher://h/0/a?b"},
	{raw: "gopher://h/0a%23b%25c", typ: '0', sel: "a#b%c"},
	{raw: "gopher://h/0a%0D%0Ab", typ: '0', sel: "a\r\nb"},
	{raw: "gopher://h/0x#frag", typ: '0', sel: "x"},
	{raw: "gopher://h/0x#", typ: '0', sel: "x", str: "gopher://h/0x"},
	{raw: "gopher://h/0%7e%41#%7e", typ: '0', sel: "~A", str: "gopher://h/0%7EA#%7E"},
	{raw: "gopher://h/%30foo", typ: '0', sel: "foo", str: "gopher://h/0foo"},
	{raw: "gopher://h/%25foo", typ: '%', sel: "foo"},
	{raw: "gopher://h/hURL:http://127.0.0.1:8080/", typ: 'h', sel: "URL:http://127.0.0.1:8080/"},
	// §3.4.2: search.
	{raw: "gopher://h/7/cgi-bin/search%09dot", typ: '7', sel: "/cgi-bin/search", search: ptr("dot")},
	{raw: "gopher://h/7/s%09two%20words", typ: '7', sel: "/s", search: ptr("two words")},
	{raw: "gopher://h/7/s%09", typ: '7', sel: "/s", search: ptr("")},
	{raw: "gopher://h/7%09x", typ: '7', search: ptr("x")},
	// §3.4.3-§3.4.8: Gopher+ strings, with empty and non-empty search.
	{raw: "gopher://h/1sel%09%09+", typ: '1', sel: "sel", search: ptr(""), plus: ptr("+")},
	{raw: "gopher://h/0/about.txt%09%09+", typ: '0', sel: "/about.txt", search: ptr(""), plus: ptr("+")},
	{raw: "gopher://h/7/s%09words%09+", typ: '7', sel: "/s", search: ptr("words"), plus: ptr("+")},
	{raw: "gopher://h/0/d%09%09?", typ: '0', sel: "/d", search: ptr(""), plus: ptr("?")},
	{raw: "gopher://h/0/d%09%09+application/postscript%20Es_ES", typ: '0', sel: "/d", search: ptr(""),
		plus: ptr("+application/postscript Es_ES")},
	{raw: "gopher://h/0/d%09%09!", typ: '0', sel: "/d", search: ptr(""), plus: ptr("!")},
	{raw: "gopher://h/0/d%09%09!+ABSTRACT", typ: '0', sel: "/d", search: ptr(""), plus: ptr("!+ABSTRACT")},
	{raw: "gopher://h/0/d%09%09!+ABSTRACT%20+SMELL", typ: '0', sel: "/d", search: ptr(""), plus: ptr("!+ABSTRACT +SMELL")},
	{raw: "gopher://h/1/docs%09%09$", typ: '1', sel: "/docs", search: ptr(""), plus: ptr("$")},
	{raw: "gopher://h/1/docs%09%09$+INFO", typ: '1', sel: "/docs", search: ptr(""), plus: ptr("$+INFO")},
	{raw: "gopher://h/1sel%09%09", typ: '1', sel: "sel", search: ptr(""), plus: ptr("")},
	// §3.4.9: a filled-in form; the Gopher+ string holds TABs of its own.
	{raw: "gopher://host.com/1sel%09%09+%091%0D%0A+-1%0D%0Aval1%0D%0Aval2%0D%0A.%0D%0A", typ: '1', sel: "sel",
		search: ptr(""), plus: ptr("+\t1\r\n+-1\r\nval1\r\nval2\r\n.\r\n")},
	{raw: "gopher://h/0/form.txt%09%09+%091%0D%0A+-1%0D%0AAlice%0D%0A.%0D%0A", typ: '0', sel: "/form.txt",
		search: ptr(""), plus: ptr("+\t1\r\n+-1\r\nAlice\r\n.\r\n")},
	{raw: "gopher://h/0s%09%09a%09b%09c", typ: '0', sel: "s", search: ptr(""), plus: ptr("a\tb\tc")},
	// TLS and addresses.
	{raw: "gophers://h/0/x", typ: '0', sel: "/x"},
	{raw: "gopher://[::1]:7070/1/sub", typ: '1', sel: "/sub"},
	// Errors.
	{raw: "gopher:///0x", errPart: "host"},
	{raw: "gopher:h/0x", errPart: "host"},
	{raw: "gopher://u@h/0x", errPart: "user"},
	{raw: "gopher://u:p@h/", errPart: "user"},
	{raw: "gopher://h/%09x", errPart: "type"},
	{raw: "gopher://h/%FFx", errPart: "type"},
	{raw: "gopher://h/%20x", errPart: "type"},
	{raw: "gopher://h/ x", errPart: "type"},
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
	}, func(t *testing.T, tt test, g, _ *URL) {
		if g.Type != tt.typ || g.Selector != tt.sel || !reflect.DeepEqual(g.Search, tt.search) ||
			!reflect.DeepEqual(g.Plus, tt.plus) {
			t.Errorf("got %+v, want type %q selector %q search %v plus %v",
				g.Fields(), tt.typ, tt.sel, deref(tt.search), deref(tt.plus))
		}
	})
}

func deref(p *string) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestFieldsJSON(t *testing.T) {
	for raw, want := range map[string]string{
		"gopher://h":                  `{"type":"1","selector":"","search":null,"plus":null}`,
		"gopher://h/7/s%09a%20b":      `{"type":"7","selector":"/s","search":"a b","plus":null}`,
		"gopher://h/1sel%09%09+":      `{"type":"1","selector":"sel","search":"","plus":"+"}`,
		"gopher://h/0x%09%09!%09y%0D": `{"type":"0","selector":"x","search":"","plus":"!\ty\r"}`,
	} {
		g, err := parse(t, raw)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(g.Fields())
		if err != nil || string(b) != want {
			t.Errorf("%s: JSON %s (%v), want %s", raw, b, err, want)
		}
	}
}

// A Gopher+ string without a search (built, not parsed) is written with
// the empty search §3.4.3 requires, and so reads back with Search "".
func TestPlusWithoutSearch(t *testing.T) {
	g, err := parse(t, "gopher://h/0x")
	if err != nil {
		t.Fatal(err)
	}
	g.Plus = ptr("!")
	if got, want := g.String(), "gopher://h/0x%09%09!"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func TestSchemes(t *testing.T) {
	r := schemes.NewRegistry()
	for _, s := range Schemes(nil) {
		r.Register(s)
	}
	for raw, port := range map[string]int{"gopher://h/": 70, "gophers://h/": schemes.PortOf(declared, "gophers")} {
		loc, err := r.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		if p := loc.Generic().EffectivePort(); p != port {
			t.Errorf("%s: port %d, want %d", raw, p, port)
		}
	}
	u, _ := schemes.Parse("ftp://h/")
	if _, err := Parse(u); schemes.KindOf(err) != schemes.KindUsage {
		t.Errorf("Parse(ftp URL) err = %v, want KindUsage", err)
	}
}
