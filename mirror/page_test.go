package mirror

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

// pagesTree is sampleTree served as a crawl whose directories are pages
// (as HTML index pages are).
func pagesTree() *treeHandler {
	h := newTree(sampleTree())
	h.caps = schemes.Crawls | schemes.Pages
	return h
}

// pagesOf are the index.html files a run of sampleTree keeps, one for
// each directory.
var pagesOf = []string{PageName, "sub/" + PageName, "sub/deeper/" + PageName, "emptydir/" + PageName}

// TestMirrorKeepsPages: each directory's page is kept as DIR/index.html,
// byte for byte, the empty directory's too, without a request of its own;
// a second run replaces none and deletes none (Delete), and leaves their
// times; a page that changed replaces its copy alone.
func TestMirrorKeepsPages(t *testing.T) {
	h := pagesTree()
	dst := t.TempDir()
	sum, ev, err := run(t, h, dst, Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, ev)
	}
	got := tree(t, dst)
	for _, p := range pagesOf {
		if !strings.HasPrefix(got[p], "<h1>index of ") || !strings.HasSuffix(got[p], "</html>\n") {
			t.Errorf("%s holds %q", p, got[p])
		}
		if e := ev.find(EventGet, p); len(e) != 1 || e[0].Reason != reasonPageNew {
			t.Errorf("%s: events %v", p, e)
		}
	}
	if got["sub/"+PageName] != "<h1>index of sub</h1>\n<a>one.bin</a>\n<a>deeper</a>\n</html>\n" {
		t.Errorf("sub's page %q", got["sub/"+PageName])
	}
	if sum.Got != 5+len(pagesOf) || h.fetches("") != 0 || h.fetches("sub/") != 0 {
		t.Errorf("summary %+v, %d fetches of the top page\n%s", sum, h.fetches(""), ev)
	}
	old := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, p := range pagesOf {
		os.Chtimes(filepath.Join(dst, p), old, old)
	}

	sum, ev, err = run(t, h, dst, Options{Delete: true})
	if err != nil || sum.Got != 0 || sum.Deleted != 0 || sum.Unchanged != 5+len(pagesOf) {
		t.Fatalf("second run: %v, summary %+v\n%s", err, sum, ev)
	}
	for _, p := range pagesOf {
		if st, _ := os.Stat(filepath.Join(dst, p)); !st.ModTime().Equal(old) {
			t.Errorf("%s was written again: time %v", p, st.ModTime())
		}
	}

	h.find("sub").page = "<h1>sub, changed</h1>\n"
	sum, ev, err = run(t, h, dst, Options{Delete: true})
	if err != nil || sum.Got != 1 || len(ev.find(EventGet, "sub/"+PageName)) != 1 {
		t.Fatalf("after a change: %v, summary %+v\n%s", err, sum, ev)
	}
	if b, _ := os.ReadFile(filepath.Join(dst, "sub", PageName)); string(b) != "<h1>sub, changed</h1>\n" {
		t.Errorf("sub's page holds %q", b)
	}
	if e := ev.find(EventGet, "sub/"+PageName); e[0].Reason != reasonPageChanged {
		t.Errorf("reason %q", e[0].Reason)
	}
}

// TestMirrorPagesByCaps: a crawl whose containers are not pages (gopher
// menus: Crawls alone) and a file system's listings keep none.
func TestMirrorPagesByCaps(t *testing.T) {
	for _, caps := range []schemes.Caps{0, schemes.Crawls} {
		h := newTree(sampleTree())
		h.caps = caps
		dst := t.TempDir()
		if _, ev, err := run(t, h, dst, Options{}); err != nil {
			t.Fatalf("caps %v: %v\n%s", caps, err, ev)
		}
		if got := tree(t, dst); got[PageName] != "" || got["sub/"+PageName] != "" {
			t.Errorf("caps %v: pages kept: %s", caps, keys(got))
		}
	}
}

// TestMirrorNoIndexPages: NoIndexPages keeps none, and the pages an
// earlier run kept stay (Delete included), as excluded files do; so does
// an --exclude of them.
func TestMirrorNoIndexPages(t *testing.T) {
	h := pagesTree()
	dst := t.TempDir()
	if _, ev, err := run(t, h, dst, Options{NoIndexPages: true}); err != nil {
		t.Fatalf("%v\n%s", err, ev)
	}
	if got := tree(t, dst); got[PageName] != "" || len(got) != 8 {
		t.Fatalf("with NoIndexPages: %s", keys(got))
	}
	if _, ev, err := run(t, h, dst, Options{}); err != nil {
		t.Fatalf("%v\n%s", err, ev)
	}
	for _, opt := range []Options{{NoIndexPages: true, Delete: true}, {Exclude: []string{PageName}, Delete: true}} {
		sum, ev, err := run(t, h, dst, opt)
		if err != nil || sum.Deleted != 0 || sum.Got != 0 {
			t.Fatalf("%+v: %v, summary %+v\n%s", opt, err, sum, ev)
		}
		if got := tree(t, dst); len(got) != 8+len(pagesOf) {
			t.Errorf("%+v: %s", opt, keys(got))
		}
	}
}

// TestMirrorRealIndexHTML: a directory whose listing names a real
// index.html keeps that file, fetched as any file, not the page: one
// copy, and a second run fetches nothing. A page kept before in its place
// is replaced by the file.
func TestMirrorRealIndexHTML(t *testing.T) {
	h := pagesTree()
	dst := t.TempDir()
	if _, ev, err := run(t, h, dst, Options{}); err != nil {
		t.Fatalf("%v\n%s", err, ev)
	}
	sub := h.find("sub")
	sub.children = append(sub.children, fileNode(PageName, "<p>the real one</p>\n"))
	for i := range 2 {
		sum, ev, err := run(t, h, dst, Options{Delete: true})
		if err != nil || sum.Deleted != 0 || sum.Got != 1-i {
			t.Fatalf("run %d: %v, summary %+v\n%s", i, err, sum, ev)
		}
		if b, _ := os.ReadFile(filepath.Join(dst, "sub", PageName)); string(b) != "<p>the real one</p>\n" {
			t.Fatalf("run %d: sub/index.html holds %q\n%s", i, b, ev)
		}
	}
	if h.fetches("sub/"+PageName) != 1 {
		t.Errorf("the real index.html fetched %d times", h.fetches("sub/"+PageName))
	}
	if _, err := os.Stat(filepath.Join(dst, "sub", pageWork)); err == nil {
		t.Error("the page's work file was left")
	}
}

// TestMirrorPageOfACutListing: a listing cut short keeps no page and
// leaves no work file; the copy of an earlier run stays as it was.
func TestMirrorPageOfACutListing(t *testing.T) {
	h := pagesTree()
	dst := t.TempDir()
	h.failAt["sub/"] = 1
	if _, _, err := run(t, h, dst, Options{}); err == nil {
		t.Fatal("a cut listing succeeded")
	}
	if _, err := os.Stat(filepath.Join(dst, "sub", PageName)); err == nil {
		t.Error("the page of a cut listing was kept")
	}
	if _, err := os.Stat(filepath.Join(dst, "sub", pageWork)); err == nil {
		t.Error("the page's work file was left")
	}
	delete(h.failAt, "sub/")
	if _, ev, err := run(t, h, dst, Options{}); err != nil {
		t.Fatalf("%v\n%s", err, ev)
	}
	kept, _ := os.ReadFile(filepath.Join(dst, "sub", PageName))
	h.find("sub").page = "<h1>sub, changed</h1>\n<p>more</p>\n"
	h.failAt["sub/"] = 1
	run(t, h, dst, Options{})
	if b, _ := os.ReadFile(filepath.Join(dst, "sub", PageName)); string(b) != string(kept) {
		t.Errorf("a cut listing replaced the page: %q", b)
	}
}

// TestMirrorPageDryRun: a dry run says which pages would be fetched,
// and writes none; after a run, none.
func TestMirrorPageDryRun(t *testing.T) {
	h := pagesTree()
	dst := t.TempDir()
	sum, ev, err := run(t, h, dst, Options{DryRun: true})
	if err != nil || sum.Got != 5+len(pagesOf) || len(ev.find(EventGet, "sub/"+PageName)) != 1 {
		t.Fatalf("%v, summary %+v\n%s", err, sum, ev)
	}
	if got := tree(t, dst); len(got) != 0 {
		t.Fatalf("a dry run wrote %s", keys(got))
	}
	run(t, h, dst, Options{})
	h.find("sub").page = "<h1>sub, changed</h1>\n"
	sum, ev, err = run(t, h, dst, Options{DryRun: true})
	if err != nil || sum.Got != 1 || sum.Unchanged != 4+len(pagesOf) || len(ev.find(EventGet, "sub/"+PageName)) != 1 {
		t.Fatalf("after a run: %v, summary %+v\n%s", err, sum, ev)
	}
}

// TestMirrorPageHostile: a page larger than the Client's MaxFileSize is
// not kept (KindSafety) while the listing's entries are mirrored; a
// symbolic link or a directory where the page goes is never written
// through or replaced (KindLocal).
func TestMirrorPageHostile(t *testing.T) {
	h := pagesTree()
	h.find("sub").page = "<h1>" + strings.Repeat("x", 100) + "</h1>\n"
	dst := t.TempDir()
	c := h.client()
	c.MaxFileSize = 64
	ev := &events{}
	_, err := RunLocator(t.Context(), c, parseTree("tree://h/"), dst, Options{Events: ev.add})
	if schemes.KindOf(err) != schemes.KindSafety || len(ev.find(EventError, "sub/"+PageName)) != 1 {
		t.Fatalf("err %v\n%s", err, ev)
	}
	if got := tree(t, dst); got["sub/"+PageName] != "" || got["sub/one.bin"] != "\x00\x01\x02" {
		t.Fatalf("tree %s", keys(got))
	}

	h = pagesTree()
	dst = t.TempDir()
	outside := filepath.Join(t.TempDir(), "target")
	os.WriteFile(outside, []byte("mine\n"), 0o644)
	os.Symlink(outside, filepath.Join(dst, PageName))
	os.MkdirAll(filepath.Join(dst, "sub", PageName), 0o755)
	_, ev, err = run(t, h, dst, Options{})
	if schemes.KindOf(err) != schemes.KindLocal || len(ev.find(EventError, PageName)) != 1 ||
		len(ev.find(EventError, "sub/"+PageName)) != 1 {
		t.Fatalf("err %v\n%s", err, ev)
	}
	if b, _ := os.ReadFile(outside); string(b) != "mine\n" {
		t.Errorf("written through the link: %q", b)
	}
	if fi, err := os.Lstat(filepath.Join(dst, "sub", PageName)); err != nil || !fi.IsDir() {
		t.Errorf("the directory in the page's place: %v, %v", fi, err)
	}
}
