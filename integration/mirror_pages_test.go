//go:build integration

package integration

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/mirror"
)

// TestMirrorHTTPPages: `urlget mirror` of nginx's fixture tree keeps each
// directory's page as DIR/index.html, as `wget -m` does: the tree is the
// fixture's files plus one index.html a directory (site/'s the fixture's
// own page, byte for byte), and, when wget is installed (CI installs it),
// the same files with the same bytes as wget's. A second run with
// --delete fetches no file, replaces no page and deletes nothing;
// --no-index-pages keeps none.
func TestMirrorHTTPPages(t *testing.T) {
	testbed.Require(t, testbed.Nginx)
	src := fmt.Sprintf("http://%s/", testbed.Addr(testbed.HTTPPort))
	r := runTwin(t, urlgetBinary(t), "mirror", "-P", "8", "--exclude", testbed.ScratchDir, src, "tree")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	dst := filepath.Join(r.dir, "tree")
	got := hostTree(t, dst, mirror.LockName)

	// The fixed expectation: the fixture's files (the outside link is
	// nginx's /etc/hostname) and a page for each directory.
	fixtures := testbed.FixtureDir()
	want := hostTree(t, fixtures, testbed.ScratchDir, testbed.OutsideLink)
	pages := fixtureDirs(t, fixtures)
	for _, d := range pages {
		p := filepath.ToSlash(filepath.Join(d, mirror.PageName))
		if _, real := want[p]; real {
			continue // site/: nginx serves its index.html as the page
		}
		page, err := os.ReadFile(filepath.Join(dst, p))
		if err != nil || !strings.Contains(string(page), "<title>Index of /"+strings.TrimPrefix(d+"/", "./")+"</title>") {
			t.Errorf("%s: %v, not nginx's index of its directory: %.80q", p, err, page)
		}
		want[p] = got[p]
	}
	want[testbed.OutsideLink] = got[testbed.OutsideLink]
	sameTrees(t, got, want)

	t.Run("wget -m", func(t *testing.T) {
		wget, err := exec.LookPath("wget")
		if err != nil {
			if testbed.InCI() {
				t.Fatal("no wget to compare with (.ci/run installs it)")
			}
			t.Skip("no wget to compare with")
		}
		w := runTwin(t, wget, "-m", "-nH", "-q", "-X", "/"+testbed.ScratchDir, src)
		if w.code != 0 {
			t.Fatalf("wget exit %d: %s", w.code, w.stderr)
		}
		theirs := hostTree(t, w.dir)
		// wget decodes a name's escapes once more than the server's
		// (percent%2520literal.txt is saved as "percent literal.txt"):
		// the file is the same.
		if sum, ok := theirs["names/percent literal.txt"]; ok {
			delete(theirs, "names/percent literal.txt")
			theirs["names/percent%20literal.txt"] = sum
		}
		// The top page lists scratch/, whose time other tests change.
		if a, b := topPage(t, dst), topPage(t, w.dir); a != b {
			t.Errorf("the top pages differ beyond scratch/:\n%s\n%s", a, b)
		}
		delete(theirs, mirror.PageName)
		ours := maps.Clone(got)
		delete(ours, mirror.PageName)
		sameTrees(t, ours, theirs)
	})

	t.Run("second run", func(t *testing.T) {
		times := pageTimes(t, dst, pages)
		off := nginxSettled(t)
		out, code := runURLGetOutput(t, r.dir, "mirror", "--json", "--delete", "-P", "8", "--exclude", testbed.ScratchDir, src, "tree")
		sum := mirrorSummary(t, out)
		if code != 0 || sum.Got != 0 || sum.Deleted != 0 || sum.Errors != 0 || sum.Unchanged != len(want) {
			t.Errorf("exit %d, summary %+v; want %d unchanged", code, sum, len(want))
		}
		if gets := nginxGets(t, off); len(gets) != 0 {
			t.Errorf("GET %q", gets)
		}
		if after := pageTimes(t, dst, pages); !slices.Equal(after, times) {
			t.Errorf("pages written again: times %v, then %v", times, after)
		}
		sameTrees(t, hostTree(t, dst, mirror.LockName), want)
	})

	t.Run("--no-index-pages", func(t *testing.T) {
		r := runTwin(t, urlgetBinary(t), "mirror", "--no-index-pages", "--exclude", testbed.ScratchDir, src, "tree")
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		files := hostTree(t, filepath.Join(r.dir, "tree"), mirror.LockName)
		for p := range files {
			if filepath.Base(p) == mirror.PageName {
				t.Errorf("%s kept", p)
			}
		}
		if fi, err := os.Stat(filepath.Join(r.dir, "tree", "site")); err != nil || !fi.IsDir() {
			t.Errorf("site/: %v", err)
		}
		if len(files) != len(want)-len(pages) {
			t.Errorf("%d files, want %d", len(files), len(want)-len(pages))
		}
	})
}

// TestMirrorHTTPSitePage: the case. `urlget mirror` of site/,
// whose page links only outside it, keeps the page as index.html with
// the server's Last-Modified (site/ came out empty); `urlget ls` of it
// lists nothing, exits 0 as an empty directory does, and says why.
func TestMirrorHTTPSitePage(t *testing.T) {
	testbed.Require(t, testbed.Nginx)
	url := fmt.Sprintf("http://%s/site/", testbed.Addr(testbed.HTTPPort))
	r := runTwin(t, urlgetBinary(t), "mirror", url, "site")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	entries, _ := os.ReadDir(filepath.Join(r.dir, "site"))
	want, _ := os.ReadFile(filepath.Join(testbed.FixtureDir(), "site", mirror.PageName))
	page, err := os.ReadFile(filepath.Join(r.dir, "site", mirror.PageName))
	if err != nil || string(page) != string(want) || len(entries) != 1 {
		t.Fatalf("site/ holds %v; index.html %q (%v), want %q", entries, page, err, want)
	}
	if fi, _ := os.Stat(filepath.Join(r.dir, "site", mirror.PageName)); !fi.ModTime().Equal(testbed.FixtureModTime()) {
		t.Errorf("index.html has time %v, want the Last-Modified %v", fi.ModTime(), testbed.FixtureModTime())
	}
	ls := runTwin(t, urlgetBinary(t), "ls", url)
	if ls.code != 0 || ls.stdout != "" || !strings.Contains(ls.stderr, url+": no entries: the page links to nothing one level below it") {
		t.Errorf("ls: exit %d, stdout %q, stderr %q", ls.code, ls.stdout, ls.stderr)
	}
}

// TestMirrorDryRunLines: after a mirror of 60 files from nginx, a new,
// a changed and a removed file make a dry run with --delete print those
// three and the pages of the three directories they changed — nothing
// for the 58 unchanged files and the top page, which its summary counts
// and -v lists.
func TestMirrorDryRunLines(t *testing.T) {
	testbed.Require(t, testbed.Nginx)
	files := map[string]string{}
	for i := range 60 {
		files[fmt.Sprintf("d%d/f%02d.txt", i%3, i)] = "same\n"
	}
	host, rel := scratchTree(t, files)
	for _, d := range []string{"d0", "d1", "d2"} {
		os.Chtimes(filepath.Join(host, d), testbed.FixtureModTime(), testbed.FixtureModTime())
	}
	src := fmt.Sprintf("http://%s/%s/", testbed.Addr(testbed.HTTPPort), rel)
	work := t.TempDir()
	if r := runURLGet(t, work, "mirror", src, "dst"); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	writeScratch(t, host, "d1/new.txt", "new\n", testbed.FixtureModTime())
	writeScratch(t, host, "d2/f02.txt", "changed\n", testbed.FixtureModTime().Add(time.Hour))
	os.Remove(filepath.Join(host, "d0", "f03.txt"))
	for _, d := range []string{"d0", "d1", "d2"} { // the top page, which shows their times, stays the same
		os.Chtimes(filepath.Join(host, d), testbed.FixtureModTime(), testbed.FixtureModTime())
	}

	r := runTwin(t, urlgetBinary(t), "mirror", "--dry-run", "--delete", src, filepath.Join(work, "dst"))
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	slices.Sort(lines)
	want := []string{
		"would delete d0/f03.txt (not on the remote)",
		"would fetch  d0/index.html (index page: changed)",
		"would fetch  d1/index.html (index page: changed)",
		"would fetch  d1/new.txt (new)",
		"would fetch  d2/f02.txt (size differs (5 here, 8 there))",
		"would fetch  d2/index.html (index page: changed)",
	}
	if r.code != 0 || !slices.Equal(lines, want) {
		t.Fatalf("exit %d, stdout:\n%s\nwant:\n%s\nstderr %s", r.code, strings.Join(lines, "\n"), strings.Join(want, "\n"), r.stderr)
	}
	if !regexp.MustCompile(`dry run: would fetch 5 \(.*\), 59 unchanged, 0 skipped, would delete 1, 4 directories listed, 0 failed, in .*; -v lists the unchanged and skipped`).MatchString(r.stderr) {
		t.Errorf("summary: %s", r.stderr)
	}
	v := runTwin(t, urlgetBinary(t), "mirror", "--dry-run", "--delete", "-v", src, filepath.Join(work, "dst"))
	if n := strings.Count(v.stdout, " (unchanged)\n"); v.code != 0 || n != 59 {
		t.Errorf("-v: exit %d, %d unchanged listed:\n%s", v.code, n, v.stdout)
	}
}

// fixtureDirs are the directories of the fixture tree, "." for its top,
// the scratch directory left out.
func fixtureDirs(t *testing.T, root string) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if rel == testbed.ScratchDir {
			return filepath.SkipDir
		}
		dirs = append(dirs, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// pageTimes are the modification times of the pages of dirs under root.
func pageTimes(t *testing.T, root string, dirs []string) []time.Time {
	t.Helper()
	var out []time.Time
	for _, d := range dirs {
		fi, err := os.Stat(filepath.Join(root, d, mirror.PageName))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fi.ModTime())
	}
	return out
}

// topPage is the top directory's page under root without its line for
// scratch/, whose time the tests change.
func topPage(t *testing.T, root string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, mirror.PageName))
	if err != nil {
		t.Fatal(err)
	}
	var keep []string
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.Contains(l, `href="`+testbed.ScratchDir+`/"`) {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// mirrorSummary is the summary object of a mirror's --json output.
func mirrorSummary(t *testing.T, out string) mirror.Summary {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var sum mirror.Summary
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil {
		t.Fatalf("no summary: %v\n%s", err, out)
	}
	return sum
}
