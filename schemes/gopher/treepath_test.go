package gopher

import (
	"testing"

	"github.com/urlget/urlget/schemes"
)

var _ schemes.TreePather = (*URL)(nil)

// TestTreePath: the place of a gopher URL is its gopher-path without the
// item type, the same for a menu and the items of its selector; with the
// type put back it is the URL's path again.
func TestTreePath(t *testing.T) {
	for _, tc := range []struct{ raw, want string }{
		{"gopher://h/", ""},
		{"gopher://h/1", ""},
		{"gopher://h/1/dir", "/dir"},
		{"gopher://h/0/dir/a%20b", "/dir/a%20b"},
		{"gopher://h/7/find%09words", "/find%09words"},
		{"gopher://h/1/m%09%09+", "/m%09%09+"},
	} {
		u, err := schemes.Parse(tc.raw)
		if err != nil {
			t.Fatal(err)
		}
		g, err := Parse(u)
		if err != nil {
			t.Fatalf("%s: %v", tc.raw, err)
		}
		if got := g.TreePath(); got != tc.want {
			t.Errorf("%s: TreePath %q, want %q", tc.raw, got, tc.want)
		}
		if back := "gopher://h/" + string(g.Type) + g.TreePath(); back != g.String() && g.String() != "gopher://h/" {
			t.Errorf("%s: %q with its type is not String %q", tc.raw, back, g.String())
		}
	}
}
