package ftp

import (
	"testing"

	"github.com/urlget/urlget/schemes"
)

var _ schemes.TreePather = (*URL)(nil)

// TestTreePath: the place of an ftp URL is its path without ";type=", and
// with the type added back it is the URL's path again.
func TestTreePath(t *testing.T) {
	for _, tc := range []struct{ raw, want string }{
		{"ftp://h/", ""},
		{"ftp://h/pub/", "pub/"},
		{"ftp://h/pub/x;type=i", "pub/x"},
		{"ftp://h/pub/a%20b/x", "pub/a%20b/x"},
		{"ftp://h/%2Fetc/motd;type=a", "%2Fetc/motd"},
		{"ftp://h/d;type=d", "d"},
	} {
		u, err := schemes.Parse(tc.raw)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Parse(u)
		if err != nil {
			t.Fatalf("%s: %v", tc.raw, err)
		}
		if got := f.TreePath(); got != tc.want {
			t.Errorf("%s: TreePath %q, want %q", tc.raw, got, tc.want)
		}
		back := "ftp://h/" + f.TreePath()
		if f.Type != 0 {
			back += ";type=" + string(f.Type)
		}
		if back != f.String() {
			t.Errorf("%s: %q with its type is not String %q", tc.raw, back, f.String())
		}
	}
}
