package schemes

import "testing"

// canonicalTests are the generic rules (Canonical), those of a scheme no
// registry knows. They know no default port, which is each scheme's to
// declare: every port written is kept, and a URL with no path gets no
// "/". What the registered schemes add (their default ports dropped,
// "news:<id>" is "news:id", ...) is tested on schemestest.Examples and
// registryPortTests, through the registry.
var canonicalTests = []struct{ raw, want string }{
	// Case of scheme and host, ports kept, hex digits, unreserved decoded.
	{"HTTP://Host:80/%7e", "http://host:80/%7E"},
	{"http://host:8080/a", "http://host:8080/a"},
	{"ftp://h:21/pub", "ftp://h:21/pub"},
	{"gopher://h:70/1", "gopher://h:70/1"},
	{"gopher://h:71/1", "gopher://h:71/1"},
	{"HTTPS://H:443", "https://h:443"},
	{"http://h", "http://h"},
	{"x-other://h", "x-other://h"},
	{"x-other://h:80/", "x-other://h:80/"},
	// The draft's example 1 and 2.
	{"http://info.cern.ch/albert/bertram/marie%2Dclaude", "http://info.cern.ch/albert/bertram/marie-claude"},
	{"http://info.cern.ch/albert/bertram%2Fmarie-claude", "http://info.cern.ch/albert/bertram%2Fmarie-claude"},
	{"http://info.cern.ch/albert/bertram%2fmarie-claude", "http://info.cern.ch/albert/bertram%2Fmarie-claude"},
	{"http://www.library.my.town.va.us/Catalogue/76523471236%2Fwen44--4.98", "http://www.library.my.town.va.us/Catalogue/76523471236%2Fwen44--4.98"},
	// Every unreserved character decoded, every reserved one left alone.
	{"http://h/%41%7a%30%24%2D%5F%2E%2B%21%2A%27%28%29%2C", "http://h/Az0$-_.+!*'(),"},
	{"http://h/%3B%2F%3F%3A%40%3D%26", "http://h/%3B%2F%3F%3A%40%3D%26"},
	{"http://h/;/?:@=&", "http://h/;/?:@=&"},
	{"http://h/%3b%2f%3f%3a%40%3d%26", "http://h/%3B%2F%3F%3A%40%3D%26"},
	// Unsafe, 8-bit and control characters always encoded.
	{"http://h/a b~c{}|\\^[]`\"<>", "http://h/a%20b%7Ec%7B%7D%7C%5C%5E%5B%5D%60%22%3C%3E"},
	{"http://h/\x01\x7f\xff%ff%00%25", "http://h/%01%7F%FF%FF%00%25"},
	{"http://h/é", "http://h/%C3%A9"},
	// "+" stays encoded in the query, where it stands for a space.
	{"http://h/a%2Bb?c%2bd+e", "http://h/a+b?c%2Bd+e"},
	{"mailto:a%2Bb@h?subject=x%2By", "mailto:a+b@h?subject=x%2By"},
	// User and password: decoded, then escaped as the generic format does.
	{"ftp://%41nne:p%61ss%3a@H/", "ftp://Anne:pass%3A@h/"},
	{"ftp://a;b@h/", "ftp://a%3Bb@h/"},
	{"ftp://@h/", "ftp://@h/"},
	{"ftp://u:@h/", "ftp://u:@h/"},
	// IPv6: shortest lower-case form.
	{"http://[2001:DB8:0:0:0:0:0:1]:80/", "http://[2001:db8::1]:80/"},
	{"http://[::FFFF:192.0.2.1]/", "http://[::ffff:192.0.2.1]/"},
	// IDNA.
	{"http://Bücher.Example/", "http://xn--bcher-kva.example/"},
	// Opaque schemes.
	{"NEWS:comp.infosystems.www", "news:comp.infosystems.www"},
	{"news:%3C12345@info.cern.ch%3e", "news:%3C12345@info.cern.ch%3E"},
	{"mailto:%6Aoe@example.com", "mailto:joe@example.com"},
	{"news:%2A", "news:*"},
	// Fragments: normalized like the path; a void one dropped.
	{"http://h/p#%7e%41 b", "http://h/p#%7EA%20b"},
	{"http://h/p#a#b", "http://h/p#a%23b"},
	{"http://h/p#", "http://h/p"},
	{"http://h/p?", "http://h/p?"},
	// Wrapper.
	{"<URL:HTTP://H/>", "http://h/"},
	{"  <url: ftp://h/x;type=i > ", "ftp://h/x;type=i"},
	// Dot segments are not removed (ftp "a/../b" is CWD a, CWD ..).
	{"ftp://h/a/../b/./c", "ftp://h/a/../b/./c"},
	// Gopher with %09.
	{"gopher://h/7search%09fish%20chips", "gopher://h/7search%09fish%20chips"},
}

func TestCanonical(t *testing.T) {
	for _, tt := range canonicalTests {
		got, err := Canonical(tt.raw)
		if err != nil {
			t.Errorf("Canonical(%q): %v", tt.raw, err)
			continue
		}
		if got != tt.want {
			t.Errorf("Canonical(%q) = %q, want %q", tt.raw, got, tt.want)
		}
		again, err := Canonical(got)
		if err != nil || again != got {
			t.Errorf("Canonical(%q) = %q, %v: not idempotent", got, again, err)
		}
	}
}

func TestCanonicalErrors(t *testing.T) {
	for _, raw := range []string{
		"news:12345667123%asdghfh@info.cern.ch",
		"fxqn:/us/va/reston/cnri/ietf/24/asdf%*.fred",
		// The draft's own example has "%%3D": not a URL either.
		"http://info.cern.ch/RDB/EMP?*%20where%20name%%3Ddobbins",
		"http://h:0/",
		"no-scheme",
	} {
		if got, err := Canonical(raw); err == nil || KindOf(err) != KindUsage {
			t.Errorf("Canonical(%q) = %q, %v; want a usage error", raw, got, err)
		}
	}
}

func TestCanonicalURL(t *testing.T) {
	// A hand-built URL: literal unsafe characters and a stray "%", and the
	// default port a scheme's parser would give it.
	u := &URL{Scheme: "FTP", Authority: true, User: sp("a:b"), Host: "H", Port: 21, HasPath: true, Path: "x y%/100%", Fragment: sp("f g"),
		DefaultPort: 21}
	if got, want := CanonicalURL(u), "ftp://a%3Ab@h/x%20y%25/100%25#f%20g"; got != want {
		t.Errorf("CanonicalURL = %q, want %q", got, want)
	}
}

// equivalentTests are the generic rules (Equivalent); see canonicalTests.
var equivalentTests = []struct {
	a, b string
	same bool
}{
	// The draft's examples 1 and 2.
	{"http://info.cern.ch/albert/bertram/marie-claude", "http://info.cern.ch/albert/bertram/marie%2Dclaude", true},
	{"http://info.cern.ch/albert/bertram/marie-claude", "http://info.cern.ch/albert/bertram%2Fmarie-claude", false},
	// RFC 1738 §2.1: upper-case scheme names are the same.
	{"HTTP://info.cern.ch/", "http://info.cern.ch/", true},
	{"http://INFO.cern.ch/", "http://info.cern.ch/", true},
	// No default port: it is the scheme's (registryPortTests).
	{"http://info.cern.ch:80/", "http://info.cern.ch/", false},
	{"http://info.cern.ch:8000/", "http://info.cern.ch/", false},
	{"http://info.cern.ch", "http://info.cern.ch/", false},
	{"<URL:http://info.cern.ch/>", "http://info.cern.ch/", true},
	{"http://h/%7e", "http://h/%7E", true},
	{"http://h/%7e", "http://h/~", true},
	{"http://h/a b", "http://h/a%20b", true},
	{"http://h/A", "http://h/a", false},
	// Reserved characters: never the same encoded and literal.
	{"http://h/a;b", "http://h/a%3Bb", false},
	{"http://h/a?b", "http://h/a%3Fb", false},
	{"http://h/a=b", "http://h/a%3Db", false},
	{"http://h/a&b", "http://h/a%26b", false},
	{"http://h/a:b", "http://h/a%3Ab", false},
	{"http://h/a@b", "http://h/a%40b", false},
	{"ftp://h/x;type=a", "ftp://h/x%3Btype=a", false},
	// "+" in a query.
	{"http://h/s?a%2Bb", "http://h/s?a+b", false},
	{"http://h/a%2Bb", "http://h/a+b", true},
	// User and password.
	{"ftp://@host.com/", "ftp://host.com/", false},
	{"ftp://foo:@host.com/", "ftp://foo@host.com/", false},
	{"ftp://f%6Fo@host.com/", "ftp://foo@host.com/", true},
	{"ftp://foo@host.com/", "ftp://Foo@host.com/", false},
	// Fragments do not take part.
	{"http://h/doc#intro", "http://h/doc#end", true},
	{"http://h/doc#intro", "http://h/doc", true},
	{"http://h/doc#", "http://h/doc", true},
	// Opaque schemes.
	{"news:comp.infosystems.www", "NEWS:comp.infosystems.www", true},
	{"news:comp.infosystems.www", "news:comp%2Einfosystems%2Ewww", true},
	{"mailto:joe@example.com", "mailto:joe%40example.com", false},
	// Different schemes are different, even with the same port.
	{"http://h/", "https://h:80/", false},
	{"gopher://h:70/", "gopher://h:70", false},
	// IPv6.
	{"http://[::1]:80/", "http://[0:0:0:0:0:0:0:1]:80/", true},
	// IDNA.
	{"http://bücher.example/", "http://xn--bcher-kva.example/", true},
}

func TestEquivalent(t *testing.T) {
	for _, tt := range equivalentTests {
		got, err := Equivalent(tt.a, tt.b)
		if err != nil {
			t.Errorf("Equivalent(%q, %q): %v", tt.a, tt.b, err)
			continue
		}
		if got != tt.same {
			t.Errorf("Equivalent(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.same)
		}
		if rev, _ := Equivalent(tt.b, tt.a); rev != got {
			t.Errorf("Equivalent(%q, %q) is not symmetric", tt.a, tt.b)
		}
	}
	if _, err := Equivalent("news:1%as@h", "news:1@h"); err == nil {
		t.Error("Equivalent with a malformed URL: no error")
	}
	if _, err := Equivalent("news:1@h", "news:1%as@h"); err == nil {
		t.Error("Equivalent with a malformed URL: no error")
	}
}

func TestFormatLocator(t *testing.T) {
	tests := []struct {
		u      URL
		redact bool
		rest   string
		want   string
	}{
		// The authority: escapes from decoded values, host, default port
		// (the one the scheme's parser gave the URL).
		{URL{Scheme: "FTP", Authority: true, User: sp("a:b"), Password: sp("p@ss"), Host: "H.example", Port: 21, DefaultPort: 21},
			false, "/x", "ftp://a%3Ab:p%40ss@h.example/x"},
		{URL{Scheme: "ftp", Authority: true, User: sp("u"), Password: sp("secret"), Host: "h", Port: 2121, DefaultPort: 21},
			true, "/", "ftp://u:****@h:2121/"},
		{URL{Scheme: "ftp", Authority: true, Host: "h", Port: 21}, false, "/", "ftp://h:21/"},
		{URL{Scheme: "ftp", Authority: true, User: sp(""), Host: "h"}, false, "/", "ftp://@h/"},
		{URL{Scheme: "http", Authority: true, Host: "2001:DB8:0:0:0:0:0:1", Port: 80, DefaultPort: 80}, false, "/", "http://[2001:db8::1]/"},
		{URL{Scheme: "news", Authority: true, Host: "h", Port: 119, DefaultPort: 119}, false, "/g", "news://h/g"},
		{URL{Scheme: "file", Authority: true}, false, "/etc", "file:///etc"},
		// No authority: the rest is the opaque part.
		{URL{Scheme: "mailto"}, false, "a@x", "mailto:a@x"},
		// The fragment: normalized, a void one dropped.
		{URL{Scheme: "news", Fragment: sp("%7e%41 b#")}, false, "g", "news:g#%7EA%20b%23"},
		{URL{Scheme: "news", Fragment: sp("")}, false, "g", "news:g"},
	}
	for _, tt := range tests {
		if got := FormatLocator(&tt.u, tt.redact, tt.rest); got != tt.want {
			t.Errorf("FormatLocator(%+v, %v, %q) = %q, want %q", tt.u, tt.redact, tt.rest, got, tt.want)
		}
	}
}

func TestCanonicalFragment(t *testing.T) {
	for _, tt := range []struct {
		frag *string
		want any
	}{
		{nil, nil},
		{sp(""), nil},
		{sp("top"), "top"},
		{sp("%7e%41"), "%7EA"},
		{sp("a b"), "a%20b"},
	} {
		u := &URL{Fragment: tt.frag}
		if got := strOrNil(u.CanonicalFragment()); got != tt.want {
			t.Errorf("CanonicalFragment of %v = %v, want %v", strOrNil(tt.frag), got, tt.want)
		}
	}
	u := &URL{Fragment: sp("top")}
	if u.CanonicalFragment() != u.Fragment {
		t.Error("CanonicalFragment copied a fragment already canonical")
	}
}

func TestNormalizeEscapes(t *testing.T) {
	letters := func(b byte) bool { return 'a' <= b && b <= 'z' }
	for _, tt := range []struct{ in, want string }{
		{"abc/;?", "abc/;?"},
		{"%61%2f%7e%41", "a%2F%7E%41"},
		{"a b~%", "a%20b%7E%25"},
		{"%e2%82%ac", "%E2%82%AC"},
	} {
		if got := NormalizeEscapes(tt.in, letters); got != tt.want {
			t.Errorf("NormalizeEscapes(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzCanonical(f *testing.F) {
	for _, tt := range canonicalTests {
		f.Add(tt.raw)
	}
	for _, tt := range equivalentTests {
		f.Add(tt.a)
		f.Add(tt.b)
	}
	for _, tt := range parseTests {
		f.Add(tt.raw)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		c, err := Canonical(raw)
		if err != nil {
			return
		}
		c2, err := Canonical(c)
		if err != nil {
			t.Fatalf("Canonical(%q) = %q, which fails: %v", raw, c, err)
		}
		if c2 != c {
			t.Fatalf("Canonical not idempotent: %q -> %q -> %q", raw, c, c2)
		}
		same, err := Equivalent(raw, c)
		if err != nil || !same {
			t.Fatalf("Equivalent(%q, %q) = %v, %v", raw, c, same, err)
		}
		u, _ := Parse(raw)
		if cu := CanonicalURL(u); cu != c {
			t.Fatalf("CanonicalURL(Parse(%q)) = %q, Canonical = %q", raw, cu, c)
		}
	})
}
