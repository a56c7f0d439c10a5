//go:build integration

package hostile_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/integration/hostile"
)

// measureFor is how long a mirror of a listing that a test does not let
// end runs before its memory is read: the mirror of an unbounded listing
// used about 1 GiB by then.
const measureFor = 15 * time.Second

// TestMirrorMemoryBounded: listings of a million and more entries, and
// ones that never end, are mirrored in bounded memory: a dry run walks
// them to the 1,000,000-entry bound of a listing (exit 7, saying so), a
// real run holds at most the queue of files waiting however long the
// listing goes on. Nothing outside DIR is created, and a listing
// abandoned at the bound deletes nothing.
func TestMirrorMemoryBounded(t *testing.T) {
	for _, tc := range []struct {
		name  string
		serve func(*hostile.Conn)
		url   string
		dry   bool
		code  int    // the exit status; -1: killed after measureFor
		says  string // in stderr
	}{
		{"ftp 2,000,000 entries, dry run", hostile.FTPWideListing(2_000_000), "ftp://ADDR/", true, 7, "holds more than 1000000 entries: the rest is not mirrored, and nothing in this directory is deleted (--max-entries)"},
		{"ftp endless, dry run", hostile.FTPWideListing(-1), "ftp://ADDR/", true, 7, "holds more than 1000000 entries: the rest is not mirrored, and nothing in this directory is deleted (--max-entries)"},
		{"ftp 2,000,000 entries", hostile.FTPWideListing(2_000_000), "ftp://ADDR/", false, -1, ""},
		{"ftp endless", hostile.FTPWideListing(-1), "ftp://ADDR/", false, -1, ""},
		{"http index of 1,000,000 links, dry run", hostile.HTTPWideIndex(1_000_000), "http://ADDR/", true, 0, ""},
		{"gopher menu of 1,000,000 items, dry run", hostile.GopherWideMenu(1_000_000), "gopher://ADDR/1/", true, 0, ""},
		{"gopher menu of 1,000,000 items", hostile.GopherWideMenu(1_000_000), "gopher://ADDR/1/", false, -1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := start(t, tc.serve)
			dst := filepath.Join(t.TempDir(), "dst")
			args := []string{"mirror", "-sS", "--delete"}
			if tc.dry {
				args = append(args, "--dry-run")
			}
			args = append(args, strings.ReplaceAll(tc.url, "ADDR", s.HostPort()), dst)
			var r result
			if tc.code < 0 {
				r = runFor(t, s, measureFor, args...)
			} else {
				r = run(t, s, args...)
			}
			r.checkRSS(t)
			if tc.code >= 0 && r.code != tc.code {
				t.Errorf("exit %d, want %d", r.code, tc.code)
			}
			if !strings.Contains(r.stderr, tc.says) {
				t.Errorf("stderr does not say %q", tc.says)
			}
			if tc.dry {
				if _, err := os.Stat(filepath.Join(dst, "f0000000")); err == nil {
					t.Error("a dry run wrote a file")
				}
			}
		})
	}
}

// TestMirrorCrawlBounded: a crawl ends whatever the server links: a flat
// chain of menus (/n1 → /n2 → …, each one path level deep) stops at the
// default --max-depth of 10 links, exit 0; a tree of 8 menus a menu stops
// at the default --max-listings of 10,000, exit 7, saying so; both in
// bounded memory and time.
func TestMirrorCrawlBounded(t *testing.T) {
	for _, tc := range []struct {
		name  string
		width int
		code  int
		dirs  int // local directories made, the top's included
		says  string
	}{
		{"flat chain", 1, 0, 11, ""},
		{"8 menus a menu", 8, 7, 10_000, "the walk stopped after 10000 listings: this and the directories after it are not mirrored (--max-listings)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := start(t, hostile.GopherCrawl(tc.width))
			dst := filepath.Join(t.TempDir(), "dst")
			r := run(t, s, "mirror", "-sS", "gopher://"+s.HostPort()+"/1/", dst)
			r.checkRSS(t)
			if r.code != tc.code || !strings.Contains(r.stderr, tc.says) {
				t.Errorf("exit %d, want %d saying %q", r.code, tc.code, tc.says)
			}
			dirs := 0
			filepath.WalkDir(dst, func(_ string, d os.DirEntry, err error) error {
				if err == nil && d.IsDir() {
					dirs++
				}
				return nil
			})
			if dirs != tc.dirs {
				t.Errorf("%d directories made, want %d", dirs, tc.dirs)
			}
		})
	}
}
