package mirror

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// TestShardOfGolden: the partition is the same on every run and every
// machine. The table was checked against the shell:
// printf %s PATH | sha256sum, the first 16 hex digits modulo 4.
func TestShardOfGolden(t *testing.T) {
	for _, c := range []struct {
		path  string
		shard int
	}{
		{"README", 2},
		{"pub/README", 1},
		{"pub/linux/kernel.tar.gz", 2},
		{"a #b;c%20.txt", 2},
		{"sub/deeper/deep.txt", 3},
		{"dir/index.html", 1},
		{"ünïcode/名前.txt", 2},
		{"x", 0},
	} {
		if got := ShardOf(c.path, 4); got != c.shard {
			t.Errorf("ShardOf(%q, 4) = %d, want %d", c.path, got, c.shard)
		}
		for i := range 4 {
			if own := (Shard{Index: i, Count: 4}).Owns(c.path); own != (i == c.shard) {
				t.Errorf("shard %d/4 owns %q: %v", i, c.path, own)
			}
		}
	}
	if !(Shard{}).Owns("anything") || !(Shard{Index: 0, Count: 1}).Owns("anything") {
		t.Error("an unsplit run does not own everything")
	}
}

// TestShardBalanced: 10,000 paths of a real-looking tree fall within
// ±10 % of an equal share in each shard, for a few counts.
func TestShardBalanced(t *testing.T) {
	var paths []string
	for d := range 100 {
		for f := range 100 {
			paths = append(paths, fmt.Sprintf("pub/dir%03d/file%05d.dat", d, d*100+f))
		}
	}
	for _, n := range []int{2, 3, 4, 7, 16} {
		count := make([]int, n)
		for _, p := range paths {
			count[ShardOf(p, n)]++
		}
		share := float64(len(paths)) / float64(n)
		for i, c := range count {
			if float64(c) < share*0.9 || float64(c) > share*1.1 {
				t.Errorf("N=%d: shard %d has %d of %d paths, want %.0f ±10 %%", n, i, c, len(paths), share)
			}
		}
	}
}

// TestParseShard: I/N from 0, errors that say what is wrong and name no
// flag.
func TestParseShard(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Shard
		err  string
	}{
		{"0/4", Shard{0, 4}, ""},
		{"3/4", Shard{3, 4}, ""},
		{"0/1", Shard{0, 1}, ""},
		{"4/4", Shard{}, "counts from 0 and must be less than the count (0 to 3)"},
		{"-1/4", Shard{}, "counts from 0"},
		{"1/0", Shard{}, "the count must be 1 or more"},
		{"1", Shard{}, "want I/N"},
		{"a/4", Shard{}, `the index "a" is not a number`},
		{"1/b", Shard{}, `the count "b" is not a number`},
		{"+1/4", Shard{}, "not a number"},
		{"", Shard{}, "want I/N"},
	} {
		got, err := ParseShard(c.in)
		switch {
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("ParseShard(%q) = %v, %v; want %v", c.in, got, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("ParseShard(%q) error %v, want one saying %q", c.in, err, c.err)
		case err != nil && strings.Contains(err.Error(), "--"):
			t.Errorf("ParseShard(%q) error %q names a flag", c.in, err)
		}
		if err == nil && got.String() != c.in {
			t.Errorf("ParseShard(%q).String() = %q", c.in, got.String())
		}
	}
	if _, err := Run(t.Context(), newTree(sampleTree()).client(), "tree://h/", t.TempDir(), Options{Shard: Shard{Index: 5, Count: 2}}); err == nil {
		t.Error("Run took shard 5/2")
	}
}

// wideTree is a tree of n files over a few directories, nested.
func wideTree(n int) *node {
	root := dirNode("")
	dirs := []*node{root}
	for i := range 6 {
		d := dirNode(fmt.Sprintf("d%d", i))
		dirs[len(dirs)/2].children = append(dirs[len(dirs)/2].children, d)
		dirs = append(dirs, d)
	}
	for i := range n {
		d := dirs[i%len(dirs)]
		d.children = append(d.children, fileNode(fmt.Sprintf("f%04d.txt", i), fmt.Sprintf("file %d\n", i)))
	}
	return root
}

// TestShardPlansUnion: the plans of the four shards of a tree, put
// together, are the plan of one unsplit run, and no file is in two; each
// skip is reported by the shard owning its path alone, so the shards'
// skips add up to the run's.
func TestShardPlansUnion(t *testing.T) {
	root := wideTree(300)
	for i := range 40 { // skipped by every run, reported by one shard
		root.children = append(root.children, fileNode(fmt.Sprintf("x%02d.skip", i), "x"))
	}
	h := newTree(root)
	dst := t.TempDir()
	opt := Options{DryRun: true, Exclude: []string{"*.skip"}}
	wsum, whole, err := run(t, h, dst, opt)
	if err != nil {
		t.Fatal(err)
	}
	want := whole.paths(EventGet)
	owner := map[string]int{}
	skipped := 0
	for i := range 4 {
		sh := Shard{Index: i, Count: 4}
		opt.Shard = sh
		sum, ev, err := run(t, h, dst, opt)
		if err != nil {
			t.Fatal(err)
		}
		mine := ev.paths(EventGet)
		for _, p := range mine {
			if o, ok := owner[p]; ok {
				t.Errorf("%s planned by shards %d and %d", p, o, i)
			}
			owner[p] = i
			if !sh.Owns(p) {
				t.Errorf("shard %v planned %s, which is shard %d's", sh, p, ShardOf(p, 4))
			}
		}
		if sum.Got != len(mine) || sum.Got+sum.Others != len(want) || sum.Shard != sh.String() || sum.Listed != wsum.Listed {
			t.Errorf("shard %v: summary %+v, %d planned of %d", sh, sum, len(mine), len(want))
		}
		skipped += sum.Skipped
		for _, p := range ev.paths(EventSkip) {
			if !sh.Owns(p) {
				t.Errorf("shard %v reported the skip of %s, shard %d's", sh, p, ShardOf(p, 4))
			}
		}
		for _, e := range ev.all {
			if e.Shard != sh {
				t.Errorf("event %+v does not carry shard %v", e, sh)
				break
			}
		}
	}
	if skipped != wsum.Skipped || skipped != 40 {
		t.Errorf("the shards skipped %d, one run %d, want 40", skipped, wsum.Skipped)
	}
	var union []string
	for p := range owner {
		union = append(union, p)
	}
	sort.Strings(union)
	if strings.Join(union, " ") != strings.Join(want, " ") {
		t.Errorf("the shards planned %d files, one run %d:\n%v\n%v", len(union), len(want), union, want)
	}
}

// TestShardsAtOnce: four shards running at once into one directory make
// the tree one run makes, each file fetched once in all.
func TestShardsAtOnce(t *testing.T) {
	h := newTree(wideTree(300))
	one := t.TempDir()
	if _, _, err := run(t, newTree(wideTree(300)), one, Options{}); err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	shardsAtOnce(t, h, dst, 4)
	sameTree(t, dst, one)
	h.mu.Lock()
	defer h.mu.Unlock()
	for p, n := range h.fetch {
		if n != 1 {
			t.Errorf("%s fetched %d times", p, n)
		}
	}
	if len(h.fetch) != 300 {
		t.Errorf("%d files fetched, want 300", len(h.fetch))
	}
}

// TestShardDeletesOnlyItsOwn: with Delete, a stale file is deleted by its
// owner alone; a stale directory holding several shards' files is emptied
// by them and removed, once, by the last of them (one round of the shards
// leaves what one unsplit run leaves); no shard deletes another's file.
func TestShardDeletesOnlyItsOwn(t *testing.T) {
	h := newTree(wideTree(60))
	dst := t.TempDir()
	if _, _, err := run(t, h, dst, Options{}); err != nil {
		t.Fatal(err)
	}
	want := tree(t, dst)
	stale := []string{"stale0", "stale1", "d0/d1/stale2", "d1/stale3", "gone/a", "gone/b", "gone/c", "gone/d", "gone/e", "gone/deeper/f", "gone/deeper/g"}
	for _, p := range stale {
		os.MkdirAll(filepath.Join(dst, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(dst, p), []byte("s"), 0o644)
	}
	deletedBy := map[string][]int{}
	isDir := map[string]bool{"gone": true, "gone/deeper": true, "d1": true}
	for round := range 2 {
		for i := range 4 {
			sh := Shard{Index: i, Count: 4}
			sum, ev, err := run(t, h, dst, Options{Delete: true, Shard: sh})
			if err != nil {
				t.Fatalf("round %d shard %v: %v\n%s", round, sh, err, ev)
			}
			n := 0
			for _, e := range ev.all {
				if e.Type != EventDelete {
					continue
				}
				n++
				deletedBy[e.Path] = append(deletedBy[e.Path], i)
				if !isDir[e.Path] && !sh.Owns(e.Path) {
					t.Errorf("shard %v deleted %s, shard %d's", sh, e.Path, ShardOf(e.Path, 4))
				}
			}
			if sum.Deleted != n || sum.Got != 0 || round == 1 && n != 0 {
				t.Errorf("shard %v: summary %+v, %d deletions", sh, sum, n)
			}
		}
		if round == 0 {
			if got := tree(t, dst); keys(got) != keys(want) {
				t.Errorf("after one round\n%s\nwant\n%s", keys(got), keys(want))
			}
		}
	}
	for _, p := range stale {
		if by := deletedBy[p]; len(by) != 1 {
			t.Errorf("%s deleted by shards %v, want one", p, by)
		}
	}
	for d := range isDir {
		if by := deletedBy[d]; len(by) != 1 {
			t.Errorf("directory %s removed by shards %v, want one", d, by)
		}
	}
}

// TestShardLocks: the shards of one split run into one directory
// together, but one shard twice does not, nor an unsplit run or a shard
// of another count beside them (their shares overlap).
func TestShardLocks(t *testing.T) {
	dst := t.TempDir()
	open := func(s Shard) (*local, error) { return openLocal(dst, ShardLockName(s)) }
	a, err := open(Shard{Index: 0, Count: 2})
	if err != nil {
		t.Fatal(err)
	}
	b, err := open(Shard{Index: 1, Count: 2})
	if err != nil {
		t.Fatalf("shard 1/2 kept out by 0/2: %v", err)
	}
	b.close()
	for _, s := range []Shard{{Index: 0, Count: 2}, {}, {Index: 0, Count: 1}, {Index: 1, Count: 4}, {Index: 0, Count: 20}} {
		if l, err := open(s); err == nil {
			l.close()
			t.Errorf("shard %q ran beside 0/2", s)
		} else if !strings.Contains(err.Error(), "is in use by another urlget mirror") {
			t.Errorf("shard %q: %v", s, err)
		}
	}
	a.close()
	whole, err := open(Shard{})
	if err != nil {
		t.Fatalf("an unsplit run kept out once the shards ended: %v", err)
	}
	if l, err := open(Shard{Index: 1, Count: 2}); err == nil {
		l.close()
		t.Error("shard 1/2 ran beside an unsplit run")
	}
	whole.close()
	// A lock file no run holds (a crashed shard's) keeps nobody out.
	os.WriteFile(filepath.Join(dst, ShardLockName(Shard{Index: 3, Count: 4})), nil, 0o644)
	if l, err := open(Shard{}); err != nil {
		t.Errorf("a crashed shard's lock file kept an unsplit run out: %v", err)
	} else {
		l.close()
	}
	if ShardLockName(Shard{Index: 0, Count: 1}) != LockName {
		t.Error("shard 0/1, the whole mirror, does not exclude an unsplit run")
	}
	if !reserved(ShardLockName(Shard{Index: 0, Count: 2})) {
		t.Error("a shard's lock file is not the mirror's own")
	}
}

// shardsAtOnce runs the n shards of a mirror of h into dst at once, and
// returns their events; each must succeed.
func shardsAtOnce(t *testing.T, h *treeHandler, dst string, n int) []*events {
	t.Helper()
	var wg sync.WaitGroup
	evs, errs := make([]*events, n), make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, evs[i], errs[i] = run(t, h, dst, Options{Shard: Shard{Index: i, Count: n}})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("shard %d/%d: %v\n%s", i, n, err, evs[i])
		}
	}
	return evs
}

// sameTree fails t unless the local trees dir and want hold the same
// files, directories and contents.
func sameTree(t *testing.T, dir, want string) {
	t.Helper()
	g, w := tree(t, dir), tree(t, want)
	if keys(g) != keys(w) {
		t.Fatalf("the shards made\n%s\none run\n%s", keys(g), keys(w))
	}
	for k, v := range w {
		if g[k] != v {
			t.Errorf("%s holds %q, want %q", k, g[k], v)
		}
	}
}
