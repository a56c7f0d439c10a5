package hostile

import (
	"strings"
	"sync/atomic"
)

// Tree is the small tree the cut-listing fakes serve (gopher, HTTP, FTP):
// at the top the directory d1, seven files a.bin … g.bin and the
// directory d2, in that order; in each directory two files. It is served
// whole until Cut; after that the top directory's listing names its
// first TreeCutAfter entries only and then stops as its protocol allows
// a cut to look (the connection closed at a line end): a client that
// believed it would delete the rest.
type Tree struct{ cut atomic.Bool }

// TreeCutAfter is how many of the top directory's entries a cut listing
// still names.
const TreeCutAfter = 2

// treeTop is the top directory's entries in listing order, directories
// with a trailing "/".
var treeTop = []string{"d1/", "a.bin", "b.bin", "c.bin", "d.bin", "e.bin", "f.bin", "g.bin", "d2/"}

// treeDirs holds the files of each directory below the top.
var treeDirs = map[string][]string{"d1": {"x.bin", "y.bin"}, "d2": {"x.bin", "y.bin"}}

// Cut makes the top directory's listing stop early from now on.
func (t *Tree) Cut() { t.cut.Store(true) }

// entries is the listing of dir ("" for the top, "d1" …; ok false for
// none), cut when the tree is; cut says whether it was.
func (t *Tree) entries(dir string) (names []string, cut, ok bool) {
	if dir == "" {
		if t.cut.Load() {
			return treeTop[:TreeCutAfter], true, true
		}
		return treeTop, false, true
	}
	names, ok = treeDirs[dir]
	return names, false, ok
}

// TreeFiles is every file of the tree by slash path, with its content.
func TreeFiles() map[string]string {
	files := map[string]string{}
	for _, n := range treeTop {
		if !strings.HasSuffix(n, "/") {
			files[n] = treeContent(n)
		}
	}
	for d, names := range treeDirs {
		for _, n := range names {
			files[d+"/"+n] = treeContent(d + "/" + n)
		}
	}
	return files
}

// treeContent is the content of the file at path p ("d1/x.bin").
func treeContent(p string) string { return "the content of " + p + "\n" }

// treeFile returns the content of the file at path p, ok false for none.
func treeFile(p string) (string, bool) {
	dir, name, found := strings.Cut(p, "/")
	if !found {
		dir, name = "", p
	}
	names, _, ok := (&Tree{}).entries(dir)
	if !ok {
		return "", false
	}
	for _, n := range names {
		if n == name {
			return treeContent(p), true
		}
	}
	return "", false
}
