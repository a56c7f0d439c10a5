package ftp

import (
	"reflect"
	"testing"

	"github.com/urlget/urlget/schemes"
)

// TestEntryLocatorAsAt: the URLs a listing's entryLocator makes from the
// directory's escaped prefix are those at makes from the typed parts
// alone, for directories and names holding what must be escaped, each
// kind of entry and each typecode; and one entry's URL cannot change
// another's directory.
func TestEntryLocatorAsAt(t *testing.T) {
	for _, base := range []string{
		"ftp://u:pw@h.example/pub/",
		"ftp://h.example/a%2Fb/c%20d/;type=a",
		"ftp://h.example/%3Bx/;type=i",
		"ftp://h.example/;type=d",
		"ftp://h.example",
	} {
		loc, err := parse(t, base)
		if err != nil {
			t.Fatal(err)
		}
		for _, dir := range [][]string{loc.Cwd, append(append([]string(nil), loc.Cwd...), "sub dir", "%?#;")} {
			l := newEntryLocator(loc, dir)
			for _, name := range []string{"plain.txt", "with space", "a/b", "q?x#y;type=a", "ünï", "%41"} {
				for _, kind := range []schemes.EntryKind{schemes.EntryFile, schemes.EntryDir, schemes.EntryLink} {
					got, ok := l.locate(parsed{e: schemes.Entry{Kind: kind}, name: name, ok: true})
					if !ok {
						t.Fatalf("%s %q: not located", base, name)
					}
					var want *URL
					if kind == schemes.EntryDir {
						want = loc.at(append(append([]string(nil), dir...), name), "", 0)
					} else {
						typ := loc.Type
						if typ == 'd' {
							typ = 0
						}
						want = loc.at(append([]string(nil), dir...), name, typ)
					}
					g := got.Locator.(*URL)
					if g.String() != want.String() || !reflect.DeepEqual(g.Fields(), want.Fields()) || g.Redacted() != want.Redacted() {
						t.Errorf("%s in %q, %q (%v):\n got %s %+v\nwant %s %+v", base, dir, name, kind, g, g.Fields(), want, want.Fields())
					}
				}
			}
			// A directory entry's Cwd is its own: extending it leaves the
			// files' shared directory as it was.
			d, _ := l.locate(parsed{e: schemes.Entry{Kind: schemes.EntryDir}, name: "x", ok: true})
			f, _ := l.locate(parsed{e: schemes.Entry{Kind: schemes.EntryFile}, name: "y", ok: true})
			dc := d.Locator.(*URL).Cwd
			dc[len(dc)-1] = "changed"
			_ = append(f.Locator.(*URL).Cwd, "appended")
			if f2, _ := l.locate(parsed{e: schemes.Entry{Kind: schemes.EntryFile}, name: "y", ok: true}); !reflect.DeepEqual(f2.Locator.(*URL).Cwd, dir) && len(dir) > 0 {
				t.Errorf("the shared directory became %q", f2.Locator.(*URL).Cwd)
			}
		}
	}
}
