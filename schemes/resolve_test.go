package schemes

import "testing"

var resolveTests = []struct{ base, ref, want string }{
	// The draft's examples ("Partial (relative) form").
	{"magic://a/b/c//d/e/f", "g", "magic://a/b/c//d/e/g"},
	{"magic://a/b/c//d/e/f", "/g", "magic://a/g"},
	{"magic://a/b/c//d/e/f", "//g", "magic://g"},
	{"magic://a/b/c//d/e/f", "../g", "magic://a/b/c//d/g"},
	{"magic://a/b/c//d/e/f", "g:a", "g:a"},
	{"magic://a/b/c//d/e/", "g", "magic://a/b/c//d/e/g"},
	{"magic://a/b/c//d/e/", "/g", "magic://a/g"},
	{"magic://a/b/c//d/e/", "//g", "magic://g"},
	{"magic://a/b/c//d/e/", "../g", "magic://a/b/c//d/g"},
	{"magic://a/b/c//d/e/", "g:a", "g:a"},

	// RFC 3986 §5.4.1 normal examples.
	{"http://a/b/c/d;p?q", "g:h", "g:h"},
	{"http://a/b/c/d;p?q", "g", "http://a/b/c/g"},
	{"http://a/b/c/d;p?q", "./g", "http://a/b/c/g"},
	{"http://a/b/c/d;p?q", "g/", "http://a/b/c/g/"},
	{"http://a/b/c/d;p?q", "/g", "http://a/g"},
	{"http://a/b/c/d;p?q", "//g", "http://g"},
	{"http://a/b/c/d;p?q", "?y", "http://a/b/c/d;p?y"},
	{"http://a/b/c/d;p?q", "g?y", "http://a/b/c/g?y"},
	{"http://a/b/c/d;p?q", "#s", "http://a/b/c/d;p?q#s"},
	{"http://a/b/c/d;p?q", "g#s", "http://a/b/c/g#s"},
	{"http://a/b/c/d;p?q", "g?y#s", "http://a/b/c/g?y#s"},
	{"http://a/b/c/d;p?q", ";x", "http://a/b/c/;x"},
	{"http://a/b/c/d;p?q", "g;x", "http://a/b/c/g;x"},
	{"http://a/b/c/d;p?q", "g;x?y#s", "http://a/b/c/g;x?y#s"},
	{"http://a/b/c/d;p?q", "", "http://a/b/c/d;p?q"},
	{"http://a/b/c/d;p?q", ".", "http://a/b/c/"},
	{"http://a/b/c/d;p?q", "./", "http://a/b/c/"},
	{"http://a/b/c/d;p?q", "..", "http://a/b/"},
	{"http://a/b/c/d;p?q", "../", "http://a/b/"},
	{"http://a/b/c/d;p?q", "../g", "http://a/b/g"},
	{"http://a/b/c/d;p?q", "../..", "http://a/"},
	{"http://a/b/c/d;p?q", "../../", "http://a/"},
	{"http://a/b/c/d;p?q", "../../g", "http://a/g"},

	// RFC 3986 §5.4.2 abnormal examples.
	{"http://a/b/c/d;p?q", "../../../g", "http://a/g"},
	{"http://a/b/c/d;p?q", "../../../../g", "http://a/g"},
	{"http://a/b/c/d;p?q", "/./g", "http://a/g"},
	{"http://a/b/c/d;p?q", "/../g", "http://a/g"},
	{"http://a/b/c/d;p?q", "g.", "http://a/b/c/g."},
	{"http://a/b/c/d;p?q", ".g", "http://a/b/c/.g"},
	{"http://a/b/c/d;p?q", "g..", "http://a/b/c/g.."},
	{"http://a/b/c/d;p?q", "..g", "http://a/b/c/..g"},
	{"http://a/b/c/d;p?q", "./../g", "http://a/b/g"},
	{"http://a/b/c/d;p?q", "./g/.", "http://a/b/c/g/"},
	{"http://a/b/c/d;p?q", "g/./h", "http://a/b/c/g/h"},
	{"http://a/b/c/d;p?q", "g/../h", "http://a/b/c/h"},
	{"http://a/b/c/d;p?q", "g;x=1/./y", "http://a/b/c/g;x=1/y"},
	{"http://a/b/c/d;p?q", "g;x=1/../y", "http://a/b/c/y"},
	{"http://a/b/c/d;p?q", "g?y/./x", "http://a/b/c/g?y/./x"},
	{"http://a/b/c/d;p?q", "g?y/../x", "http://a/b/c/g?y/../x"},
	{"http://a/b/c/d;p?q", "g#s/./x", "http://a/b/c/g#s/./x"},
	{"http://a/b/c/d;p?q", "g#s/../x", "http://a/b/c/g#s/../x"},
	{"http://a/b/c/d;p?q", "http:g", "http:g"}, // strict parser

	// Empty paths, "?" and "#" corner cases.
	{"http://a", "g", "http://a/g"},
	{"http://a", "", "http://a"},
	{"http://a", "?q", "http://a?q"},
	{"http://a", "#f", "http://a#f"},
	{"http://a", ".", "http://a/"},
	{"http://a", "..", "http://a/"},
	{"http://a/", "?", "http://a/?"},
	{"http://a/b?q#f", "", "http://a/b?q"},
	{"http://a/b?q#f", "#", "http://a/b?q#"},
	{"http://a/b?q", "?", "http://a/b?"},
	{"http://a/b", "?", "http://a/b?"},
	{"http://a/b/", "g?", "http://a/b/g?"},
	{"http://a/b", "//", "http://"},
	{"http://a/b", "///g", "http:///g"},
	// Escapes are not decoded: %2F is no slash, %2E%2E no "..".
	{"http://a/b%2Fc/d", "g", "http://a/b%2Fc/g"},
	{"http://a/b/c/d", "%2E%2E/g", "http://a/b/c/%2E%2E/g"},
	{"http://a/b/c/d", "g h", "http://a/b/c/g%20h"},
	// Opaque bases (RFC 3986 strict: the path is merged as it stands).
	{"mailto:joe@example.com", "#f", "mailto:joe@example.com#f"},
	{"news:comp.infosystems.www", "comp.lang.go", "news:comp.lang.go"},
	// A path that would read as an authority gets "/.".
	{"x:/a/b", "..//g", "x:/.//g"},
	// Wrappers and other schemes.
	{"<URL:ftp://h/pub/a/b.txt>", "../c;type=d", "ftp://h/pub/c;type=d"},
	{"gopher://h/1/a/b", "c", "gopher://h/1/a/c"},
	{"http://a/b", "ftp://h/x", "ftp://h/x"},
	{"http://a/b/c", "1a:b", "1a:b"},
	{"http://a/b/c", "a b:c", "http://a/b/a%20b:c"},
	{"http://a/b/c", "./a:b", "http://a/b/a:b"},
}

func TestResolve(t *testing.T) {
	for _, tt := range resolveTests {
		got, err := Resolve(tt.base, tt.ref)
		if err != nil {
			t.Errorf("Resolve(%q, %q): %v", tt.base, tt.ref, err)
			continue
		}
		if got != tt.want {
			t.Errorf("Resolve(%q, %q) = %q, want %q", tt.base, tt.ref, got, tt.want)
		}
	}
}

func TestResolveErrors(t *testing.T) {
	for _, tt := range []struct{ base, ref, part string }{
		{"a/b", "g", "scheme"},
		{"/a/b", "g", "scheme"},
		{"", "g", "scheme"},
		{"http://a/%zz", "g", "url"},
		{"http://a/b", "%zz", "url"},
		{"news:12345667123%asdghfh@info.cern.ch", "x", "url"},
	} {
		got, err := Resolve(tt.base, tt.ref)
		if err == nil {
			t.Errorf("Resolve(%q, %q) = %q, want error", tt.base, tt.ref, got)
			continue
		}
		e, ok := err.(*Error)
		if !ok || e.Kind != KindUsage || e.Part != tt.part {
			t.Errorf("Resolve(%q, %q): %#v, want usage error on %s", tt.base, tt.ref, err, tt.part)
		}
	}
}

func TestRemoveDotSegments(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		// RFC 3986 §5.2.4's worked examples.
		{"/a/b/c/./../../g", "/a/g"},
		{"mid/content=5/../6", "mid/6"},
		{"", ""},
		{"/", "/"},
		{"/..", "/"},
		{"..", ""},
		{"../a", "a"},
		{"a/..", "/"},
		{"a/../..", "/"},
		{"//..", "/"},
		{"/a//../b", "/a/b"},
	} {
		if got := removeDotSegments(tt.in); got != tt.want {
			t.Errorf("removeDotSegments(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzResolve(f *testing.F) {
	for _, tt := range resolveTests {
		f.Add(tt.base, tt.ref)
	}
	f.Fuzz(func(t *testing.T, base, ref string) {
		got, err := Resolve(base, ref)
		if err != nil {
			return
		}
		// The result is absolute: resolving "" against it gives it back,
		// unless it has a fragment (dropped from a base).
		if splitRef(got).hasFragment {
			return
		}
		again, err := Resolve(got, "")
		if err != nil {
			t.Fatalf("Resolve(%q, %q) = %q, which is not a base: %v", base, ref, got, err)
		}
		if again != got {
			t.Fatalf("Resolve(%q, \"\") = %q, want itself", got, again)
		}
	})
}
