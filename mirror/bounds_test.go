package mirror

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlget/urlget/schemes"
)

// manyFiles is a directory node of n files "f000"….
func manyFiles(name string, n int) *node {
	d := dirNode(name)
	for i := range n {
		d.children = append(d.children, fileNode(fmt.Sprintf("f%03d", i), "x"))
	}
	return d
}

// dirsOfOneFile is a top directory of n directories "d0"… holding one
// file each.
func dirsOfOneFile(n int) *node {
	root := dirNode("")
	for i := range n {
		root.children = append(root.children, dirNode(fmt.Sprintf("d%d", i), fileNode("f", "f")))
	}
	return root
}

// TestMirrorShrinkGuard: a listing that names fewer than half of what is
// here, with more than a few deletions, deletes nothing and fails with
// KindSafety unless MaxDelete allows the deletions; a listing that drops
// a few entries deletes them.
func TestMirrorShrinkGuard(t *testing.T) {
	for _, tc := range []struct {
		name      string
		keep      int // files the second listing still names, of 12
		opt       Options
		deleted   int
		wantError bool
	}{
		{"two of twelve", 2, Options{Delete: true}, 0, true},
		{"five of twelve", 5, Options{Delete: true}, 0, true},
		{"six of twelve", 6, Options{Delete: true}, 6, false},
		{"two of twelve, max-delete 10", 2, Options{Delete: true, MaxDelete: 10, MaxDeleteSet: true}, 10, false},
		{"two of twelve, max-delete 9", 2, Options{Delete: true, MaxDelete: 9, MaxDeleteSet: true}, 0, true},
		{"nine of twelve", 9, Options{Delete: true}, 3, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := dirNode("", manyFiles("d", 12))
			h := newTree(root)
			dst := t.TempDir()
			if _, _, err := run(t, h, dst, Options{}); err != nil {
				t.Fatal(err)
			}
			d := h.find("/d/")
			d.children = d.children[:tc.keep]
			sum, ev, err := run(t, h, dst, tc.opt)
			if (err != nil) != tc.wantError || sum.Deleted != tc.deleted {
				t.Fatalf("err %v, %d deleted; want error %v, %d deleted\n%s", err, sum.Deleted, tc.wantError, tc.deleted, ev)
			}
			if tc.wantError && schemes.KindOf(err) != schemes.KindSafety && !strings.Contains(err.Error(), "max-delete") {
				t.Errorf("kind %v, want safety: %v", schemes.KindOf(err), err)
			}
			if n := len(tree(t, filepath.Join(dst, "d"))); n != 12-tc.deleted {
				t.Errorf("%d files left, want %d", n, 12-tc.deleted)
			}
		})
	}
}

// TestMirrorMaxEntries: a listing longer than MaxEntries is abandoned at
// the bound (what came before is fetched), nothing in that directory is
// deleted, and the run fails with KindSafety.
func TestMirrorMaxEntries(t *testing.T) {
	h := newTree(dirNode("", manyFiles("d", 30)))
	dst := t.TempDir()
	os.MkdirAll(filepath.Join(dst, "d"), 0o755)
	os.WriteFile(filepath.Join(dst, "d", "stale"), []byte("s"), 0o644)
	sum, ev, err := run(t, h, dst, Options{Delete: true, MaxEntries: 10})
	if schemes.KindOf(err) != schemes.KindSafety || !strings.Contains(err.Error(), "more than 10 entries") {
		t.Fatalf("err %v\n%s", err, ev)
	}
	if sum.Got != 10 {
		t.Errorf("%d fetched, want the 10 entries before the bound", sum.Got)
	}
	if _, ok := tree(t, dst)["d/stale"]; !ok || sum.Deleted != 0 {
		t.Errorf("deleted in a directory whose listing was abandoned\n%s", ev)
	}
}

// TestMirrorMaxListings: the walk stops after MaxListings listings, says
// so once as a failure (KindSafety) and skips the rest.
func TestMirrorMaxListings(t *testing.T) {
	h := newTree(dirsOfOneFile(6))
	sum, ev, err := run(t, h, t.TempDir(), Options{MaxListings: 3})
	var se *schemes.Error
	if !errors.As(err, &se) || se.Kind != schemes.KindSafety || se.Setting != SettingMaxListings || strings.Contains(err.Error(), "--") {
		t.Fatalf("err %v, want a safety failure naming the setting, and no flag\n%s", err, ev)
	}
	if sum.Listed != 3 || sum.Errors != 1 || sum.Got != 2 {
		t.Errorf("summary %+v, want 3 listed, 1 error, 2 fetched\n%s", sum, ev)
	}
	n := 0
	for _, e := range ev.all {
		if e.Bound == BoundListings && (e.Setting == SettingMaxListings || e.Type == EventError) {
			n++
		}
	}
	if n != 4 {
		t.Errorf("%d events name the bound, want 4 (one error, three skips)\n%s", n, ev)
	}
}

// TestMirrorQueueBounded: with one worker and a queue of two files, a
// listing of forty files still mirrors them all: the listing worker
// fetches from the full queue itself rather than wait for a worker that
// is not there.
func TestMirrorQueueBounded(t *testing.T) {
	defer func(n int) { maxQueued = n }(maxQueued)
	maxQueued = 2
	for _, parallel := range []int{1, 2, 5} {
		t.Run(fmt.Sprint(parallel), func(t *testing.T) {
			h := newTree(dirNode("", manyFiles("a", 40), manyFiles("b", 40)))
			dst := t.TempDir()
			sum, ev, err := run(t, h, dst, Options{Parallel: parallel})
			if err != nil || sum.Got != 80 || len(tree(t, dst)) != 82 {
				t.Fatalf("err %v, summary %+v\n%s", err, sum, ev)
			}
		})
	}
}

// TestMirrorNameClash: a name that was a file (whose transfer was cut,
// leaving its work file) and is now a directory leaves no work file
// behind; nor does a listing that names a file and a directory alike.
func TestMirrorNameClash(t *testing.T) {
	h := newTree(dirNode("", fileNode("x", strings.Repeat("x", 100))))
	h.cut["x"] = 10
	dst := t.TempDir()
	if _, _, err := run(t, h, dst, Options{}); err == nil {
		t.Fatal("the cut transfer did not fail")
	}
	if _, ok := tree(t, dst)["x"+WorkSuffix]; !ok {
		t.Fatal("the cut transfer kept no work file")
	}
	h.root.children = []*node{fileNode("x", "file"), dirNode("x", fileNode("in", "in"))}
	_, ev, err := run(t, h, dst, Options{Parallel: 1})
	if err == nil {
		t.Fatalf("no error for the clash\n%s", ev)
	}
	got := tree(t, dst)
	for p := range got {
		if strings.HasSuffix(p, WorkSuffix) {
			t.Errorf("%s left behind\n%s", p, ev)
		}
	}
	if got["x/in"] != "in" {
		t.Errorf("the directory was not mirrored: %v", got)
	}
}

// TestMirrorNameTooLong: a name longer than the local file system takes
// is skipped and said so, and the run succeeds.
func TestMirrorNameTooLong(t *testing.T) {
	long := strings.Repeat("n", 300)
	h := newTree(dirNode("", fileNode(long, "x"), fileNode("ok", "y")))
	sum, ev, err := run(t, h, t.TempDir(), Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, ev)
	}
	skips := ev.find(EventSkip, long)
	if sum.Got != 1 || len(skips) != 1 || !strings.Contains(skips[0].Reason, "too long") {
		t.Fatalf("summary %+v\n%s", sum, ev)
	}
}

// TestMirrorPartialKeptHint: a transfer cut short keeps its work file and
// says to run the mirror again, not the command's -C -.
func TestMirrorPartialKeptHint(t *testing.T) {
	h := newTree(dirNode("", fileNode("big", strings.Repeat("b", 100))))
	h.cut["big"] = 10
	_, ev, err := run(t, h, t.TempDir(), Options{})
	var se *schemes.Error
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "run the mirror again") || strings.Contains(err.Error(), "-C -") {
		t.Fatalf("err %v\n%s", err, ev)
	}
}

// TestMirrorMaxVisited: a run keeps track of at most maxVisited URLs;
// past it the walk stops, said once as a failure (KindSafety), and what
// comes after is skipped, not walked untracked.
func TestMirrorMaxVisited(t *testing.T) {
	defer func(n int) { maxVisited = n }(maxVisited)
	maxVisited = 3 // the start and two directories
	h := newTree(dirsOfOneFile(5))
	sum, ev, err := run(t, h, t.TempDir(), Options{Parallel: 1})
	if schemes.KindOf(err) != schemes.KindSafety || !strings.Contains(err.Error(), "after 3 URLs") {
		t.Fatalf("err %v\n%s", err, ev)
	}
	if sum.Listed != 3 || sum.Errors != 1 || sum.Skipped != 2 {
		t.Errorf("summary %+v, want 3 listed, 1 error, 2 skipped\n%s", sum, ev)
	}
}

// TestMirrorCrawlsByCaps: whether a tree is crawled is the scheme's
// Crawls capability, not its name: crawled, an entry whose URL is another
// file's is that file (fetched once, placed by its URL), and the walk
// stops at DefaultCrawlDepth links; listed as a file system, the entry is
// fetched into its own name and the depth is unlimited.
func TestMirrorCrawlsByCaps(t *testing.T) {
	mk := func() *node {
		deep := dirNode("")
		d := deep
		for i := range DefaultCrawlDepth + 2 {
			next := dirNode(fmt.Sprintf("l%d", i))
			d.children = append(d.children, next)
			d = next
		}
		deep.children = append(deep.children, fileNode("f", "f\n"), &node{name: "same-file", url: "tree://h/f"})
		return deep
	}
	for _, tc := range []struct {
		caps    schemes.Caps
		fetches int
		listed  int
	}{
		{0, 2, DefaultCrawlDepth + 3},
		{schemes.Crawls, 1, DefaultCrawlDepth + 1},
	} {
		h := newTree(mk())
		h.caps = tc.caps
		sum, ev, err := run(t, h, t.TempDir(), Options{})
		if err != nil {
			t.Fatalf("caps %v: %v\n%s", tc.caps, err, ev)
		}
		if h.fetches("f") != tc.fetches || sum.Listed != tc.listed {
			t.Errorf("caps %v: %d fetches of f, %d listed; want %d, %d\n%s", tc.caps, h.fetches("f"), sum.Listed,
				tc.fetches, tc.listed, ev)
		}
	}
}
