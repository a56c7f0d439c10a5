package mirror

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/internal/lockfile"
	"github.com/urlget/urlget/schemes"
)

var (
	t1 = time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	t2 = time.Date(2021, 6, 7, 8, 9, 10, 0, time.UTC)
)

func dirNode(name string, children ...*node) *node {
	return &node{name: name, dir: true, children: children}
}
func fileNode(name, data string) *node { return &node{name: name, data: data, mod: t1} }

// sampleTree has files at three levels, a zero-byte file and names with
// space, '#', ';' and '%'.
func sampleTree() *node {
	return dirNode("",
		fileNode("README", "read me\n"),
		fileNode("empty", ""),
		fileNode("a #b;c%20.txt", "odd name\n"),
		dirNode("sub",
			fileNode("one.bin", "\x00\x01\x02"),
			dirNode("deeper", fileNode("deep.txt", "deep\n")),
		),
		dirNode("emptydir"),
	)
}

// tree reads a local directory as path -> content ("/" suffix for
// directories), leaving out the mirror's lock.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case rel == "." || rel == LockName:
		case d.IsDir():
			out[rel+"/"] = ""
		case d.Type()&os.ModeSymlink != 0:
			out[rel] = "-> symlink"
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			out[rel] = string(b)
		}
		return nil
	})
	return out
}

func keys(m map[string]string) string {
	var k []string
	for key := range m {
		k = append(k, key)
	}
	sort.Strings(k)
	return strings.Join(k, " ")
}

func run(t *testing.T, h *treeHandler, dst string, opt Options) (*Summary, *events, error) {
	t.Helper()
	ev := &events{}
	opt.Events = ev.add
	sum, err := Run(context.Background(), h.client(), "tree://h/", dst, opt)
	return sum, ev, err
}

// TestMirrorFirstRunThenNothing: a first run copies every file byte for
// byte with the remote time, directories included (an empty one too);
// a second run fetches nothing.
func TestMirrorFirstRunThenNothing(t *testing.T) {
	h := newTree(sampleTree())
	dst := filepath.Join(t.TempDir(), "dst")
	sum, ev, err := run(t, h, dst, Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, ev)
	}
	want := map[string]string{"README": "read me\n", "empty": "", "a #b;c%20.txt": "odd name\n", "sub/": "",
		"sub/one.bin": "\x00\x01\x02", "sub/deeper/": "", "sub/deeper/deep.txt": "deep\n", "emptydir/": ""}
	got := tree(t, dst)
	if keys(got) != keys(want) {
		t.Fatalf("tree %s, want %s", keys(got), keys(want))
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s holds %q, want %q", k, got[k], v)
		}
	}
	if sum.Got != 5 || sum.Listed != 4 || sum.Errors != 0 {
		t.Errorf("summary %+v", sum)
	}
	st, _ := os.Stat(filepath.Join(dst, "sub/deeper/deep.txt"))
	if !st.ModTime().Equal(t1) {
		t.Errorf("deep.txt has time %v, want the remote's %v", st.ModTime(), t1)
	}
	before := h.totalFetches()
	sum, ev, err = run(t, h, dst, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if h.totalFetches() != before || sum.Got != 0 || sum.Unchanged != 5 {
		t.Fatalf("second run fetched %d files (summary %+v)\n%s", h.totalFetches()-before, sum, ev)
	}
}

// TestMirrorChangedNewRemoved: only a changed and a new file are fetched;
// a removed one goes with Delete, and stays without.
func TestMirrorChangedNewRemoved(t *testing.T) {
	root := sampleTree()
	h := newTree(root)
	dst := t.TempDir()
	if _, _, err := run(t, h, dst, Options{}); err != nil {
		t.Fatal(err)
	}
	readme := root.children[0]
	readme.data, readme.mod = "read me, changed\n", t2
	sub := root.children[3]
	sub.children = append(sub.children, fileNode("new.txt", "new\n"))
	root.children = append(root.children[:1], root.children[2:]...) // "empty" removed
	before := map[string]int{"README": h.fetches("README"), "sub/new.txt": 0, "sub/one.bin": h.fetches("sub/one.bin")}
	sum, ev, err := run(t, h, dst, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if h.fetches("README") != before["README"]+1 || h.fetches("sub/new.txt") != 1 || h.fetches("sub/one.bin") != before["sub/one.bin"] {
		t.Fatalf("fetches: README %d, new %d, one.bin %d\n%s", h.fetches("README"), h.fetches("sub/new.txt"), h.fetches("sub/one.bin"), ev)
	}
	if sum.Got != 2 {
		t.Errorf("got %d, want 2", sum.Got)
	}
	got := tree(t, dst)
	if got["README"] != "read me, changed\n" || got["sub/new.txt"] != "new\n" {
		t.Errorf("tree %v", got)
	}
	if _, ok := got["empty"]; !ok {
		t.Error("a removed file was deleted without Delete")
	}
	sum, ev, err = run(t, h, dst, Options{Delete: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := tree(t, dst)["empty"]; ok || sum.Deleted != 1 || len(ev.find(EventDelete, "empty")) != 1 {
		t.Fatalf("Delete left the removed file (summary %+v)\n%s", sum, ev)
	}
}

// TestMirrorRefusesUnsafeNames: no listing can make the mirror write
// outside DST or over its own files; the good entry beside them is
// mirrored.
func TestMirrorRefusesUnsafeNames(t *testing.T) {
	bad := []string{"..", ".", "a/b", `a\b`, "x\x01y", "del\x7f", "f" + WorkSuffix, LockName}
	root := dirNode("", fileNode("good", "good\n"))
	for _, name := range bad {
		root.children = append(root.children, fileNode(name, "evil\n"))
	}
	root.children = append(root.children, &node{name: "dotdot", dir: true, url: "tree://h/../"})
	h := newTree(root)
	top := t.TempDir()
	dst := filepath.Join(top, "dst")
	sum, ev, err := run(t, h, dst, Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, ev)
	}
	got := tree(t, dst)
	if keys(got) != "good" {
		t.Fatalf("tree %s, want only good\n%s", keys(got), ev)
	}
	if entries, _ := os.ReadDir(top); len(entries) != 1 {
		t.Fatalf("%d entries beside dst", len(entries))
	}
	if sum.Skipped != len(bad)+1 {
		t.Errorf("%d skipped, want %d\n%s", sum.Skipped, len(bad)+1, ev)
	}
	if !strings.Contains(ev.String(), "outside the mirrored tree") {
		t.Errorf("no skip for the parent link:\n%s", ev)
	}
}

// TestMirrorNeverWritesThroughSymlink: a local symbolic link where a
// directory or a file goes is never followed (wget's CVE-2014-4877).
func TestMirrorNeverWritesThroughSymlink(t *testing.T) {
	h := newTree(sampleTree())
	top := t.TempDir()
	dst, outside := filepath.Join(top, "dst"), filepath.Join(top, "outside")
	os.MkdirAll(dst, 0o755)
	os.MkdirAll(outside, 0o755)
	os.Symlink(outside, filepath.Join(dst, "sub"))
	os.WriteFile(filepath.Join(outside, "target"), []byte("keep"), 0o644)
	os.Symlink(filepath.Join(outside, "target"), filepath.Join(dst, "README"))
	sum, ev, err := run(t, h, dst, Options{Delete: true})
	if err == nil {
		t.Fatalf("no error for the files under a linked directory\n%s", ev)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 1 {
		t.Fatalf("something was written outside: %v", entries)
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "target")); string(b) != "keep" {
		t.Fatalf("written through a link: %q", b)
	}
	if fi, _ := os.Lstat(filepath.Join(dst, "README")); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link at README was replaced")
	}
	if sum.Got < 2 {
		t.Errorf("the other files were not mirrored: %+v", sum)
	}
}

// TestMirrorLoopsAndScope: a directory reached twice is listed once; an
// entry outside the start's tree is not followed. A file-system listing
// (not a crawl) names each file by its place here: an entry whose URL is
// another file's is fetched into its own name.
func TestMirrorLoopsAndScope(t *testing.T) {
	root := dirNode("",
		dirNode("top",
			fileNode("f", "f\n"),
			&node{name: "again", dir: true, url: "tree://h/top/"},
			&node{name: "up", dir: true, url: "tree://h/"},
			&node{name: "other", dir: true, url: "tree://elsewhere/top/"},
			&node{name: "same-file", url: "tree://h/top/f"},
		),
	)
	h := newTree(root)
	ev := &events{}
	sum, err := Run(context.Background(), h.client(), "tree://h/top/", t.TempDir(), Options{Events: ev.add})
	if err != nil {
		t.Fatalf("%v\n%s", err, ev)
	}
	if h.lists["top/"] != 1 || h.lists[""] != 0 || h.fetches("top/f") != 2 {
		t.Fatalf("lists %v, fetches of f %d\n%s", h.lists, h.fetches("top/f"), ev)
	}
	if sum.Got != 2 {
		t.Errorf("summary %+v", sum)
	}
}

// TestMirrorDeleteSafety: nothing is deleted in a directory whose listing
// broke or held a line no parser understood, nor in one whose listing
// came back empty (unless MaxDeleteSet); MaxDelete stops everything.
func TestMirrorDeleteSafety(t *testing.T) {
	mk := func() *node {
		return dirNode("", dirNode("broken", fileNode("x", "x")), dirNode("raw", fileNode("y", "y")),
			dirNode("gone", fileNode("z", "z")), dirNode("ok", fileNode("w", "w")))
	}
	setup := func(t *testing.T) (*treeHandler, string) {
		root := mk()
		h := newTree(root)
		dst := t.TempDir()
		if _, _, err := run(t, h, dst, Options{}); err != nil {
			t.Fatal(err)
		}
		for _, d := range []string{"broken", "raw", "gone", "ok"} {
			os.WriteFile(filepath.Join(dst, d, "stale"), []byte("s"), 0o644)
		}
		h.failAt["broken/"] = 0
		h.raw["raw/"] = true
		h.find("/gone/").children = nil
		return h, dst
	}
	t.Run("per directory", func(t *testing.T) {
		h, dst := setup(t)
		sum, ev, err := run(t, h, dst, Options{Delete: true})
		if err == nil {
			t.Fatal("a broken listing is no error")
		}
		got := tree(t, dst)
		for _, keep := range []string{"broken/stale", "raw/stale", "gone/stale", "gone/z"} {
			if _, ok := got[keep]; !ok {
				t.Errorf("%s deleted\n%s", keep, ev)
			}
		}
		if _, ok := got["ok/stale"]; ok || sum.Deleted != 1 {
			t.Errorf("ok/stale not deleted (summary %+v)\n%s", sum, ev)
		}
		// The empty listing's refusal is an error, which the command
		// shows without -v, and the summary says deletions were held.
		if held := ev.find(EventError, "gone"); len(held) != 1 || schemes.KindOf(held[0].Err) != schemes.KindSafety ||
			!strings.Contains(held[0].Err.Error(), "the remote listing is empty and 2 entries are here: 2 deletions held back") {
			t.Errorf("no error event for gone/'s empty listing\n%s", ev)
		}
		if !strings.Contains(sum.NoDelete, "came back empty") {
			t.Errorf("NoDelete %q", sum.NoDelete)
		}
	})
	t.Run("empty listing with MaxDelete", func(t *testing.T) {
		h, dst := setup(t)
		if _, ev, _ := run(t, h, dst, Options{Delete: true, MaxDelete: 10, MaxDeleteSet: true}); len(ev.find(EventDelete, "gone/z")) != 1 {
			t.Fatalf("gone/ not emptied with --max-delete\n%s", ev)
		}
	})
	t.Run("more than MaxDelete", func(t *testing.T) {
		h, dst := setup(t)
		sum, ev, err := run(t, h, dst, Options{Delete: true, MaxDelete: 1, MaxDeleteSet: true})
		var se *schemes.Error
		if top := ev.find(EventError, ""); len(top) != 1 || !errors.As(top[0].Err, &se) || se.Setting != SettingMaxDelete ||
			err == nil || sum.Deleted != 0 || !strings.Contains(ev.String(), "more than the 1 allowed") {
			t.Fatalf("err %v, summary %+v\n%s", err, sum, ev)
		}
		if _, ok := tree(t, dst)["ok/stale"]; !ok {
			t.Fatal("deleted above MaxDelete")
		}
	})
}

// TestMirrorDryRun changes nothing and says what it would do.
func TestMirrorDryRun(t *testing.T) {
	h := newTree(sampleTree())
	dst := t.TempDir()
	os.WriteFile(filepath.Join(dst, "stale"), []byte("s"), 0o644)
	sum, ev, err := run(t, h, dst, Options{DryRun: true, Delete: true})
	if err != nil {
		t.Fatal(err)
	}
	if h.totalFetches() != 0 || keys(tree(t, dst)) != "stale" {
		t.Fatalf("a dry run changed something: %d fetches, tree %s", h.totalFetches(), keys(tree(t, dst)))
	}
	if d := ev.find(EventDelete, "stale"); len(d) != 1 || !d[0].DryRun || len(ev.find(EventGet, "sub/deeper/deep.txt")) != 1 {
		t.Fatalf("plan:\n%s", ev)
	}
	if sum.Got != 5 || !sum.DryRun {
		t.Errorf("summary %+v", sum)
	}
}

// TestMirrorLock: a second run into a directory in use fails at once.
func TestMirrorLock(t *testing.T) {
	dst := t.TempDir()
	f, err := os.Create(filepath.Join(dst, LockName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := lockfile.Lock(f); err != nil {
		t.Fatal(err)
	}
	_, _, err = run(t, newTree(sampleTree()), dst, Options{})
	if err == nil || !strings.Contains(err.Error(), "in use by another urlget mirror") {
		t.Fatalf("err %v", err)
	}
	if _, err := os.Lstat(filepath.Join(dst, LockName)); err != nil {
		t.Fatalf("a refused run removed the lock file of the run in progress: %v", err)
	}
}

// TestMirrorLockRemoved: a run leaves no lock file behind, whether it
// succeeds or fails, and a run started after one ended takes the lock.
func TestMirrorLockRemoved(t *testing.T) {
	dst := t.TempDir()
	h := newTree(sampleTree())
	if _, _, err := run(t, h, dst, Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(dst, LockName)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("%s left after a run: %v", LockName, err)
	}
	h.failAt["sub/"] = 0
	if _, _, err := run(t, h, dst, Options{}); err == nil {
		t.Fatal("a failed listing is no error")
	}
	if _, err := os.Lstat(filepath.Join(dst, LockName)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("%s left after a failed run: %v", LockName, err)
	}
}

// TestMirrorInterruptedContinues: a file cut short keeps its work file,
// which the next run continues to an identical tree; Delete never takes
// a work file.
func TestMirrorInterruptedContinues(t *testing.T) {
	root := dirNode("", fileNode("big", strings.Repeat("0123456789", 1000)), fileNode("small", "s"))
	h := newTree(root)
	h.cut["big"] = 4000
	dst := t.TempDir()
	if _, ev, err := run(t, h, dst, Options{Delete: true}); err == nil {
		t.Fatalf("a cut transfer is no error\n%s", ev)
	}
	part, err := os.ReadFile(filepath.Join(dst, "big"+WorkSuffix))
	if err != nil || len(part) != 4000 {
		t.Fatalf("work file: %d bytes, %v", len(part), err)
	}
	if _, err := os.Stat(filepath.Join(dst, "big")); err == nil {
		t.Fatal("a partial file under its final name")
	}
	if _, ev, err := run(t, h, dst, Options{Delete: true}); err != nil {
		t.Fatalf("%v\n%s", err, ev)
	}
	got := tree(t, dst)
	if got["big"] != root.children[0].data || keys(got) != "big small" {
		t.Fatalf("tree %s, big %d bytes", keys(got), len(got["big"]))
	}
}

// TestMirrorCompareWithoutSizeOrTime: an item listed with neither size
// nor time is fetched again each run, and replaces the local file only
// when its content changed (which then keeps its time otherwise).
func TestMirrorCompareWithoutSizeOrTime(t *testing.T) {
	item := &node{name: "item", data: "v1\n", noSize: true}
	h := newTree(dirNode("", item))
	dst := t.TempDir()
	if _, _, err := run(t, h, dst, Options{}); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dst, "item")
	old := time.Date(2019, 1, 1, 0, 0, 0, 0, time.UTC)
	os.Chtimes(p, old, old)
	sum, ev, err := run(t, h, dst, Options{})
	if err != nil || sum.Unchanged != 1 || h.fetches("item") != 2 || sum.Bytes != 3 {
		t.Fatalf("err %v, summary %+v, fetches %d\n%s", err, sum, h.fetches("item"), ev)
	}
	if st, _ := os.Stat(p); !st.ModTime().Equal(old) {
		t.Errorf("an unchanged item got a new time %v", st.ModTime())
	}
	item.data = "v2\n"
	if sum, _, _ := run(t, h, dst, Options{}); sum.Got != 1 {
		t.Fatalf("a changed item was not replaced: %+v", sum)
	}
	if b, _ := os.ReadFile(p); string(b) != "v2\n" {
		t.Fatalf("item holds %q", b)
	}
	if entries, _ := os.ReadDir(dst); len(entries) != 1 { // item alone: not even the lock
		t.Errorf("work files left: %v", entries)
	}
}

// TestMirrorPatternsAndDepth: Include/Exclude on relative paths and last
// segments, MaxDepth on levels below the top.
func TestMirrorPatternsAndDepth(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  Options
		want string
	}{
		{"exclude a directory", Options{Exclude: []string{"sub"}}, "README a #b;c%20.txt empty emptydir/"},
		{"include by last segment", Options{Include: []string{"*.txt"}}, "a #b;c%20.txt emptydir/ sub/ sub/deeper/ sub/deeper/deep.txt"},
		{"include by path", Options{Include: []string{"sub/*"}}, "emptydir/ sub/ sub/deeper/ sub/one.bin"},
		{"depth 1", Options{MaxDepth: 1}, "README a #b;c%20.txt empty emptydir/ sub/ sub/one.bin"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dst := t.TempDir()
			if _, ev, err := run(t, newTree(sampleTree()), dst, tc.opt); err != nil {
				t.Fatalf("%v\n%s", err, ev)
			}
			if got := keys(tree(t, dst)); got != tc.want {
				t.Fatalf("tree %s, want %s", got, tc.want)
			}
		})
	}
}

// TestMirrorOptionsChecked: a bad pattern fails before anything starts.
func TestMirrorOptionsChecked(t *testing.T) {
	h := newTree(sampleTree())
	_, _, err := run(t, h, t.TempDir(), Options{Include: []string{"["}})
	if err == nil || h.lists[""] != 0 {
		t.Fatalf("err %v, lists %v", err, h.lists)
	}
	var f *Failed
	if errors.As(err, &f) {
		t.Fatal("a usage error reported as a failed mirror")
	}
}

// TestMirrorFollowSymlinks: without FollowSymlinks links are skipped;
// with it a link to a file inside the tree gets the file's bytes, a link
// to a directory not walked otherwise is walked under the link's name,
// and links to a directory walked anyway, to the top (a loop) or outside
// the tree are skipped.
func TestMirrorFollowSymlinks(t *testing.T) {
	mk := func() *node {
		return dirNode("",
			dirNode("sub", fileNode("one.bin", "one")),
			dirNode("hidden", fileNode("h.txt", "h")),
			&node{name: "to-file", link: true, data: "sub/one.bin"},
			&node{name: "to-sub", link: true, data: "sub"},
			&node{name: "loop", link: true, data: "."},
			&node{name: "out", link: true, data: "../../etc/passwd"},
			&node{name: "shown", link: true, data: "hidden"},
		)
	}
	dst := t.TempDir()
	if _, _, err := run(t, newTree(mk()), dst, Options{Exclude: []string{"hidden"}}); err != nil {
		t.Fatal(err)
	}
	if got := keys(tree(t, dst)); got != "sub/ sub/one.bin" {
		t.Fatalf("without FollowSymlinks: %s", got)
	}
	dst = t.TempDir()
	_, ev, err := run(t, newTree(mk()), dst, Options{Exclude: []string{"hidden"}, FollowSymlinks: true})
	if err != nil {
		t.Fatalf("%v\n%s", err, ev)
	}
	got := tree(t, dst)
	if keys(got) != "shown/ shown/h.txt sub/ sub/one.bin to-file" || got["to-file"] != "one" {
		t.Fatalf("tree %s\n%s", keys(got), ev)
	}
	for _, p := range []string{"to-sub", "loop", "out"} {
		if len(ev.find(EventSkip, p)) != 1 {
			t.Errorf("%s not skipped\n%s", p, ev)
		}
	}
}

// TestMirrorPlanned: Planned hears of every file planned, with the sizes
// listed, and last that the walk is over.
func TestMirrorPlanned(t *testing.T) {
	var plans []Plan
	opt := Options{Planned: func(p Plan) { plans = append(plans, p) }}
	if _, _, err := run(t, newTree(sampleTree()), t.TempDir(), opt); err != nil {
		t.Fatal(err)
	}
	want := Plan{Files: 5, Bytes: int64(len("read me\n") + len("odd name\n") + 3 + len("deep\n")), Walked: true}
	if len(plans) != 6 || plans[len(plans)-1] != want || plans[len(plans)-2].Walked {
		t.Fatalf("plans %+v, want 5 then %+v", plans, want)
	}
}

// TestMirrorLocalFailuresAreLocal: what the local tree is to blame for —
// a file where the remote has a directory, a directory where it has a
// file, a destination that cannot be made — is KindLocal (exit 23),
// naming the local path, never a remote failure's kind.
func TestMirrorLocalFailuresAreLocal(t *testing.T) {
	dst := t.TempDir()
	os.WriteFile(filepath.Join(dst, "sub"), []byte("a file"), 0o644) // the remote's sub/ is a directory
	os.Mkdir(filepath.Join(dst, "README"), 0o755)                    // the remote's README is a file
	_, ev, err := run(t, newTree(sampleTree()), dst, Options{})
	if schemes.KindOf(err) != schemes.KindLocal || schemes.KindOf(err).ExitCode() != 23 {
		t.Fatalf("err %v (%v), want KindLocal\n%s", err, schemes.KindOf(err), ev)
	}
	for path, want := range map[string]string{
		"sub":    "sub is in the way: it is a file, not a directory",
		"README": "README is a directory here, not a file",
	} {
		found := ev.find(EventError, path)
		if len(found) == 0 || schemes.KindOf(found[0].Err) != schemes.KindLocal || !strings.Contains(found[0].Err.Error(), want) {
			t.Errorf("%s: %v, want a local failure saying %q\n%s", path, found, want, ev)
		}
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	_, _, err = run(t, newTree(sampleTree()), filepath.Join(file, "dst"), Options{})
	if schemes.KindOf(err) != schemes.KindLocal || !strings.Contains(err.Error(), "cannot use the local directory "+filepath.Join(file, "dst")+": not a directory") {
		t.Errorf("a destination under a file: %v (%v)", err, schemes.KindOf(err))
	}
}

// TestMirrorPassesByWhatAsks: a file or directory whose server asks for
// input or an identity (schemes.Error.Asks: a gemini 1x or 6x) is
// skipped, not failed, and nothing it held here is deleted; the rest of
// the directory is mirrored and deleted from as ever. The start asking
// is a failure: it was named.
func TestMirrorPassesByWhatAsks(t *testing.T) {
	h := newTree(dirNode("", fileNode("a.txt", "a"), fileNode("form", "f"), dirNode("private", fileNode("x", "x"))))
	dst := t.TempDir()
	if _, ev, err := run(t, h, dst, Options{}); err != nil {
		t.Fatalf("%v\n%s", err, ev)
	}
	for _, p := range []string{"stale", "private/stale"} {
		os.WriteFile(filepath.Join(dst, p), []byte("s"), 0o644)
	}
	os.WriteFile(filepath.Join(dst, "form"), []byte("changed here"), 0o644)
	h.asks["form"], h.asks["private/"] = true, true
	sum, ev, err := run(t, h, dst, Options{Delete: true, Restart: true})
	if err != nil || sum.Errors != 0 || sum.Skipped != 2 || sum.Deleted != 1 {
		t.Fatalf("err %v, summary %+v\n%s", err, sum, ev)
	}
	got := tree(t, dst)
	if _, ok := got["stale"]; ok {
		t.Errorf("stale kept: the root's listing was whole\n%s", ev)
	}
	for p, want := range map[string]string{"form": "changed here", "private/x": "x", "private/stale": "s", "a.txt": "a"} {
		if got[p] != want {
			t.Errorf("%s holds %q, want %q\n%s", p, got[p], want, ev)
		}
	}
	for _, p := range []string{"form", "private"} {
		if skip := ev.find(EventSkip, p); len(skip) != 1 || !strings.HasPrefix(skip[0].Reason, ReasonAsks) {
			t.Errorf("%s: %+v, want a skip saying the server asks\n%s", p, skip, ev)
		}
	}

	h.asks[""] = true
	if sum, ev, err := run(t, h, dst, Options{}); err == nil || sum.Errors != 1 {
		t.Errorf("the start asking: err %v, summary %+v\n%s", err, sum, ev)
	}
}
