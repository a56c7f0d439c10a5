package http

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

// indexServer serves page at /pub/ (and /pub, redirected there) as
// text/html, and a text file at /pub/plain.txt.
func indexServer(t *testing.T, page string) *env {
	return newEnv(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/pub":
			http.Redirect(w, r, "/pub/", http.StatusMovedPermanently)
		case "/pub/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, page)
		case "/pub/plain.txt":
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, "plain")
		default:
			http.NotFound(w, r)
		}
	}, false)
}

// list lists path on e and returns the entries as golden lines: kind,
// name (or [title] when the name is unsafe), size, time, precision, path.
func (e *env) list(path string) ([]string, error) {
	r, _ := e.req(path)
	resp, err := e.h.List(context.Background(), r)
	if err != nil {
		return nil, err
	}
	if resp.Redirect != "" {
		return nil, fmt.Errorf("redirect to %s", resp.Redirect)
	}
	defer resp.Listing.Close()
	var out []string
	for {
		en, err := resp.Listing.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		name := en.Name
		if name == "" {
			name = "[" + en.Title + "]"
		}
		mod := "-"
		if !en.ModTime.IsZero() {
			mod = en.ModTime.Format(time.RFC3339)
		}
		out = append(out, fmt.Sprintf("%s\t%s\t%d\t%s\t%v\t/%s", en.Kind, name, en.Size, mod, en.Precision, en.Locator.Generic().Path))
	}
}

// TestListIndexGolden: index pages of nginx, Apache (both forms) and a
// hand-made one, against their golden entries (testdata/index/*.want).
func TestListIndexGolden(t *testing.T) {
	pages, _ := filepath.Glob("testdata/index/*.html")
	if len(pages) < 4 {
		t.Fatalf("%d golden pages", len(pages))
	}
	for _, p := range pages {
		t.Run(filepath.Base(p), func(t *testing.T) {
			page, _ := os.ReadFile(p)
			want, err := os.ReadFile(strings.TrimSuffix(p, ".html") + ".want")
			if err != nil {
				t.Fatal(err)
			}
			got, err := indexServer(t, string(page)).list("/pub/")
			if err != nil {
				t.Fatal(err)
			}
			if g := strings.Join(got, "\n") + "\n"; g != string(want) {
				t.Errorf("got\n%s\nwant\n%s", g, want)
			}
		})
	}
}

// TestListIndexKeepsLogin: every entry's URL keeps the page's login.
func TestListIndexKeepsLogin(t *testing.T) {
	page, _ := os.ReadFile("testdata/index/handmade.html")
	e := indexServer(t, string(page))
	r, _ := e.req("/pub/")
	loc, err := parse(strings.Replace(e.srv.URL, "http://", "http://u:secret@", 1) + "/pub/")
	if err != nil {
		t.Fatal(err)
	}
	r.URL = loc
	resp, err := e.h.List(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	all, err := schemes.ReadAll(resp.Listing)
	if err != nil || len(all) == 0 {
		t.Fatalf("%d entries, %v", len(all), err)
	}
	for _, en := range all {
		if g := en.Locator.Generic(); g.User == nil || *g.User != "u" || g.Password == nil || *g.Password != "secret" {
			t.Errorf("%s lost the login", en.Locator.Redacted())
		}
	}
}

// TestListIndexRefusals: a page that is not HTML is a usage error, a
// missing one is not found, a redirect comes back as one.
func TestListIndexRefusals(t *testing.T) {
	e := indexServer(t, "<a href=x>x</a>")
	if _, err := e.list("/pub/plain.txt"); schemes.KindOf(err) != schemes.KindUsage || !strings.Contains(err.Error(), "text/plain") {
		t.Errorf("text/plain: %v", err)
	}
	if _, err := e.list("/nothing/"); schemes.KindOf(err) != schemes.KindNotFound {
		t.Errorf("404: %v", err)
	}
	if _, err := e.list("/pub"); err == nil || !strings.Contains(err.Error(), "redirect to") {
		t.Errorf("301: %v", err)
	}
}

// TestListIndexBounds: a hostile page — a 10 MB attribute, 2 M links —
// ends with a clear error, in bounded memory.
func TestListIndexBounds(t *testing.T) {
	huge := "<a href=\"" + strings.Repeat("x", 10<<20) + "\">x</a>"
	if _, err := indexServer(t, huge).list("/pub/"); err == nil || !strings.Contains(err.Error(), "longer than") {
		t.Errorf("10 MB attribute: %v", err)
	}
	var many strings.Builder
	for i := range maxIndexEntries + 10 {
		fmt.Fprintf(&many, "<a href=f%d>f</a>\n", i)
	}
	got, err := indexServer(t, many.String()).list("/pub/")
	if err == nil || !strings.Contains(err.Error(), "more than") || len(got) != maxIndexEntries {
		t.Errorf("%d entries, %v", len(got), err)
	}
}

// FuzzIndex: no page makes the reader panic, loop or name an entry that
// is not one segment below the page.
func FuzzIndex(f *testing.F) {
	pages, _ := filepath.Glob("testdata/index/*.html")
	for _, p := range pages {
		b, _ := os.ReadFile(p)
		f.Add(string(b))
	}
	base, err := parse("http://h.example/pub/")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, page string) {
		ix := newIndexReader(base, strings.NewReader(page))
		for i := 0; ; i++ {
			en, err := ix.next()
			if err != nil {
				return
			}
			p := en.Locator.Generic().Path
			rest := strings.TrimSuffix(strings.TrimPrefix(p, "pub/"), "/")
			if !strings.HasPrefix(p, "pub/") || rest == "" || strings.Contains(rest, "/") {
				t.Fatalf("entry %q outside the page's directory", p)
			}
			if i > len(page) {
				t.Fatal("more entries than bytes")
			}
		}
	})
}

// TestFetchIfModifiedSince: with Request.IfModifiedSince the server is
// asked for the resource only if it changed; a 304 is NotModified with an
// empty body, a 200 the resource as usual.
func TestFetchIfModifiedSince(t *testing.T) {
	mod := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	e := newEnv(t, func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, "f.txt", mod, strings.NewReader("content"))
	}, false)
	for _, tc := range []struct {
		since       time.Time
		notModified bool
		body        string
	}{
		{mod, true, ""},
		{mod.Add(time.Hour), true, ""},
		{mod.Add(-time.Second), false, "content"},
		{time.Time{}, false, "content"},
	} {
		r, tr := e.req("/f.txt")
		r.IfModifiedSince = tc.since
		resp, err := e.h.Fetch(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		if got := readAll(t, resp); resp.NotModified != tc.notModified || got != tc.body {
			t.Errorf("since %v: NotModified %v, body %q\n%s", tc.since, resp.NotModified, got, tr)
		}
		if sent := tr.has("> If-Modified-Since: " + tc.since.UTC().Format(http.TimeFormat)); sent == tc.since.IsZero() {
			t.Errorf("since %v: header sent %v", tc.since, sent)
		}
	}
}
