package gateway

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

func TestMadeETag(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	hex := strconv.FormatInt(old.Unix(), 16)
	for _, c := range []struct {
		size int64
		mod  time.Time
		prec time.Duration
		want string
	}{
		{1000, old, time.Second, `"3e8-` + hex + `"`},
		{1000, old.Add(300 * time.Millisecond), time.Millisecond, `"3e8-` + hex + `"`}, // whole seconds: MLST's and MDTM's agree
		{0, old, 0, `"0-` + hex + `"`},
		{1000, old, time.Minute, `W/"3e8-` + hex + `"`},    // a LIST time: coarse
		{1000, old, 24 * time.Hour, `W/"3e8-` + hex + `"`}, // an old file's LIST date
		{-1, old, time.Second, `W/"` + hex + `"`},          // no size (TYPE A)
		{5, now, time.Second, `W/"5-` + strconv.FormatInt(now.Unix(), 16) + `"`},
		{5, now.Add(-500 * time.Millisecond), time.Second, `W/"5-` + strconv.FormatInt(now.Add(-time.Second).Unix(), 16) + `"`},
		{5, now.Add(-time.Second), time.Second, `"5-` + strconv.FormatInt(now.Add(-time.Second).Unix(), 16) + `"`},
	} {
		if got := madeETag(c.size, c.mod, c.prec, now); got != c.want {
			t.Errorf("madeETag(%d, %v, %v) = %s, want %s", c.size, c.mod, c.prec, got, c.want)
		}
	}
	if v := validatorsOf("", 10, time.Time{}, 0, now); v.etag != "" {
		t.Errorf("no time, yet a tag %s", v.etag)
	}
	if v := validatorsOf(`W/"from-the-server"`, 10, old, time.Second, now); v.etag != `W/"from-the-server"` {
		t.Errorf("the server's tag not kept: %s", v.etag)
	}
	if v := validatorsOf("\"x\"\r\nSet-Cookie: a=b", 10, old, time.Second, now); v.etag != `"a-`+hex+`"` {
		t.Errorf("a server's malformed tag taken: %q", v.etag)
	}
}

func TestMatchNone(t *testing.T) {
	for _, c := range []struct {
		field string
		tags  []string
		want  string
	}{
		{`"a"`, []string{`"a"`}, `"a"`},
		{`W/"a"`, []string{`"a"`}, `W/"a"`}, // the weak comparison
		{`"a"`, []string{`W/"a"`}, `"a"`},
		{`"b", "a"`, []string{`"a"`}, `"a"`},
		{`"x,y", "a"`, []string{`"a"`}, `"a"`}, // a comma inside a tag
		{`"x,y"`, []string{`"x,y"`}, `"x,y"`},
		{`"x"`, []string{`"x,y"`}, ""},
		{`"b"`, []string{`"a"`, ""}, ""},
		{`*`, []string{`"a"`}, "*"},
		{`*`, []string{""}, ""},
		{`a`, []string{`"a"`}, ""}, // no quotes: no entity tag
		{``, []string{`"a"`}, ""},
		{`"a`, []string{`"a"`}, ""},
	} {
		if got := matchNone(c.field, c.tags...); got != c.want {
			t.Errorf("matchNone(%q, %q) = %q, want %q", c.field, c.tags, got, c.want)
		}
	}
}

// upstreamDoc serves data at /doc (with mod as its time) and /tagged
// (with the ETag "v1" as well), and counts the GETs and HEADs it got.
func upstreamDoc(t *testing.T, data string, mod time.Time) (url string, gets, heads *atomic.Int32) {
	gets, heads = new(atomic.Int32), new(atomic.Int32)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead {
			heads.Add(1)
		} else {
			gets.Add(1)
		}
		if r.URL.Path == "/tagged" {
			w.Header().Set("ETag", `"v1"`)
		}
		if r.URL.Path == "/missing" {
			http.NotFound(w, r)
			return
		}
		http.ServeContent(w, r, "doc.txt", mod, strings.NewReader(data))
	}))
	t.Cleanup(up.Close)
	return up.URL, gets, heads
}

// servedDoc is upstreamDoc's /doc, 1000 bytes of 2020-01-02T03:04:05Z,
// behind a gateway.
type servedDoc struct {
	data        string
	mod         time.Time
	up, base    string        // the upstream's and the gateway's base URLs
	doc, tag    string        // its address on the gateway, and the ETag it gets
	gets, heads *atomic.Int32 // the requests upstream
}

func newServedDoc(t *testing.T) servedDoc {
	d := servedDoc{data: strings.Repeat("0123456789", 100), mod: time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)}
	d.up, d.gets, d.heads = upstreamDoc(t, d.data, d.mod)
	d.base = gateway(t, Options{})
	d.doc = d.base + Address(d.up+"/doc")
	d.tag = fmt.Sprintf(`"3e8-%x"`, d.mod.Unix())
	return d
}

// TestDocumentValidators: a document's answer carries an ETag of its
// size and time (or its server's own), its Last-Modified and the
// documents' max-age; a conditional request that still matches is
// answered 304 from the scheme's stat (a HEAD upstream), with no GET.
func TestDocumentValidators(t *testing.T) {
	d := newServedDoc(t)
	data, mod, up, gets, heads, base, doc, tag := d.data, d.mod, d.up, d.gets, d.heads, d.base, d.doc, d.tag
	resp, body := get(t, newRequest(t, "GET", doc))
	if resp.StatusCode != 200 || body != data {
		t.Fatalf("%d %q", resp.StatusCode, body)
	}
	lm := mod.Format(http.TimeFormat)
	if h := resp.Header; h.Get("ETag") != tag || h.Get("Last-Modified") != lm || h.Get("Cache-Control") != "max-age=300" || h.Get("Vary") != "" {
		t.Errorf("headers: %v", h)
	}
	for _, c := range []struct {
		name, header, value string
		status              int
		etag                string
	}{
		{"its tag", "If-None-Match", tag, 304, tag},
		{"its tag, weak", "If-None-Match", "W/" + tag, 304, "W/" + tag},
		{"among others", "If-None-Match", `"x", ` + tag, 304, tag},
		{"any", "If-None-Match", "*", 304, tag},
		{"another tag", "If-None-Match", `"3e8-1"`, 200, tag},
		{"its time", "If-Modified-Since", lm, 304, ""},
		{"a later time", "If-Modified-Since", mod.Add(time.Hour).Format(http.TimeFormat), 304, ""},
		{"an earlier time", "If-Modified-Since", mod.Add(-time.Second).Format(http.TimeFormat), 200, tag},
	} {
		g, hd := gets.Load(), heads.Load()
		req := newRequest(t, "GET", doc)
		req.Header.Set(c.header, c.value)
		resp, body := get(t, req)
		h := resp.Header
		if resp.StatusCode != c.status || h.Get("ETag") != c.etag || h.Get("Cache-Control") != "max-age=300" || h.Get("Last-Modified") != lm {
			t.Errorf("%s: %d, headers %v", c.name, resp.StatusCode, h)
		}
		if hd+1 != heads.Load() {
			t.Errorf("%s: %d HEADs upstream, want 1", c.name, heads.Load()-hd)
		}
		wantGets := g
		if c.status == 200 {
			wantGets++
		}
		switch {
		case c.status == 304 && body != "":
			t.Errorf("%s: a 304 with a body %q", c.name, body)
		case gets.Load() != wantGets:
			t.Errorf("%s: %d GETs upstream, want %d", c.name, gets.Load()-g, wantGets-g)
		}
	}
	// Its server's own tag.
	tagged := base + Address(up+"/tagged")
	if resp, _ := get(t, newRequest(t, "GET", tagged)); resp.Header.Get("ETag") != `"v1"` {
		t.Errorf("the server's tag not passed on: %v", resp.Header)
	}
	req := newRequest(t, "GET", tagged)
	req.Header.Set("If-None-Match", `"v1"`)
	if resp, _ := get(t, req); resp.StatusCode != 304 || resp.Header.Get("ETag") != `"v1"` {
		t.Errorf("If-None-Match of the server's tag: %d %v", resp.StatusCode, resp.Header)
	}
	// HEAD says what GET does.
	if resp, _ := get(t, newRequest(t, "HEAD", doc)); resp.Header.Get("ETag") != tag || resp.Header.Get("Cache-Control") != "max-age=300" {
		t.Errorf("HEAD: %v", resp.Header)
	}
	// A failure is never stored, nor given a validator.
	if resp, _ := get(t, newRequest(t, "GET", base+Address(up+"/missing"))); resp.StatusCode != 404 || resp.Header.Get("Cache-Control") != "no-store" || resp.Header.Get("ETag") != "" {
		t.Errorf("404: %d %v", resp.StatusCode, resp.Header)
	}
}

func TestCacheMaxAge(t *testing.T) {
	up, _, _ := upstreamDoc(t, "data", time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC))
	menu, _ := gopherFake(t, "0About\t/about\t127.0.0.1\t70\r\n")
	for _, c := range []struct {
		doc, list         time.Duration
		wantDoc, wantList string
	}{
		{0, 0, "max-age=300", "max-age=60"},
		{time.Hour, 10 * time.Second, "max-age=3600", "max-age=10"},
		{-1, -1, "no-cache", "no-cache"},
	} {
		base := gateway(t, Options{DocumentMaxAge: c.doc, ListingMaxAge: c.list})
		if resp, _ := get(t, newRequest(t, "GET", base+Address(up+"/doc"))); resp.Header.Get("Cache-Control") != c.wantDoc {
			t.Errorf("%v: document: %q, want %q", c.doc, resp.Header.Get("Cache-Control"), c.wantDoc)
		}
		resp, _ := get(t, newRequest(t, "GET", base+Address("gopher://"+menu+"/1/")))
		if resp.Header.Get("Cache-Control") != c.wantList || resp.Header.Get("ETag") != "" || resp.Header.Get("Vary") != "" {
			t.Errorf("%v: listing: %v, want Cache-Control %q", c.list, resp.Header, c.wantList)
		}
		if resp, _ := get(t, newRequest(t, "GET", base+"/")); resp.Header.Get("Cache-Control") != c.wantList {
			t.Errorf("%v: start page: %q, want %q", c.list, resp.Header.Get("Cache-Control"), c.wantList)
		}
	}
}

// TestNeverStored: what a form's words or a login made, a redirect and a
// form, are never stored; a conditional request for them is answered
// with the resource, not from a stat.
func TestNeverStored(t *testing.T) {
	up, gets, _ := upstreamDoc(t, "data", time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC))
	menu, _ := gopherFake(t, "0Hit\t/hit\t127.0.0.1\t70\r\n")
	creds := &fetch.Client{Credentials: func(scheme, host string, port int) (string, string, bool) {
		return "op", "secret", host == "localhost"
	}}
	base := gateway(t, Options{Client: creds})
	addr := strings.TrimPrefix(up, "http://")
	port := addr[strings.LastIndexByte(addr, ':')+1:]
	// A login typed into the gateway: its redirect, then the document.
	resp, _ := get(t, newRequest(t, "GET", base+Address("http://u:pw@"+addr+"/doc")))
	if resp.StatusCode != 303 || resp.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("the login's redirect: %d %v", resp.StatusCode, resp.Header)
	}
	for _, c := range []struct{ name, raw string }{
		{"a login remembered", "http://u@" + addr + "/doc"},
		{"a login of the Client's", "http://localhost:" + port + "/doc"},
		{"a gopher search's words", "gopher://" + menu + "/7/find%09words"},
	} {
		g := gets.Load()
		req := newRequest(t, "GET", base+Address(c.raw))
		req.Header.Set("If-Modified-Since", time.Now().Format(http.TimeFormat))
		resp, _ := get(t, req)
		if resp.StatusCode != 200 || resp.Header.Get("Cache-Control") != "private, no-store" {
			t.Errorf("%s: %d %v", c.name, resp.StatusCode, resp.Header)
		}
		if strings.HasPrefix(c.raw, "http") && gets.Load() != g+1 {
			t.Errorf("%s: fetched %d times, want once", c.name, gets.Load()-g)
		}
	}
	// A search's form page and its redirect.
	resp, _ = get(t, newRequest(t, "GET", base+"/search?url="+Address("gopher://" + menu + "/7/find")[1:]+"&q=w"))
	if resp.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("/search: %d %v", resp.StatusCode, resp.Header)
	}
}

// TestVaryAccept: a proxy's listing is HTML or JSON by the Accept
// header, and says so.
func TestVaryAccept(t *testing.T) {
	menu, _ := gopherFake(t, "0About\t/about\t127.0.0.1\t70\r\n")
	base := gateway(t, Options{})
	req := newRequest(t, "GET", base)
	req.URL.Opaque = "gopher://" + menu + "/1/" // absolute form
	req.Host = menu
	req.Header.Set("Accept", "application/json")
	resp, body := get(t, req)
	if resp.StatusCode != 200 || !strings.HasPrefix(body, `{"entries"`) || resp.Header.Get("Vary") != "Accept" || resp.Header.Get("Cache-Control") != "max-age=60" {
		t.Errorf("%d %v %q", resp.StatusCode, resp.Header, body)
	}
}

// TestConditionalFetch: a scheme that cannot stat but asks its server a
// time condition (Caps Conditional without Stats: here HTTP with its
// Stats taken away) is asked If-Modified-Since, and its NotModified is
// the gateway's 304.
func TestConditionalFetch(t *testing.T) {
	mod := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	up, gets, heads := upstreamDoc(t, "data", mod)
	reg := fetch.DefaultRegistry().Map(func(s schemes.Scheme) schemes.Scheme {
		if s.Caps.Has(schemes.Conditional) {
			s.Caps &^= schemes.Stats
		}
		return s
	})
	base := gateway(t, Options{Client: &fetch.Client{Registry: reg}})
	doc := base + Address(up+"/doc")
	for _, c := range []struct {
		since  time.Time
		status int
		body   string
	}{
		{mod, 304, ""},
		{mod.Add(-time.Second), 200, "data"},
	} {
		req := newRequest(t, "GET", doc)
		req.Header.Set("If-Modified-Since", c.since.Format(http.TimeFormat))
		resp, body := get(t, req)
		if resp.StatusCode != c.status || body != c.body || resp.Header.Get("Last-Modified") != mod.Format(http.TimeFormat) || resp.Header.Get("Cache-Control") != "max-age=300" {
			t.Errorf("If-Modified-Since %v: %d %q %v", c.since, resp.StatusCode, body, resp.Header)
		}
	}
	if heads.Load() != 0 || gets.Load() != 2 {
		t.Errorf("%d HEADs and %d GETs upstream, want none and 2 (each with the condition)", heads.Load(), gets.Load())
	}
}

// TestPrivate: which URLs' answers are one person's.
func TestPrivate(t *testing.T) {
	n, err := fetch.ParseNetrc("machine netrc.example login op password pw\nmachine nopass.example login op\n")
	if err != nil {
		t.Fatal(err)
	}
	creds := func(_, host string, _ int) (string, string, bool) { return "u", "p", host == "creds.example" }
	s := New(Options{Client: &fetch.Client{Netrc: n, Credentials: creds}})
	for raw, want := range map[string]bool{
		"ftp://h.example/f":                 false,
		"ftp://u:p@h.example/f":             true,
		"ftp://u@h.example/f":               false, // no password known: anonymous-like
		"ftp://netrc.example/f":             true,
		"ftp://op@netrc.example/f":          true,
		"ftp://other@netrc.example/f":       false,
		"ftp://nopass.example/f":            true, // a login all the same
		"ftp://creds.example/f":             true,
		"ftp://u@creds.example/f":           false, // Credentials serve URLs without a user
		"gopher://h.example/7/find%09words": true,
		"gopher://h.example/7/find":         false,
		"gopher://h.example/1/":             false,
		"wais://h.example/db?words":         true,
		"wais://h.example/db":               false,
		"gemini://h.example/ask?answer":     true,
		"gemini://h.example/ask":            false,
		"gopher://h.example/7/find%09":      false, // no words
		"ldap://h.example/o=x??sub?(cn=a)":  true,  // a filter
		"ldap://h.example/o=x??sub":         false,
	} {
		loc, err := s.c.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.private(loc); got != want {
			t.Errorf("%s: private %v, want %v", raw, got, want)
		}
	}
}

// TestIfRange: a Range with an If-Range is answered only while the
// document is the one it names, its strong tag or its time; otherwise
// the whole document comes with 200.
func TestIfRange(t *testing.T) {
	d := newServedDoc(t)
	data, mod, doc, tag := d.data, d.mod, d.doc, d.tag
	for _, c := range []struct {
		ifRange string
		status  int
	}{
		{"", 206},
		{tag, 206},
		{mod.Format(http.TimeFormat), 206},
		{"W/" + tag, 200}, // a weak tag never fits
		{`"3e8-1"`, 200},
		{mod.Add(-time.Second).Format(http.TimeFormat), 200},
		{"garbage", 200},
	} {
		req := newRequest(t, "GET", doc)
		req.Header.Set("Range", "bytes=10-")
		if c.ifRange != "" {
			req.Header.Set("If-Range", c.ifRange)
		}
		resp, body := get(t, req)
		want := data
		if c.status == 206 {
			want = data[10:]
		}
		if resp.StatusCode != c.status || body != want {
			t.Errorf("If-Range %q: %d, %d bytes; want %d", c.ifRange, resp.StatusCode, len(body), c.status)
		}
	}
}
