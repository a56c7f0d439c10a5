package http

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/index")

// page is what a test server sends for one path: a Content-Type (nil:
// none at all, not even net/http's sniffed one) and a body.
type page struct {
	ctype *string
	body  string
}

func ctype(s string) *string { return &s }

// htmlPage is an HTML page as nginx sends one.
func htmlPage(body string) page { return page{ctype: ctype("text/html; charset=utf-8"), body: body} }

// indexServer serves pages by path, 404 for anything else, and "{{origin}}"
// and "{{hostport}}" in a body replaced by the server's own.
func indexServer(t *testing.T, pages map[string]page) *env {
	var e *env
	e = newEnv(t, func(w http.ResponseWriter, r *http.Request) {
		p, ok := pages[r.URL.RawPath]
		if !ok {
			p, ok = pages[r.URL.Path]
		}
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header()["Content-Type"] = nil // no sniffing by net/http
		if p.ctype != nil {
			w.Header().Set("Content-Type", *p.ctype)
		}
		io.WriteString(w, strings.NewReplacer("{{origin}}", e.srv.URL,
			"{{hostport}}", strings.TrimPrefix(e.srv.URL, "http://")).Replace(p.body))
	}, false)
	return e
}

// listPage lists path on e.
func (e *env) listPage(path string) (*schemes.Response, error) {
	e.t.Helper()
	r, _ := e.req(path)
	return e.h.List(context.Background(), r)
}

// goldenLines lists path on e and returns its entries as golden lines:
// kind, name (or [title] when there is no name), size, time, precision,
// and the URL's path.
func (e *env) goldenLines(path string) ([]string, error) {
	e.t.Helper()
	resp, err := e.listPage(path)
	if err != nil {
		return nil, err
	}
	if resp.Redirect != "" {
		return nil, fmt.Errorf("redirect to %s", resp.Redirect)
	}
	defer resp.Listing.Close()
	var out []string
	for en, err := range schemes.Entries(resp.Listing) {
		if err != nil {
			return out, err
		}
		out = append(out, goldenLine(en))
	}
	return out, nil
}

func goldenLine(en schemes.Entry) string {
	name := en.Name
	if name == "" {
		name = "[" + schemes.Printable(en.Title, 0) + "]"
	}
	mod := "-"
	if !en.ModTime.IsZero() {
		mod = en.ModTime.Format(time.RFC3339)
	}
	return fmt.Sprintf("%s\t%s\t%d\t%s\t%v\t/%s", en.Kind, name, en.Size, mod, en.Precision, en.Locator.Generic().Path)
}

// TestListIndexGolden: index pages — nginx (the test bed's own, and with
// autoindex_exact_size off), Apache 2.4 (<pre> and <table>) and 2.2, a
// hand-made page, a page of hostile links — served at /pub/, against their
// golden entries (testdata/index/*.want; -update rewrites them).
func TestListIndexGolden(t *testing.T) {
	pages, _ := filepath.Glob("testdata/index/*.html")
	if len(pages) < 8 {
		t.Fatalf("%d golden pages", len(pages))
	}
	for _, p := range pages {
		t.Run(filepath.Base(p), func(t *testing.T) {
			body, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			got, err := indexServer(t, map[string]page{"/pub/": htmlPage(string(body))}).goldenLines("/pub/")
			if err != nil {
				t.Fatal(err)
			}
			g := strings.Join(got, "\n") + "\n"
			wantFile := strings.TrimSuffix(p, ".html") + ".want"
			if *update {
				if err := os.WriteFile(wantFile, []byte(g), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(wantFile)
			if err != nil {
				t.Fatal(err)
			}
			if g != string(want) {
				t.Errorf("got\n%s\nwant\n%s", g, want)
			}
		})
	}
}

// TestListIndexKeepsLogin: every entry's Locator keeps the page's login,
// also an absolute link that names another; its Redacted form hides it.
func TestListIndexKeepsLogin(t *testing.T) {
	e := indexServer(t, map[string]page{"/pub/": htmlPage(`<pre>
<a href="rel.txt">rel</a>
<a href="/pub/rooted.txt">rooted</a>
<a href="{{origin}}/pub/absolute.txt">absolute</a>
<a href="http://intruder:pw@{{hostport}}/pub/foreign.txt">foreign login</a>
<a href="sub/">dir</a>
</pre>`)})
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
	if err != nil || len(all) != 5 {
		t.Fatalf("%d entries, %v", len(all), err)
	}
	for _, en := range all {
		if g := en.Locator.Generic(); g.User == nil || *g.User != "u" || g.Password == nil || *g.Password != "secret" ||
			strings.Contains(en.Locator.Redacted(), "secret") || strings.Contains(en.Locator.String(), "intruder") {
			t.Errorf("%s: login not the page's", en.Locator.Redacted())
		}
	}
}

// TestListIndexLocatorsFetch: an entry's Locator fetches the file the
// link names, escapes as the server wrote them.
func TestListIndexLocatorsFetch(t *testing.T) {
	e := indexServer(t, map[string]page{
		"/pub/":                 htmlPage(`<a href="a%20%23b%3Bc.txt">a #b;c.txt</a>`),
		"/pub/a%20%23b%3Bc.txt": {ctype: ctype("text/plain"), body: "odd name"},
	})
	resp, err := e.listPage("/pub/")
	if err != nil {
		t.Fatal(err)
	}
	all, err := schemes.ReadAll(resp.Listing)
	if err != nil || len(all) != 1 || all[0].Name != "a #b;c.txt" {
		t.Fatalf("%+v, %v", all, err)
	}
	r, _ := e.req("/")
	r.URL = all[0].Locator
	f, err := e.h.Fetch(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, f); got != "odd name" {
		t.Errorf("fetched %q", got)
	}
}

// TestListIndexPages: what List makes of each kind of answer — HTML by
// its Content-Type or, without one, by its first bytes; anything else a
// usage error naming what it is; a 3xx a Redirect; 4xx and 5xx as Fetch.
func TestListIndexPages(t *testing.T) {
	const index = `<!DOCTYPE html><html><body><pre><a href="x.txt">x.txt</a> 23-Nov-2026 10:05 5` + "\n</pre></body></html>"
	e := indexServer(t, map[string]page{
		"/html/":    htmlPage(index),
		"/upper/":   {ctype: ctype("TEXT/HTML; Charset=ISO-8859-1"), body: index},
		"/xhtml/":   {ctype: ctype("application/xhtml+xml"), body: index},
		"/sniffed/": {body: index},
		"/plain/":   {ctype: ctype("text/plain; charset=utf-8"), body: index},
		"/binary/":  {body: "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR<a href=x.txt>"},
		"/empty/":   {body: ""},
		"/bad-ct/":  {ctype: ctype("text/html/x"), body: index},
	})
	for _, c := range []struct {
		path string
		kind schemes.Kind // of the error, KindOther for none
		msg  string       // in the error
	}{
		{path: "/html/"},
		{path: "/upper/"},
		{path: "/xhtml/"},
		{path: "/sniffed/"},
		{path: "/plain/", kind: schemes.KindUsage, msg: `not an HTML index page (Content-Type "text/plain; charset=utf-8")`},
		{path: "/binary/", kind: schemes.KindUsage, msg: "no Content-Type, and its first bytes are image/png"},
		{path: "/empty/", kind: schemes.KindUsage, msg: "no Content-Type, and its first bytes are text/plain"},
		{path: "/bad-ct/", kind: schemes.KindUsage, msg: `Content-Type "text/html/x"`},
		{path: "/missing/", kind: schemes.KindNotFound, msg: "404"},
	} {
		t.Run(c.path, func(t *testing.T) {
			got, err := e.goldenLines(c.path)
			if c.kind != schemes.KindOther {
				var se *schemes.Error
				if !errors.As(err, &se) || se.Kind != c.kind || !strings.Contains(err.Error(), c.msg) {
					t.Fatalf("err %v (%#v), want kind %v with %q", err, se, c.kind, c.msg)
				}
				return
			}
			want := "file\tx.txt\t5\t2026-11-23T10:05:00Z\t1m0s\t" + c.path + "x.txt"
			if err != nil || len(got) != 1 || got[0] != want {
				t.Errorf("%q, %v; want %q", got, err, want)
			}
		})
	}
}

// TestListIndexStatus: a 3xx is a Redirect, not an error; 404 and 410
// are fs.ErrNotExist, 403 permission, 503 busy, as for Fetch.
func TestListIndexStatus(t *testing.T) {
	e := newEnv(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/pub":
			http.Redirect(w, r, "/pub/", http.StatusMovedPermanently)
		case "/gone/":
			w.WriteHeader(http.StatusGone)
		case "/secret/":
			w.WriteHeader(http.StatusForbidden)
		case "/busy/":
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(http.StatusServiceUnavailable)
		default:
			http.NotFound(w, r)
		}
	}, false)
	resp, err := e.listPage("/pub")
	if err != nil || resp.Redirect != e.srv.URL+"/pub/" || resp.Listing != nil || resp.Status != http.StatusMovedPermanently {
		t.Errorf("301: %+v, %v", resp, err)
	}
	for path, kind := range map[string]schemes.Kind{"/missing/": schemes.KindNotFound, "/gone/": schemes.KindNotFound,
		"/secret/": schemes.KindPermission, "/busy/": schemes.KindBusy} {
		_, err := e.listPage(path)
		if schemes.KindOf(err) != kind {
			t.Errorf("%s: %v, want %v", path, err, kind)
		}
		if kind == schemes.KindNotFound && !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: %v is not fs.ErrNotExist", path, err)
		}
	}
}

// TestListIndexDirectoryURL: a URL without a trailing "/" is listed as the
// directory it names (the Lister contract, as ftp's List): its relative
// links are read below it, and the Response is named after it.
func TestListIndexDirectoryURL(t *testing.T) {
	e := indexServer(t, map[string]page{"/pub": htmlPage(`<a href="a.txt">a</a> <a href="/a.txt">above</a> <a href="/pub/b/">b</a>`)})
	resp, err := e.listPage("/pub")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	all, err := schemes.ReadAll(resp.Listing)
	for _, en := range all {
		got = append(got, en.Locator.Generic().Path)
	}
	if err != nil || strings.Join(got, " ") != "pub/a.txt pub/b/" || resp.Name != "pub" || resp.Kind != schemes.EntryDir {
		t.Errorf("entries %q, %v, Name %q Kind %q", got, err, resp.Name, resp.Kind)
	}
}

// TestListIndexWholePage: List always asks for the whole page, whatever
// Offset or IfModifiedSince the request carries, and works over TLS as
// Fetch does.
func TestListIndexWholePage(t *testing.T) {
	var mu sync.Mutex
	var ranges []string
	e := newEnv(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		ranges = append(ranges, r.Header.Get("Range")+r.Header.Get("If-Range")+r.Header.Get("If-Modified-Since"))
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<a href="f">f</a>`)
	}, true)
	r, _ := e.req("/pub/")
	r.Offset, r.IfModifiedSince = 10, time.Now()
	resp, err := e.h.List(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	all, err := schemes.ReadAll(resp.Listing)
	if err != nil || len(all) != 1 || all[0].Locator.String() != e.srv.URL+"/pub/f" {
		t.Errorf("%v, %v", all, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(ranges) != 1 || ranges[0] != "" {
		t.Errorf("Range, If-Range or If-Modified-Since sent: %q", ranges)
	}
	e.dialer.mu.Lock()
	defer e.dialer.mu.Unlock()
	if len(e.dialer.tlss) != 1 {
		t.Errorf("TLS handshakes %v", e.dialer.tlss)
	}
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
