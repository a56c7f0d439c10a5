package main

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlget/urlget/integration/waisd"
	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
)

// TestRemoteNameNeverLeavesDirectory: a URL with nothing to name a file
// after is a usage error (exit 2), and a name decoded from the URL that
// would climb out ("%2F..") is cut to its last segment, written inside
// --output-dir and nowhere else.
func TestRemoteNameNeverLeavesDirectory(t *testing.T) {
	for _, raw := range []string{"http://h/", "http://h/a/..", "http://h/%2E%2E"} {
		_, stderr, code := urlget(t, "", "-O", raw)
		if code != 2 || !strings.Contains(stderr, "-O: the URL has no file name") {
			t.Errorf("%s: exit %d %q, want 2 and no file name", raw, code, stderr)
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "data") }))
	defer srv.Close()
	top := t.TempDir()
	out := filepath.Join(top, "a", "b")
	if _, stderr, code := urlget(t, "", "-s", "-S", "--output-dir", out, "-O", srv.URL+"/x%2F..%2F..%2Fpasswd"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if b, err := os.ReadFile(filepath.Join(out, "passwd")); err != nil || string(b) != "data" {
		t.Errorf("%s: %q %v, want the data", filepath.Join(out, "passwd"), b, err)
	}
	if _, err := os.Stat(filepath.Join(top, "passwd")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a file outside --output-dir: %v", err)
	}
}

// brokenName is a Locator that breaks the LocalName contract, as a
// library user's might.
type brokenName struct {
	schemestest.Loc
	name string
}

func (b brokenName) LocalName() string { return b.name }

// TestRemoteNameChecksTheContract: -O checks the name a Locator suggests
// again, and refuses one that would leave the current directory (exit 7).
func TestRemoteNameChecksTheContract(t *testing.T) {
	u, _ := schemes.Parse("t://h/x")
	for _, tc := range []struct {
		name, want string
		kind       schemes.Kind
	}{
		{"f.txt", "", 0},
		{"", "the URL has no file name", schemes.KindUsage},
		{"..", `".." is not a plain file name`, schemes.KindSafety},
		{"../x", `"../x" is not a plain file name`, schemes.KindSafety},
		{"a\x00b", "could leave the current directory", schemes.KindSafety},
	} {
		got, err := remoteName(brokenName{schemestest.Loc{U: u}, tc.name})
		switch {
		case tc.want == "" && (err != nil || got != tc.name):
			t.Errorf("%q: %q %v, want it as it is", tc.name, got, err)
		case tc.want != "" && (schemes.KindOf(err) != tc.kind || err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q: %q %v (kind %v), want %v %q", tc.name, got, err, schemes.KindOf(err), tc.kind, tc.want)
		}
	}
}

// TestRemoteNameOfWAISDocument: -O names a WAIS document after the file
// its DocID names ("orchard.txt", "notes; 50% off.txt"), not after the
// URL's last "/" segment, which runs on through the DocID's records
// ("orchard.txt;4=...;7=%00;") and was refused as a name that "would
// leave the current directory"; a DocID that names no file is a usage
// error saying so.
func TestRemoteNameOfWAISDocument(t *testing.T) {
	corpus := t.TempDir()
	if err := waisd.WriteCorpus(corpus); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	srv := &waisd.Server{Corpus: corpus, Name: addr}
	go srv.Serve(ln)
	defer srv.Close()
	index := path.Join(corpus, "index", waisd.Database)
	out := t.TempDir()
	seen := 0
	for _, d := range waisd.Documents() {
		if d.File != "orchard.txt" && d.File != "notes; 50% off.txt" {
			continue
		}
		seen++
		raw := waisd.DocURL(addr, waisd.Database, d.Type, d.End-d.Start, waisd.DocID(addr, index, path.Join(corpus, d.File), d.Start, d.End))
		if _, stderr, code := urlget(t, "", "-s", "-S", "--output-dir", out, "-O", raw); code != 0 {
			t.Errorf("%s: exit %d: %s", raw, code, stderr)
			continue
		}
		if b, err := os.ReadFile(filepath.Join(out, d.File)); err != nil || string(b) != string(d.Text) {
			t.Errorf("%s: %s holds %q %v, want %q", raw, d.File, b, err, d.Text)
		}
	}
	if seen != 2 {
		t.Fatalf("the corpus has %d of the 2 documents the test names", seen)
	}
	_, stderr, code := urlget(t, "", "-O", "wais://"+addr+"/demo/WSRC/0/2=/idx;7=%00;")
	if code != 2 || !strings.Contains(stderr, "the URL has no file name") || strings.Contains(stderr, "leave the current directory") {
		t.Errorf("a DocID without a file: exit %d %q, want 2 and no file name", code, stderr)
	}
}
