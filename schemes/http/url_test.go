package http

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
)

// parse runs the generic parser and this package's, as the registry does.
var parse = schemestest.Parser(Parse)

func sp(s string) *string { return &s }

var parseTests = []struct {
	raw     string
	host    string
	port    int
	path    string  // Path: escaped, as written (what is sent)
	search  *string // escaped, as written
	str     string  // String(), the canonical form and the round-trip form
	errPart string  // non-empty: parsing fails with KindUsage naming this part
}{
	// The examples of RFC 1738 and of the WWW URI draft.
	{raw: "<URL:http://www.acl.lanl.gov/URI/archive/uri-archive.index.html>", host: "www.acl.lanl.gov",
		path: "URI/archive/uri-archive.index.html", str: "http://www.acl.lanl.gov/URI/archive/uri-archive.index.html"},
	{raw: "http://info.cern.ch/hypertext/WWW/Addressing/URL/URI_Overview.html", host: "info.cern.ch",
		path: "hypertext/WWW/Addressing/URL/URI_Overview.html", str: "http://info.cern.ch/hypertext/WWW/Addressing/URL/URI_Overview.html"},
	{raw: "http://info.cern.ch/albert/bertram/marie-claude", host: "info.cern.ch",
		path: "albert/bertram/marie-claude", str: "http://info.cern.ch/albert/bertram/marie-claude"},
	{raw: "http://info.cern.ch/albert/bertram/marie%2Dclaude", host: "info.cern.ch",
		path: "albert/bertram/marie%2Dclaude", str: "http://info.cern.ch/albert/bertram/marie-claude"},
	{raw: "http://info.cern.ch/albert/bertram%2Fmarie-claude", host: "info.cern.ch",
		path: "albert/bertram%2Fmarie-claude", str: "http://info.cern.ch/albert/bertram%2Fmarie-claude"},
	{raw: "http://www.my.work.com/", host: "www.my.work.com", str: "http://www.my.work.com/"},
	{raw: "http://www.my.uni.edu/info/matriculation/enroling.html", host: "www.my.uni.edu",
		path: "info/matriculation/enroling.html", str: "http://www.my.uni.edu/info/matriculation/enroling.html"},
	{raw: "http://info.my.org/AboutUs/Phonebook", host: "info.my.org", path: "AboutUs/Phonebook",
		str: "http://info.my.org/AboutUs/Phonebook"},
	{raw: "http://www.library.my.town.va.us/Catalogue/76523471236%2Fwen44", host: "www.library.my.town.va.us",
		path: "Catalogue/76523471236%2Fwen44", str: "http://www.library.my.town.va.us/Catalogue/76523471236%2Fwen44"},
	{raw: "http://www.my.org/462F4F2D4241522A314159265358979323846", host: "www.my.org",
		path: "462F4F2D4241522A314159265358979323846", str: "http://www.my.org/462F4F2D4241522A314159265358979323846"},
	{raw: "http://info.cern.ch:8000/imaginary/test", host: "info.cern.ch", port: 8000, path: "imaginary/test",
		str: "http://info.cern.ch:8000/imaginary/test"},
	{raw: "http://www.myu.edu/org/admin/people#andy", host: "www.myu.edu", path: "org/admin/people",
		str: "http://www.myu.edu/org/admin/people#andy"},
	{raw: "http://info.my.org/AboutUs/Index/Phonebook?dobbins", host: "info.my.org", path: "AboutUs/Index/Phonebook",
		search: sp("dobbins"), str: "http://info.my.org/AboutUs/Index/Phonebook?dobbins"},
	// The draft's last example has "%%3D", a "%" that starts no escape.
	{raw: "http://info.cern.ch/RDB/EMP?*%20where%20name%%3Ddobbins", errPart: "url"},
	{raw: "http://info.cern.ch/RDB/EMP?*%20where%20name%3Ddobbins", host: "info.cern.ch", path: "RDB/EMP",
		search: sp("*%20where%20name%3Ddobbins"), str: "http://info.cern.ch/RDB/EMP?*%20where%20name%3Ddobbins"},
	// RFC 1738 §3.3: path, search and "/" optional.
	{raw: "http://h.com", host: "h.com", str: "http://h.com/"},
	{raw: "http://h.com/?", host: "h.com", search: sp(""), str: "http://h.com/?"},
	{raw: "http://h.com/?q", host: "h.com", search: sp("q"), str: "http://h.com/?q"},
	{raw: "HTTP://H.COM:80/x", host: "h.com", path: "x", str: "http://h.com/x"}, // the default port left out
	{raw: "https://h.com:443/x", host: "h.com", path: "x", str: "https://h.com/x"},
	{raw: "https://h.com:80/x", host: "h.com", port: 80, path: "x", str: "https://h.com:80/x"},
	{raw: "https://h.com:8443/a?b=c", host: "h.com", port: 8443, path: "a", search: sp("b=c"), str: "https://h.com:8443/a?b=c"},
	{raw: "https://h.com", host: "h.com", str: "https://h.com/"},
	// Escapes kept as written; unsafe characters escaped by the generic parser.
	{raw: "http://h.com/a%2Fb%20c?x=%41", host: "h.com", path: "a%2Fb%20c", search: sp("x=%41"), str: "http://h.com/a%2Fb%20c?x=%41"},
	{raw: "http://h.com/a b~c?d e", host: "h.com", path: "a%20b%7Ec", search: sp("d%20e"), str: "http://h.com/a%20b%7Ec?d%20e"},
	// The canonical path (normalizePath): letters, digits, "-" and "_"
	// decoded, hex digits upper case; ".", "~", "+" and the search as written.
	{raw: "http://h.com/%41%2f%3F?%26=%3D%41%2f", host: "h.com", path: "%41%2f%3F", search: sp("%26=%3D%41%2f"),
		str: "http://h.com/A%2F%3F?%26=%3D%41%2f"},
	{raw: "http://h.com/%7e~%7E%5f%2d%30", host: "h.com", path: "%7e%7E%7E%5f%2d%30", str: "http://h.com/%7E%7E%7E_-0"},
	{raw: "http://h.com/%2e%2E/a%2Eb/%2B+%24$%2c", host: "h.com", path: "%2e%2E/a%2Eb/%2B+%24$%2c",
		str: "http://h.com/%2E%2E/a%2Eb/%2B+%24$%2C"},
	{raw: "http://h.com/p#%7e%41", host: "h.com", path: "p", str: "http://h.com/p#%7EA"},
	{raw: "http://[0:0:0:0:0:0:0:1]:80/", host: "::1", str: "http://[::1]/"},
	{raw: "http://h.com/;a:b@c&d=e", host: "h.com", path: ";a:b@c&d=e", str: "http://h.com/;a:b@c&d=e"},
	{raw: "http://h.com/a?b?c/d", host: "h.com", path: "a", search: sp("b?c/d"), str: "http://h.com/a?b?c/d"},
	{raw: "http://h.com//x", host: "h.com", path: "/x", str: "http://h.com//x"},
	{raw: "http://h.com/x#", host: "h.com", path: "x", str: "http://h.com/x"}, // a void fragment
	{raw: "http://[::1]:8080/x", host: "::1", port: 8080, path: "x", str: "http://[::1]:8080/x"},
	{raw: "http://b\u00fccher.example/", host: "xn--bcher-kva.example", str: "http://xn--bcher-kva.example/"},
	// Credentials: not in RFC 1738's http syntax, accepted (sent as Basic).
	{raw: "http://user:pa%40ss@h.com/x", host: "h.com", path: "x", str: "http://user:pa%40ss@h.com/x"},
	// Errors.
	{raw: "http:///x", errPart: "host"},
	{raw: "http://", errPart: "host"},
	{raw: "https://:443/", errPart: "host"},
	{raw: "http:x", errPart: "host"},
	{raw: "http:/x", errPart: "host"},
	{raw: "http://h.com:0/", errPart: "port"},
	{raw: "http://h.com:99999/", errPart: "port"},
	{raw: "http://h.com?x", errPart: "host"}, // RFC 1738 §5: "?" only after "/"
	{raw: "http://h.com/%zz", errPart: "url"},
	{raw: "http://user:secret@bad host/", errPart: "host"},
}

func TestParse(t *testing.T) {
	for _, tt := range parseTests {
		t.Run(tt.raw, func(t *testing.T) {
			u, err := parse(tt.raw)
			if tt.errPart != "" {
				if e := schemestest.UsageError(t, err, tt.errPart); e != nil && strings.Contains(e.Error(), "secret") {
					t.Errorf("error shows the password: %v", e)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			g := u.Generic()
			if g.Host != tt.host || g.Port != tt.port || u.Path != tt.path || !reflect.DeepEqual(u.Search, tt.search) {
				t.Errorf("host %q port %d path %q search %v; want %q %d %q %v", g.Host, g.Port, u.Path,
					strOrNil(u.Search), tt.host, tt.port, tt.path, strOrNil(tt.search))
			}
			if got := u.String(); got != tt.str {
				t.Errorf("String = %q, want %q", got, tt.str)
			}
			if got := g.String(); got != tt.str {
				t.Errorf("Generic().String = %q, want %q", got, tt.str)
			}
			if got := u.RequestTarget(); got != "/"+tt.path+searchSuffix(tt.search) {
				t.Errorf("RequestTarget = %q, want the path as written %q", got, "/"+tt.path+searchSuffix(tt.search))
			}
			if v, ok := schemestest.RoundTrip(t, u, parse); ok {
				checkCanonical(t, v)
			}
			js, _ := json.Marshal(u.Fields())
			want, _ := json.Marshal(map[string]any{"path": canonicalPath(t, tt.str), "search": tt.search})
			if string(js) != string(want) {
				t.Errorf("Fields = %s, want %s", js, want)
			}
			if strings.Contains(u.Redacted(), "pa%40ss") || strings.Contains(tt.raw, "pa%40ss") && !strings.Contains(u.Redacted(), "****") {
				t.Errorf("Redacted = %q", u.Redacted())
			}
		})
	}
}

func searchSuffix(search *string) string {
	if search == nil {
		return ""
	}
	return "?" + *search
}

// canonicalPath is the path of a canonical http URL, as Fields shows it.
func canonicalPath(t *testing.T, canon string) string {
	t.Helper()
	g, err := schemes.Parse(canon)
	if err != nil {
		t.Fatal(err)
	}
	p, _, _ := strings.Cut(g.Path, "?")
	return "/" + p
}

// checkCanonical checks that v, parsed from a canonical form, is a fixed
// point in every field (the escaped path and search included, more than
// schemestest.Same asks), and that its request line is that form's.
func checkCanonical(t testing.TB, v *URL) {
	t.Helper()
	w, err := parse(v.String())
	if err != nil || !reflect.DeepEqual(v, w) {
		t.Errorf("the canonical form %q is no fixed point: %+v vs %+v (%v)", v.String(), v, w, err)
	}
	// After "scheme://" the authority holds no "/" (user and password
	// escape it) and the rest holds no "#" but the fragment's.
	_, rest, _ := strings.Cut(v.String(), "://")
	target, _, _ := strings.Cut(rest[strings.IndexByte(rest, '/'):], "#")
	if target != v.RequestTarget() {
		t.Errorf("canonical %q is sent as %q", v.String(), v.RequestTarget())
	}
}

func strOrNil(p *string) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestAccessors(t *testing.T) {
	for _, c := range []struct{ raw, target, host, name string }{
		{"http://h.com/a%2Fb%20c?x=%41#frag", "/a%2Fb%20c?x=%41", "h.com", "b c"},
		{"http://h.com:80/dir/", "/dir/", "h.com", ""},
		{"https://h.com:443", "/", "h.com", ""},
		{"https://h.com:80/x.tar.gz", "/x.tar.gz", "h.com:80", "x.tar.gz"},
		{"http://[::1]:8080/%2E%2E", "/%2E%2E", "[::1]:8080", ""},
		{"http://h.com/a%0Ab", "/a%0Ab", "h.com", ""},
		{"http://h.com/a%5Cb", "/a%5Cb", "h.com", "b"},
	} {
		u, err := parse(c.raw)
		if err != nil {
			t.Fatal(err)
		}
		if u.RequestTarget() != c.target || u.HostHeader() != c.host || u.LocalName() != c.name {
			t.Errorf("%s: target %q host %q name %q; want %q %q %q", c.raw, u.RequestTarget(), u.HostHeader(), u.LocalName(),
				c.target, c.host, c.name)
		}
	}
}

func TestParseWrongScheme(t *testing.T) {
	u, _ := schemes.Parse("ftp://h/x")
	if _, err := Parse(u); schemes.KindOf(err) != schemes.KindUsage {
		t.Errorf("Parse(ftp URL) = %v, want KindUsage", err)
	}
}

func FuzzParseHTTP(f *testing.F) {
	for _, tt := range parseTests {
		f.Add(tt.raw)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, v, ok := schemestest.FuzzRoundTrip(t, raw, parse)
		if !ok {
			return
		}
		if checkCanonical(t, v); t.Failed() {
			t.FailNow()
		}
		if strings.ContainsAny(u.RequestTarget(), " \r\n#") {
			t.Fatalf("%q: request target %q holds a character that must not be sent", raw, u.RequestTarget())
		}
	})
}
