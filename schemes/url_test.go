package schemes

import (
	"errors"
	"reflect"
	"testing"
)

func sp(s string) *string { return &s }

func strOrNil(p *string) any {
	if p == nil {
		return nil
	}
	return *p
}

// parseTests are the generic parser's table: every row must parse to want,
// and String must give str (then parse again to an equal value).
var parseTests = []struct {
	raw  string
	want URL
	str  string
}{
	// RFC 1738 §3.1: absent user ≠ empty user; empty password ≠ none.
	{"ftp://@host.com/", URL{Scheme: "ftp", Authority: true, User: sp(""), Host: "host.com", HasPath: true, Opaque: "/"}, "ftp://@host.com/"},
	{"ftp://host.com/", URL{Scheme: "ftp", Authority: true, Host: "host.com", HasPath: true, Opaque: "/"}, "ftp://host.com/"},
	{"ftp://foo:@host.com/", URL{Scheme: "ftp", Authority: true, User: sp("foo"), Password: sp(""), Host: "host.com", HasPath: true, Opaque: "/"}, "ftp://foo:@host.com/"},
	{"ftp://host.com", URL{Scheme: "ftp", Authority: true, Host: "host.com"}, "ftp://host.com"},
	{"ftp://u%3Ax:p%40s%2Fw@host.com/a", URL{Scheme: "ftp", Authority: true, User: sp("u:x"), Password: sp("p@s/w"), Host: "host.com", HasPath: true, Path: "a", Opaque: "/a"}, "ftp://u%3Ax:p%40s%2Fw@host.com/a"},
	{"ftp://a:b:c@h/", URL{Scheme: "ftp", Authority: true, User: sp("a"), Password: sp("b:c"), Host: "h", HasPath: true, Opaque: "/"}, "ftp://a:b%3Ac@h/"},
	{"ftp://a@b@h/", URL{Scheme: "ftp", Authority: true, User: sp("a@b"), Host: "h", HasPath: true, Opaque: "/"}, "ftp://a%40b@h/"},
	// Case, IPv4, IPv6, IDNA.
	{"HTTP://WWW.Example.COM/A", URL{Scheme: "http", Authority: true, Host: "www.example.com", HasPath: true, Path: "A", Opaque: "/A"}, "http://www.example.com/A"},
	{"http://192.0.2.1:8080/x", URL{Scheme: "http", Authority: true, Host: "192.0.2.1", Port: 8080, HasPath: true, Path: "x", Opaque: "/x"}, "http://192.0.2.1:8080/x"},
	{"http://[2001:DB8::1]/", URL{Scheme: "http", Authority: true, Host: "2001:db8::1", HasPath: true, Opaque: "/"}, "http://[2001:db8::1]/"},
	{"http://[::1]:8080", URL{Scheme: "http", Authority: true, Host: "::1", Port: 8080}, "http://[::1]:8080"},
	{"http://bücher.example/", URL{Scheme: "http", Authority: true, Host: "xn--bcher-kva.example", HasPath: true, Opaque: "/"}, "http://xn--bcher-kva.example/"},
	{"http://B%C3%BCcher.example/", URL{Scheme: "http", Authority: true, Host: "xn--bcher-kva.example", HasPath: true, Opaque: "/"}, "http://xn--bcher-kva.example/"},
	// Ports: 1 and 65535 are the bounds.
	{"telnet://h:1", URL{Scheme: "telnet", Authority: true, Host: "h", Port: 1}, "telnet://h:1"},
	{"telnet://h:65535/", URL{Scheme: "telnet", Authority: true, Host: "h", Port: 65535, HasPath: true, Opaque: "/"}, "telnet://h:65535/"},
	{"telnet://h:023/", URL{Scheme: "telnet", Authority: true, Host: "h", Port: 23, HasPath: true, Opaque: "/"}, "telnet://h:23/"},
	// Escapes: kept as written in the path, unsafe literal characters encoded.
	{"gopher://h/0a%09b c~", URL{Scheme: "gopher", Authority: true, Host: "h", HasPath: true, Path: "0a%09b%20c%7E", Opaque: "/0a%09b%20c%7E"}, "gopher://h/0a%09b%20c%7E"},
	{"http://h/a%2fb", URL{Scheme: "http", Authority: true, Host: "h", HasPath: true, Path: "a%2fb", Opaque: "/a%2fb"}, "http://h/a%2fb"},
	// Opaque schemes.
	{"news:comp.infosystems.www", URL{Scheme: "news", Opaque: "comp.infosystems.www"}, "news:comp.infosystems.www"},
	{"mailto:Joe@Example.COM", URL{Scheme: "mailto", Opaque: "Joe@Example.COM"}, "mailto:Joe@Example.COM"},
	{"x-y.z+1:", URL{Scheme: "x-y.z+1"}, "x-y.z+1:"},
	// The URL: prefix and the <> wrapper of the appendix.
	{"<URL:ftp://h/f>", URL{Scheme: "ftp", Authority: true, Host: "h", HasPath: true, Path: "f", Opaque: "/f"}, "ftp://h/f"},
	{"  <url: http://h/ >  ", URL{Scheme: "http", Authority: true, Host: "h", HasPath: true, Opaque: "/"}, "http://h/"},
	{"URL:news:a.b", URL{Scheme: "news", Opaque: "a.b"}, "news:a.b"},
	{"<news:a.b>", URL{Scheme: "news", Opaque: "a.b"}, "news:a.b"},
	{"URL:URL:news:a.b", URL{Scheme: "news", Opaque: "a.b"}, "news:a.b"},
	// The fragment is split at the FIRST "#".
	{"http://h/p#a#b", URL{Scheme: "http", Authority: true, Host: "h", HasPath: true, Path: "p", Opaque: "/p", Fragment: sp("a#b")}, "http://h/p#a#b"},
	{"http://h/p#", URL{Scheme: "http", Authority: true, Host: "h", HasPath: true, Path: "p", Opaque: "/p", Fragment: sp("")}, "http://h/p#"},
	{"http://h#f", URL{Scheme: "http", Authority: true, Host: "h", Fragment: sp("f")}, "http://h#f"},
	{"news:a@b#c", URL{Scheme: "news", Opaque: "a@b", Fragment: sp("c")}, "news:a@b#c"},
	{"file:///etc/passwd", URL{Scheme: "file", Authority: true, HasPath: true, Path: "etc/passwd", Opaque: "/etc/passwd"}, "file:///etc/passwd"},
}

func TestParse(t *testing.T) {
	for _, tt := range parseTests {
		u, err := Parse(tt.raw)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.raw, err)
			continue
		}
		if !reflect.DeepEqual(*u, tt.want) {
			t.Errorf("Parse(%q) =\n  %+v user=%v pass=%v frag=%v\nwant\n  %+v user=%v pass=%v frag=%v", tt.raw,
				*u, strOrNil(u.User), strOrNil(u.Password), strOrNil(u.Fragment),
				tt.want, strOrNil(tt.want.User), strOrNil(tt.want.Password), strOrNil(tt.want.Fragment))
			continue
		}
		s := u.String()
		if s != tt.str {
			t.Errorf("Parse(%q).String() = %q, want %q", tt.raw, s, tt.str)
		}
		u2, err := Parse(s)
		if err != nil {
			t.Errorf("Parse(%q) (round trip): %v", s, err)
			continue
		}
		if !reflect.DeepEqual(u, u2) {
			t.Errorf("round trip of %q: %+v, then %+v", tt.raw, *u, *u2)
		}
	}
}

var parseErrorTests = []struct {
	raw, part string
}{
	{"", "scheme"},
	{"no scheme here", "scheme"},
	{":x", "scheme"},
	{"ht tp://h/", "scheme"},
	{"<URL:>", "scheme"},
	// The draft's example 3: "%" always starts an escape.
	{"news:12345667123%asdghfh@info.cern.ch", "url"},
	{"fxqn:/us/va/reston/cnri/ietf/24/asdf%*.fred", "url"},
	{"http://h/a%2", "url"},
	{"http://h/a%", "url"},
	{"http://h/#a%zz", "fragment"},
	// Ports.
	{"http://h:0/", "port"},
	{"http://h:65536/", "port"},
	{"http://h:x/", "port"},
	{"http://h:/", "port"},
	{"http://h:-1/", "port"},
	{"http://h:+80/", "port"},
	{"http://[::1]:/", "port"},
	{"http://[::1]:99999/", "port"},
	// Hosts.
	{"http://[::1/", "host"},
	{"http://[1.2.3.4]/", "host"},
	{"http://[::1]x/", "host"},
	{"http://[fe80::1%25eth0]/", "host"},
	{"http://[fe80::1%25a b]/", "host"},
	{"http://ho st/", "host"},
	{"http://-h/", "host"},
	{"http://h-/", "host"},
	{"http://a..b/", "host"},
	{"http://%3A%3A1/", "host"},
	{"http://h%zz/", "url"},
}

func TestParseErrors(t *testing.T) {
	for _, tt := range parseErrorTests {
		u, err := Parse(tt.raw)
		if err == nil {
			t.Errorf("Parse(%q) = %+v, want error on %s", tt.raw, *u, tt.part)
			continue
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("Parse(%q): error %T %v, want *Error", tt.raw, err, err)
			continue
		}
		if e.Kind != KindUsage || e.Part != tt.part || e.Phase != "parse" {
			t.Errorf("Parse(%q): kind %v part %q phase %q (%v), want usage/%s/parse", tt.raw, e.Kind, e.Part, e.Phase, err, tt.part)
		}
	}
}

func TestParseErrorRedacted(t *testing.T) {
	_, err := Parse("ftp://user:secret@h:99999/")
	if err == nil {
		t.Fatal("no error")
	}
	var e *Error
	if !errors.As(err, &e) || e.URL != "ftp://user:****@h:99999/" {
		t.Errorf("error URL = %q, want redacted", e.URL)
	}
	if s := err.Error(); contains(s, "secret") {
		t.Errorf("error %q shows the password", s)
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func TestRedactString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"ftp://user:pass@host/x", "ftp://user:****@host/x"},
		{"ftp://user:@host/x", "ftp://user:****@host/x"},
		{"ftp://user@host/x", "ftp://user@host/x"},
		{"ftp://host/x", "ftp://host/x"},
		{"ftp://host:21/x", "ftp://host:21/x"},
		{"ftp://u:p:q@host", "ftp://u:****@host"},
		{"ftp://u:p@q@host/", "ftp://u:****@host/"},
		{"http://h/path?u:p@x", "http://h/path?u:p@x"},
		{"http://h#u:p@x", "http://h#u:p@x"},
		{"<URL:ftp://u:p@h/>", "<URL:ftp://u:****@h/>"},
		{"not a url", "not a url"},
		{"", ""},
		{"//", "//"},
		{"//u:p@", "//u:****@"},
	}
	for _, tt := range tests {
		if got := RedactString(tt.in); got != tt.want {
			t.Errorf("RedactString(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestUserPasswordAbsentVsEmpty(t *testing.T) {
	for _, tt := range []struct {
		raw        string
		user, pass any
	}{
		{"ftp://@host.com/", "", nil},
		{"ftp://host.com/", nil, nil},
		{"ftp://foo:@host.com/", "foo", ""},
		{"ftp://:@host.com/", "", ""},
		{"ftp://:p@host.com/", "", "p"},
	} {
		u, err := Parse(tt.raw)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.raw, err)
		}
		if strOrNil(u.User) != tt.user || strOrNil(u.Password) != tt.pass {
			t.Errorf("Parse(%q): user %v password %v, want %v %v", tt.raw, strOrNil(u.User), strOrNil(u.Password), tt.user, tt.pass)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, tt := range parseTests {
		f.Add(tt.raw)
	}
	for _, tt := range parseErrorTests {
		f.Add(tt.raw)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := Parse(raw)
		if err != nil {
			if KindOf(err) != KindUsage {
				t.Fatalf("Parse(%q): kind %v", raw, KindOf(err))
			}
			return
		}
		s := u.String()
		u2, err := Parse(s)
		if err != nil {
			t.Fatalf("Parse(%q) ok, but its String %q fails: %v", raw, s, err)
		}
		if !reflect.DeepEqual(u, u2) {
			t.Fatalf("Parse(%q) = %+v; String %q parses to %+v", raw, *u, s, *u2)
		}
		if s2 := u2.String(); s2 != s {
			t.Fatalf("String not stable: %q then %q", s, s2)
		}
		_ = u.Redacted()
		_ = RedactString(raw)
	})
}
