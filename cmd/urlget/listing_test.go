package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
)

// fakeLoc is a Locator for rendering tests: a parsed generic URL.
type fakeLoc = schemestest.Loc

func loc(t *testing.T, raw string) schemes.Locator {
	u, err := schemes.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return fakeLoc{U: u}
}

func TestListingTextForms(t *testing.T) {
	mod := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	entries := []schemes.Entry{
		{Name: "a b.txt", Kind: schemes.EntryFile, Size: 12, ModTime: mod, Precision: time.Minute},
		{Name: "sub", Kind: schemes.EntryDir, Size: -1, ModTime: mod, Precision: 24 * time.Hour},
		{Name: "ln", Kind: schemes.EntryLink, Size: 2, Target: "a b.txt"},
		{Title: "Welcome!", Kind: schemes.EntryInfo, Size: -1},
		{Name: "about.txt", Title: "About this server", Kind: schemes.EntryFile, Size: -1,
			Locator: loc(t, "gopher://u:pw@h/0/about.txt")},
		{Name: "evil\nname", Kind: schemes.EntryFile, Size: 1},
		{Title: "drwx?? what is this", Kind: schemes.EntryRaw, Size: -1},
		{Name: "Orchard management", Title: "Orchard management", Kind: schemes.EntryFile, Size: 107,
			Locator: loc(t, "wais://h/demo/TEXT/107/3=x;"), Extra: schemes.Extras{{Key: "score", Value: "462"}, {Key: "type", Value: "TEXT"}}},
		{Name: "ftp-readme", Title: "ftp-readme", Kind: schemes.EntryLink, Size: -1, Target: "ftp://h/%2FREADME;type=i",
			Locator: loc(t, "prospero://h//virtual/ftp-readme")},
		{Title: "HTTP link", Kind: schemes.EntryLink, Size: -1, Target: "http://w/", Locator: loc(t, "gopher://h/hURL:http://w/")},
		// Sizes the server lists without a Size: an NNTP overview's
		// bytes, a Gopher+ view's approximate size.
		{Name: "1", Title: "Hello", Kind: schemes.EntryFile, Size: -1, ModTime: mod, Precision: time.Second,
			Locator: loc(t, "nntp://h/g/1"), Extra: schemes.Extras{{Key: "bytes", Value: "553"}}},
		{Name: "about", Kind: schemes.EntryFile, Size: -1, Extra: schemes.Extras{{Key: "view_size", Value: "1k"}}},
		// An item urlget does not fetch (a gopher telnet item): its URL,
		// redacted, from the listing's "url".
		{Title: "Telnet in", Kind: schemes.EntrySession, Size: -1, Extra: schemes.Extras{{Key: "url", Value: "telnet://bob:pw@h:2323/"}}},
	}
	short := strings.Join([]string{
		"a b.txt", "sub/", "ln", "Welcome!",
		"[file] About this server  <gopher://u:****@h/0/about.txt>",
		"evil?name", "drwx?? what is this",
		"   462       107 TEXT  Orchard management  <wais://h/demo/TEXT/107/3=x;>",
		"[link] ftp-readme -> ftp://h/%2FREADME;type=i", "[link] HTTP link -> http://w/",
		"[file] Hello  <nntp://h/g/1>", "about", "[session] Telnet in -> telnet://bob:****@h:2323/", ""}, "\n")
	long := strings.Join([]string{
		"-           12 2024-01-02 03:04 a b.txt",
		"d            - 2024-01-02       sub/",
		"l            2                  ln -> a b.txt",
		"Welcome!",
		"-            -                  About this server",
		"-            1                  evil?name",
		"drwx?? what is this",
		"-          107                  Orchard management",
		"l            -                  ftp-readme -> ftp://h/%2FREADME;type=i",
		"l            -                  HTTP link -> http://w/",
		"-          553 2024-01-02 03:04 Hello",
		"-         <1k>                  about",
		"t            -                  Telnet in -> telnet://bob:****@h:2323/", ""}, "\n")
	for _, tc := range []struct {
		long bool
		want string
	}{{false, short}, {true, long}} {
		var b bytes.Buffer
		var seen int
		err := listingText{long: tc.long}.render(&b, schemes.ListingOf(entries), func(schemes.Entry) error { seen++; return nil })
		if err != nil || b.String() != tc.want || seen != len(entries) {
			t.Errorf("long=%v: err %v, %d entries seen, got\n%s\nwant\n%s", tc.long, err, seen, b.String(), tc.want)
		}
		if strings.Contains(b.String(), "pw@") {
			t.Errorf("long=%v: a password shows", tc.long)
		}
	}
}

func TestListingTextStopsOnError(t *testing.T) {
	boom := errors.New("connection lost")
	n := 0
	l := schemes.ListingFunc(func() (schemes.Entry, error) {
		n++
		if n > 2 {
			return schemes.Entry{}, boom
		}
		return schemes.Entry{Name: "x", Kind: schemes.EntryFile}, nil
	}, nil)
	var b bytes.Buffer
	if err := (listingText{}).render(&b, l, nil); !errors.Is(err, boom) || b.String() != "x\nx\n" {
		t.Fatalf("err %v, wrote %q; want the error after what arrived", err, b.String())
	}
}

// TestJSONReportStreamsEntries: a --json listing is written as it is
// read, a buffer at a time (64 KiB), never held whole until the report
// ends; the report then closes it, valid JSON.
func TestJSONReportStreamsEntries(t *testing.T) {
	var b bytes.Buffer
	j := &jsonEntries{w: &b}
	const n = 3000 // about 120 KiB of entries
	for i := range n {
		e := schemes.Entry{Name: fmt.Sprintf("file-%04d.txt", i), Kind: schemes.EntryFile, Size: int64(i)}
		if i == n-1 {
			e.Kind, e.Size = schemes.EntryDir, -1
		}
		if err := j.add(e); err != nil {
			t.Fatal(err)
		}
	}
	text := b.String()
	if !strings.HasPrefix(text, `{"entries":[{"name":"file-0000.txt"`) || len(text) < 64<<10 {
		t.Fatalf("entries not written as they came: %d bytes before the report ended", len(text))
	}
	if err := j.finish(&report{URL: "file:///d/", Scheme: "file"}, true); err != nil {
		t.Fatal(err)
	}
	var got struct {
		URL     string           `json:"url"`
		Entries []map[string]any `json:"entries"`
		Error   any              `json:"error"`
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil || got.URL != "file:///d/" || len(got.Entries) != n || got.Entries[n-1]["kind"] != "dir" {
		t.Fatalf("report of %d bytes: %d entries, url %q, %v", b.Len(), len(got.Entries), got.URL, err)
	}
	b.Reset()
	(&jsonEntries{w: &b}).finish(&report{URL: "x:"}, true)
	text = b.String()
	if !strings.HasPrefix(text, `{"entries":[],"url":"x:"`) {
		t.Fatalf("empty listing: %s", text)
	}
}

func TestListingOfADirectoryEndToEnd(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f.txt"), []byte("hello"), 0o644)
	os.Mkdir(filepath.Join(dir, "d"), 0o755)
	url := "file://" + dir + "/"

	out, stderr, code := urlget(t, "", url)
	lines := strings.Fields(out)
	if code != 0 || len(lines) != 2 || !contains(lines, "f.txt") || !contains(lines, "d/") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	out, _, code = urlget(t, "", "--long", url)
	if code != 0 || !strings.Contains(out, "-            5 ") || !strings.Contains(out, " f.txt\n") {
		t.Fatalf("--long: exit %d, %q", code, out)
	}
	out, _, code = urlget(t, "", "--json", url)
	var rep struct {
		Entries []struct {
			Name, Kind, URL string
			Size            *int64
		}
		Error any
	}
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || len(rep.Entries) != 2 || rep.Error != nil {
		t.Fatalf("--json: exit %d, %q", code, out)
	}
	for _, e := range rep.Entries {
		if e.Name == "f.txt" && (e.Kind != "file" || e.Size == nil || *e.Size != 5 || e.URL != "file://"+dir+"/f.txt") {
			t.Errorf("entry %+v", e)
		}
	}
	dest := filepath.Join(t.TempDir(), "listing.txt")
	if _, stderr, code := urlget(t, "", "-o", dest, url); code != 0 {
		t.Fatalf("-o: exit %d: %s", code, stderr)
	}
	if b, _ := os.ReadFile(dest); !strings.Contains(string(b), "d/\n") {
		t.Errorf("-o wrote %q", b)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestRedirectToTelnetRefused: an HTTP server that redirects to telnet:
// gets a refusal (exit 7), not a session; --proto-redir +telnet is what it
// would take (and is then honoured only as far as the scheme goes).
func TestRedirectToTelnetRefused(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "telnet://127.0.0.1:1/", http.StatusFound)
	}))
	defer srv.Close()
	port := srv.URL[strings.LastIndexByte(srv.URL, ':')+1:]
	_, stderr, code := urlget(t, "", "--allow-port", port, srv.URL+"/x")
	if code != 7 || !strings.Contains(stderr, "refusing the server's redirect to telnet://127.0.0.1:1/") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	_, stderr, code = urlget(t, "", "--proto", "=http", "--allow-port", port, srv.URL+"/x")
	if code != 7 || !strings.Contains(stderr, "(allowed: http) (--proto)") {
		t.Fatalf("--proto =http: exit %d, stderr %q", code, stderr)
	}
	if _, stderr, code := urlget(t, "", "--proto", "=bogus", srv.URL); code != 2 || !strings.Contains(stderr, "unknown protocol") {
		t.Fatalf("--proto =bogus: exit %d, %q", code, stderr)
	}
}

// TestRedirectNoticeOnlyVerbose: following a redirect is part of the
// exchange: silent by default, a trace line with -v.
func TestRedirectNoticeOnlyVerbose(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "/new", http.StatusMovedPermanently)
			return
		}
		w.Write([]byte("new\n"))
	}))
	defer srv.Close()
	port := srv.URL[strings.LastIndexByte(srv.URL, ':')+1:]
	out, stderr, code := urlget(t, "", "--allow-port", port, srv.URL+"/old")
	if code != 0 || out != "new\n" || stderr != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q; want the body and nothing on stderr", code, out, stderr)
	}
	_, stderr, code = urlget(t, "", "-v", "--allow-port", port, srv.URL+"/old")
	if code != 0 || !strings.Contains(stderr, "* "+srv.URL+"/old: redirected to "+srv.URL+"/new") {
		t.Fatalf("-v: exit %d, stderr %q", code, stderr)
	}
}
