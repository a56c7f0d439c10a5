package ftp

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
	raw        string
	cwd        []string
	name       string
	typ        string
	user, pass *string
	str        string
	errPart    string // non-empty: Parse must fail with KindUsage and this Part
}

// tests are every ftp URL of RFC 1738 and of the 1994 URI draft (the
// mangled reference links restored to their hosts), plus edge cases.
// str is what String must give; "" means the input itself.
var tests = []test{
	// RFC 1738 §3.1: user and password, absent ≠ empty.
	{raw: "ftp://@host.com/", cwd: []string{}, user: ptr("")},
	{raw: "ftp://host.com/", cwd: []string{}},
	{raw: "ftp://foo:@host.com/", cwd: []string{}, user: ptr("foo"), pass: ptr("")},
	// RFC 1738 §3.2.2.
	{raw: "ftp://myname@host.dom/%2Fetc/motd", cwd: []string{"/etc"}, name: "motd", user: ptr("myname")},
	{raw: "ftp://myname@host.dom/etc/motd", cwd: []string{"etc"}, name: "motd", user: ptr("myname")},
	{raw: "ftp://myname@host.dom//etc/motd", cwd: []string{"", "etc"}, name: "motd", user: ptr("myname")},
	// RFC 1738 §2.4 and the references.
	{raw: "<URL:ftp://info.cern.ch/pub/www/doc;type=d>", cwd: []string{"pub", "www"}, name: "doc", typ: "d",
		str: "ftp://info.cern.ch/pub/www/doc;type=d"},
	{raw: "ftp://ds.internic.net/rfc", cwd: []string{}, name: "rfc"},
	{raw: "ftp://ds.internic.net/rfc/rfc1436.txt;type=a", cwd: []string{"rfc"}, name: "rfc1436.txt", typ: "a"},
	{raw: "ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol/Gopher+/Gopher+.txt",
		cwd: []string{"pub", "gopher", "gopher_protocol", "Gopher+"}, name: "Gopher+.txt"},
	{raw: "ftp://ds.internic.net/rfc/rfc1630.txt", cwd: []string{"rfc"}, name: "rfc1630.txt"},
	{raw: "ftp://info.cern.ch/pub/www/doc/http-spec.txt.Z", cwd: []string{"pub", "www", "doc"}, name: "http-spec.txt.Z"},
	{raw: "ftp://ds.internic.net/rfc/rfc1123.txt", cwd: []string{"rfc"}, name: "rfc1123.txt"},
	{raw: "ftp://ds.internic.net/rfc/rfc822.txt", cwd: []string{"rfc"}, name: "rfc822.txt"},
	{raw: "ftp://quake.think.com/pub/wais/doc/protspec.txt", cwd: []string{"pub", "wais", "doc"}, name: "protspec.txt"},
	{raw: "ftp://ds.internic.net/rfc/rfc1036.txt", cwd: []string{"rfc"}, name: "rfc1036.txt"},
	{raw: "ftp://quake.think.com/pub/wais/doc/doc-ids.txt", cwd: []string{"pub", "wais", "doc"}, name: "doc-ids.txt"},
	{raw: "ftp://ds.internic.net/rfc/rfc977.txt", cwd: []string{"rfc"}, name: "rfc977.txt"},
	{raw: "ftp://ds.internic.net/internet-drafts/draft-ietf-uri-irl-fun-req-02.txt",
		cwd: []string{"internet-drafts"}, name: "draft-ietf-uri-irl-fun-req-02.txt"},
	{raw: "ftp://ds.internic.net/rfc/rfc1034.txt", cwd: []string{"rfc"}, name: "rfc1034.txt"},
	{raw: "ftp://prospero.isi.edu/pub/prospero/doc/prospero-protocol.PS.Z",
		cwd: []string{"pub", "prospero", "doc"}, name: "prospero-protocol.PS.Z"},
	{raw: "ftp://ds.internic.net/rfc/rfc959.txt", cwd: []string{"rfc"}, name: "rfc959.txt"},
	{raw: "ftp://ds.internic.net/rfc/rfc1737.txt", cwd: []string{"rfc"}, name: "rfc1737.txt"},
	{raw: "ftp://ds.internic.net/rfc/rfc1625.txt", cwd: []string{"rfc"}, name: "rfc1625.txt"},
	{raw: "ftp://uu.psi.com/wp/nir.txt", cwd: []string{"wp"}, name: "nir.txt"},
	// The URI draft's references.
	{raw: "ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol", cwd: []string{"pub", "gopher"}, name: "gopher_protocol"},
	{raw: "ftp://prospero.isi.edu/pub/prospero/oir.ps", cwd: []string{"pub", "prospero"}, name: "oir.ps"},
	// RFC 3986's example, and the brief's.
	{raw: "ftp://ftp.is.co.za/rfc/rfc1808.txt", cwd: []string{"rfc"}, name: "rfc1808.txt"},
	// No path, empty path, empty name.
	{raw: "ftp://host", cwd: []string{}, str: "ftp://host/"},
	{raw: "ftp://host/", cwd: []string{}},
	{raw: "ftp://h/pub/", cwd: []string{"pub"}},
	{raw: "ftp://h/pub/;type=d", cwd: []string{"pub"}, typ: "d"},
	{raw: "ftp://h/;type=d", cwd: []string{}, typ: "d"},
	{raw: "ftp://h/a//b/", cwd: []string{"a", "", "b"}},
	// Encoded reserved and unsafe characters in components.
	{raw: "ftp://h/dir%3Bx/file%3B1", cwd: []string{"dir;x"}, name: "file;1"},
	{raw: "ftp://h/a%23b", cwd: []string{}, name: "a#b"},
	{raw: "ftp://h/a%2fb/c", cwd: []string{"a/b"}, name: "c", str: "ftp://h/a%2Fb/c"},
	{raw: "ftp://h/x%3Btype=a", cwd: []string{}, name: "x;type=a"},
	{raw: "ftp://h/a%20b/%0D%0A", cwd: []string{"a b"}, name: "\r\n"},
	{raw: "ftp://h/q?x=1&y@z:w", cwd: []string{}, name: "q?x=1&y@z:w"},
	{raw: "ftp://h/a%3fb", cwd: []string{}, name: "a?b", str: "ftp://h/a?b"},
	{raw: "ftp://h/%7Euser/a b", cwd: []string{"~user"}, name: "a b", str: "ftp://h/%7Euser/a%20b"},
	{raw: "ftp://h/%41", cwd: []string{}, name: "A", str: "ftp://h/A"},
	// Typecode spellings.
	{raw: "ftp://h/f;type=I", cwd: []string{}, name: "f", typ: "i", str: "ftp://h/f;type=i"},
	{raw: "ftp://h/x;type=A", cwd: []string{}, name: "x", typ: "a", str: "ftp://h/x;type=a"},
	{raw: "ftp://h/f;TYPE=a", cwd: []string{}, name: "f", typ: "a", str: "ftp://h/f;type=a"},
	{raw: "ftp://h/f;type=%64", cwd: []string{}, name: "f", typ: "d", str: "ftp://h/f;type=d"},
	// Authority parts pass through.
	{raw: "ftp://u%40x:p%3Aw@h:2121/f", cwd: []string{}, name: "f", user: ptr("u@x"), pass: ptr("p:w")},
	{raw: "ftps://h/pub/f;type=i", cwd: []string{"pub"}, name: "f", typ: "i"},
	{raw: "ftp://[::1]:21/f", cwd: []string{}, name: "f", str: "ftp://[::1]/f"},
	{raw: "ftp://H:21", cwd: []string{}, str: "ftp://h/"},
	{raw: "ftps://h:990/f;type=A", cwd: []string{}, name: "f", typ: "a", str: "ftps://h/f;type=a"},
	{raw: "ftps://h:21/f", cwd: []string{}, name: "f"},
	{raw: "ftp://[0:0:0:0:0:0:0:1]:2121/f", cwd: []string{}, name: "f", str: "ftp://[::1]:2121/f"},
	{raw: "FTP://H.COM/f#frag", cwd: []string{}, name: "f", str: "ftp://h.com/f#frag"},
	{raw: "ftp://h/f#%7e%41", cwd: []string{}, name: "f", str: "ftp://h/f#%7EA"},
	{raw: "ftp://h/f#", cwd: []string{}, name: "f", str: "ftp://h/f"},
	{raw: "ftp://%41:%42@h/f", cwd: []string{}, name: "f", user: ptr("A"), pass: ptr("B"), str: "ftp://A:B@h/f"},
	// Errors.
	{raw: "ftp://h/x;type=q", errPart: "typecode"},
	{raw: "ftp://h/x;type=", errPart: "typecode"},
	{raw: "ftp://h/x;type=ai", errPart: "typecode"},
	{raw: "ftp://h/x;type=%FF", errPart: "typecode"},
	{raw: "ftp://h/x;type=a;type=i", errPart: "typecode"},
	{raw: "ftp://h/x;foo=bar", errPart: "name"},
	{raw: "ftp://h/x;1", errPart: "name"},
	{raw: "ftp://h/x;", errPart: "name"},
	{raw: "ftp://h/dir;type=d/file", errPart: "cwd"},
	{raw: "ftp://h/a;b/file;type=i", errPart: "cwd"},
	{raw: "ftp:///etc/motd", errPart: "host"},
	{raw: "ftp://user@/x", errPart: "host"},
	{raw: "ftp:host/x", errPart: "host"},
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
	}, func(t *testing.T, tt test, f, _ *URL) {
		want := fields{Cwd: tt.cwd, Name: tt.name, Type: tt.typ}
		if got := f.Fields(); !reflect.DeepEqual(got, want) {
			t.Errorf("fields %+v, want %+v", got, want)
		}
		g := f.Generic()
		if !reflect.DeepEqual(g.User, tt.user) || !reflect.DeepEqual(g.Password, tt.pass) {
			t.Errorf("user %v password %v, want %v %v", g.User, g.Password, tt.user, tt.pass)
		}
	})
}

func TestErrorMessage(t *testing.T) {
	_, err := parse(t, "ftp://u:secret@h/x;type=q")
	want := `ftp://u:****@h/x;type=q: bad typecode "q" (want a, i or d)`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %s", err, want)
	}
}

func TestRedacted(t *testing.T) {
	f, err := parse(t, "ftp://foo:secret@h/a%3Bb;type=i")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := f.Redacted(), "ftp://foo:****@h/a%3Bb;type=i"; got != want {
		t.Errorf("Redacted() = %q, want %q", got, want)
	}
}

func TestFieldsJSON(t *testing.T) {
	for raw, want := range map[string]string{
		"ftp://h":                        `{"cwd":[],"name":"","type":""}`,
		"ftp://h//etc/motd;type=a":       `{"cwd":["","etc"],"name":"motd","type":"a"}`,
		"ftp://h/%2Fetc/;type=d":         `{"cwd":["/etc"],"name":"","type":"d"}`,
		"ftp://h/a%3Bb/n%23x%3B1;type=I": `{"cwd":["a;b"],"name":"n#x;1","type":"i"}`,
	} {
		f, err := parse(t, raw)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(f.Fields())
		if err != nil || string(b) != want {
			t.Errorf("%s: JSON %s (%v), want %s", raw, b, err, want)
		}
	}
}

func TestPath(t *testing.T) {
	for raw, want := range map[string]string{
		"ftp://h":             "",
		"ftp://h/pub/":        "pub/",
		"ftp://h//etc/motd":   "/etc/motd",
		"ftp://h/%2Fetc/motd": "/etc/motd",
		"ftp://h/a/b;type=d":  "a/b",
	} {
		f, err := parse(t, raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Path(); got != want {
			t.Errorf("%s: Path() = %q, want %q", raw, got, want)
		}
	}
}

func TestSchemes(t *testing.T) {
	r := schemes.NewRegistry()
	for _, s := range Schemes(nil) {
		r.Register(s) // panics if Caps claim what the Handler lacks
		if want := schemes.Retrieves | schemes.Lists | schemes.Stats | schemes.Resumes | schemes.TLS | schemes.Pipelines | schemes.RedirectTarget | schemes.Ranges; s.Caps != want ||
			!s.Caps.Redirectable() {
			t.Errorf("%s: caps %v, want %v (and redirectable)", s.Name, s.Caps, want)
		}
	}
	for _, s := range Schemes(&Handler{NoPipeline: true}) {
		if s.Caps.Has(schemes.Pipelines) {
			t.Errorf("%s with NoPipeline: caps %v", s.Name, s.Caps)
		}
	}
	loc, err := r.Parse("ftps://h/pub/f")
	if err != nil {
		t.Fatal(err)
	}
	f := loc.(*URL)
	if f.Generic().EffectivePort() != 990 || f.Name != "f" {
		t.Errorf("ftps: port %d name %q", f.Generic().EffectivePort(), f.Name)
	}
	g, _ := schemes.Parse("http://h/")
	if _, err := Parse(g); schemes.KindOf(err) != schemes.KindUsage {
		t.Errorf("Parse(http URL) err = %v, want KindUsage", err)
	}
}

// TestAt: an item URL built from typed parts keeps the login (password
// included) and reads, generic parts too, as if its text had been parsed.
func TestAt(t *testing.T) {
	for _, tc := range []struct {
		base string
		dir  []string
		name string
		typ  byte
		want string
	}{
		{"ftp://u:p%40ss@h:2121/pub/x;type=a#frag", []string{"pub"}, "a b#c", 'a', "ftp://u:p%40ss@h:2121/pub/a%20b%23c;type=a"},
		{"ftp://h", []string{"", "etc"}, "", 0, "ftp://h//etc/"},
		{"ftps://h/", nil, "x/y;z", 0, "ftps://h/x%2Fy%3Bz"},
		{"ftp://@h/", []string{"d"}, "", 0, "ftp://@h/d/"},
	} {
		base, err := parse(t, tc.base)
		if err != nil {
			t.Fatal(err)
		}
		item := base.at(tc.dir, tc.name, tc.typ)
		if got := item.String(); got != tc.want {
			t.Errorf("%s + %q %q: %q, want %q", tc.base, tc.dir, tc.name, got, tc.want)
		}
		again, err := parse(t, tc.want)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(*item.Generic(), *again.Generic()) || !reflect.DeepEqual(item.Fields(), again.Fields()) {
			t.Errorf("%s: built %+v %+v, parsed %+v %+v", tc.want, *item.Generic(), item.Fields(), *again.Generic(), again.Fields())
		}
	}
}

// TestAtKeepsCanonicalPath: a URL at makes keeps its canonical path, and
// what it gives from it (TreePath, String, Redacted) is what the same
// parts give computed afresh.
func TestAtKeepsCanonicalPath(t *testing.T) {
	g, err := schemes.Parse("ftp://u:pw@h/pub/")
	if err != nil {
		t.Fatal(err)
	}
	base, err := Parse(g)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dir  []string
		name string
		typ  byte
	}{
		{[]string{"pub"}, "a b;c/d%e.txt", 0},
		{[]string{"pub", "x;y"}, "f", 'i'},
		{[]string{"", "etc"}, "", 'd'},
		{[]string{"pub", "dir/"}, "", 0},
	} {
		got := base.at(tc.dir, tc.name, tc.typ)
		fresh := &URL{Cwd: tc.dir, Name: tc.name, Type: tc.typ, u: got.u}
		if got.canon == "" || got.TreePath() != fresh.TreePath() || got.String() != fresh.String() || got.Redacted() != fresh.Redacted() {
			t.Errorf("%q %q %q: kept %q, TreePath %q / %q, String %q / %q", tc.dir, tc.name, tc.typ,
				got.canon, got.TreePath(), fresh.TreePath(), got.String(), fresh.String())
		}
	}
}
