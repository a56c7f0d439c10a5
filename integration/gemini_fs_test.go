//go:build integration

package integration

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlget/urlget/integration/testbed"
)

// TestFSFstestGemini runs fstest.TestFS on the FS of molly-brown's
// listings of the fixture tree (its pages of links for directories
// without an index.gmi): gemini is a crawl, so a directory is a page
// whose URL ends in "/", and its entries are its links one path segment
// below it on the same server (the ".." link is not one). fstest reads
// every file several times, each a connection and a TLS handshake of
// its own (gemini has no keep-alive), and gemini cannot start a body
// past its first byte: so it runs on the subtrees of small files, and
// many/ (2000 files) and bin/ (64 MiB among them) are only listed.
func TestFSFstestGemini(t *testing.T) {
	testbed.Require(t, testbed.Gemini)
	geminiHome(t)
	fsys := fsOfURL(t, fmt.Sprintf("gemini://%s/fixtures/", testbed.Host))
	all := fixturePaths(t, nil)
	for _, dir := range []string{"names", "nested", "text", "dir with space", "empty"} {
		var want []string
		for _, p := range all {
			if rest, ok := strings.CutPrefix(p, dir+"/"); ok {
				want = append(want, rest)
			}
		}
		sub, err := fs.Sub(fsys, dir)
		if err != nil {
			t.Fatal(err)
		}
		if allowed := fstestAllowing(t, sub, want); len(allowed) > 0 {
			t.Errorf("%s: errors %q", dir, allowed)
		}
	}
	for dir, n := range map[string]int{"many": 2000, "bin": 4} {
		if list, err := fs.ReadDir(fsys, dir); len(list) != n || err != nil {
			t.Errorf("%s: %d entries, %v; want %d", dir, len(list), err, n)
		}
	}
	b, err := fs.ReadFile(fsys, "text/lf.txt")
	if err != nil || string(b) != testbed.FixtureFiles["text/lf.txt"] {
		t.Errorf("text/lf.txt = %q, %v", b, err)
	}
}

// TestFSWalkDirGeminiCapsule walks the test capsule, whose pages are
// written by hand: the root's links one segment below it are its entries
// (the search two segments below, and the gopher server, are not), a
// redirect is a file read through it, and the page that is not there is
// listed but fails to open with fs.ErrNotExist (51).
func TestFSWalkDirGeminiCapsule(t *testing.T) {
	testbed.Require(t, testbed.Gemini)
	geminiHome(t)
	fsys := fsOfURL(t, "gemini://"+testbed.Host+"/")
	var got []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != "." {
			got = append(got, p)
		}
		return nil
	})
	want := "about.gmi docs docs/one.txt docs/two.gmi missing.gmi moved old"
	if err != nil || strings.Join(got, " ") != want {
		t.Errorf("WalkDir: %q %v, want %s", got, err, want)
	}
	capsule := filepath.Join("servers", "molly-brown", "capsule")
	about, _ := os.ReadFile(filepath.Join(capsule, "about.gmi"))
	one, _ := os.ReadFile(filepath.Join(capsule, "docs", "one.txt"))
	for name, content := range map[string][]byte{"old": about, "about.gmi": about, "docs/one.txt": one} {
		if b, err := fs.ReadFile(fsys, name); string(b) != string(content) || err != nil {
			t.Errorf("%s: %q, %v; want %q", name, b, err, content)
		}
	}
	if _, err := fs.ReadFile(fsys, "missing.gmi"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing.gmi: %v, want fs.ErrNotExist", err)
	}
}
