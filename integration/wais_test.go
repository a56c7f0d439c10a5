//go:build integration

package integration

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/integration/conformance"
	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/integration/waisd"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/schemes/wais"
	"github.com/urlget/urlget/transport"
)

// waisURL is a URL of the test bed's WAIS server.
func waisURL(path string) string {
	return fmt.Sprintf("wais://%s/%s", testbed.Addr(testbed.WAISPort), path)
}

func waisClient(tr io.Writer) *fetch.Client {
	c := &fetch.Client{
		Registry: fetch.DefaultRegistry(),
		Dialer:   &transport.Dialer{ConnectTimeout: 10 * time.Second, IdleTimeout: 30 * time.Second},
	}
	if tr != nil {
		c.Trace = transport.NewTrace(tr)
	}
	return c
}

// waisList searches and returns the hits.
func waisList(t *testing.T, raw string) []schemes.Entry {
	t.Helper()
	return listEntries(t, waisClient(nil), raw)
}

// waisGet fetches raw whole, with a trace.
func waisGet(raw string) ([]byte, string, error) {
	var tr strings.Builder
	resp, err := waisClient(&tr).Get(context.Background(), raw)
	if err != nil {
		return nil, tr.String(), err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return b, tr.String(), err
}

// TestWAISSearchAndFetchEveryHit: a search for words every document has
// lists each document once, and each hit's URL fetches the document byte
// for byte — the 150 KB one in 16 ranges of 10,000 on one connection,
// each part of the multi-document file on its own.
func TestWAISSearchAndFetchEveryHit(t *testing.T) {
	testbed.Require(t, testbed.WAIS)
	docs := waisd.Documents()
	byHeadline := map[string]waisd.Document{}
	for _, d := range docs {
		byHeadline[d.Headline] = d
	}
	// Words that, together, every text document holds; the GIF has none.
	ents := waisList(t, waisURL("demo?the+a+in"))
	if len(ents) < len(docs)-1 {
		t.Fatalf("%d hits for %d documents: %+v", len(ents), len(docs), ents)
	}
	for _, e := range ents {
		d, ok := byHeadline[e.Title]
		if !ok || e.Locator == nil || e.Size != int64(len(d.Text)) {
			t.Errorf("hit %+v", e)
			continue
		}
		b, tr, err := waisGet(e.Locator.String())
		if err != nil || !bytes.Equal(b, d.Text) {
			t.Errorf("%s: %d bytes (%v), want %d", e.Title, len(b), err, len(d.Text))
		}
		if len(d.Text) > 150000 {
			if n := strings.Count(tr, "> Retrieve "); n != 16 || strings.Count(tr, "Connected to") != 1 {
				t.Errorf("the big document took %d retrievals on %d connections", n, strings.Count(tr, "Connected to"))
			}
		}
	}
	// Scores come in the server's (descending) order.
	for i := 1; i < len(ents); i++ {
		a, _ := ents[i-1].Extra.Get("score")
		b, _ := ents[i].Extra.Get("score")
		var x, y int
		fmt.Sscan(a, &x)
		fmt.Sscan(b, &y)
		if x < y {
			t.Errorf("hit %d scores %d after %d", i, y, x)
		}
	}
}

// TestWAISDocumentForms: a hit's URL with length 0, with a TEXT,HTML
// type, and the database's catalog fetched from its listing.
func TestWAISDocumentForms(t *testing.T) {
	testbed.Require(t, testbed.WAIS)
	ents := waisList(t, waisURL("demo?leviathan"))
	if len(ents) != 1 {
		t.Fatalf("%+v", ents)
	}
	want := ents[0].Size
	u := ents[0].Locator.String()
	zero := strings.Replace(u, fmt.Sprintf("/TEXT/%d/", want), "/TEXT,HTML/0/", 1)
	b, tr, err := waisGet(zero)
	if err != nil || int64(len(b)) != want {
		t.Fatalf("length 0: %d bytes of %d, %v\n%s", len(b), want, err, tr)
	}
	cat := waisList(t, waisURL("demo"))
	if len(cat) != 2 || cat[0].Title != "demo.src" || cat[1].Title != "Catalog for database: demo" {
		t.Fatalf("catalog %+v", cat)
	}
	if b, _, err := waisGet(cat[1].Locator.String()); err != nil || !bytes.Contains(b, []byte("Headline: Orchard management")) {
		t.Errorf("catalog document %q %v", b, err)
	}
}

// TestWAISErrors: an unknown database and a bad DocID exit 3; the
// hostile databases' cut, unreadable and empty replies are errors with
// the right kinds.
func TestWAISErrors(t *testing.T) {
	testbed.Require(t, testbed.WAIS)
	for _, tt := range []struct {
		url  string
		kind schemes.Kind
		msg  string
	}{
		{waisURL("nope?apple"), schemes.KindNotFound, `database "nope" is not available`},
		{waisURL("demo/TEXT/10/2=" + "/srv/wais/index/demo;3=0%2010%20/srv/wais/none.txt;"), schemes.KindNotFound, "Bad DocID"},
		{waisURL("hostile-overflow?apple"), schemes.KindProtocol, "overflowed"},
		{waisURL("hostile-garbage?apple"), schemes.KindProtocol, "unreadable reply"},
		{waisURL("hostile-truncated?apple"), schemes.KindConnect, "closed"},
	} {
		_, tr, err := waisGet(tt.url)
		if schemes.KindOf(err) != tt.kind || err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s: %v (kind %v), want %v %q\n%s", tt.url, err, schemes.KindOf(err), tt.kind, tt.msg, tr)
		}
	}
}

// TestWAISFloodKeepsMax: the flood database answers every search with
// 116,000 hits whatever it was asked; the listing holds the first --max of
// them (40 by default), in the server's order, and -v says the server sent
// more than asked.
func TestWAISFloodKeepsMax(t *testing.T) {
	testbed.Require(t, testbed.WAIS)
	for _, max := range []int{0, 7} {
		var tr strings.Builder
		c := waisClient(&tr)
		c.Registry = mustRegistry(fetch.Config{Options: schemes.Options{schemes.OptionMax: max}})
		resp, err := c.List(context.Background(), waisURL(waisd.FloodDatabase+"?apple"))
		if err != nil {
			t.Fatalf("max %d: %v\n%s", max, err, tr.String())
		}
		ents, err := schemes.ReadAll(resp.Listing)
		want := max
		if want == 0 {
			want = wais.DefaultMax
		}
		if err != nil || len(ents) != want {
			t.Fatalf("max %d: %d hits (%v), want %d", max, len(ents), err, want)
		}
		// The last hit kept is the server's hit want-1, as the server's
		// own code writes its URL.
		raw := waisd.DocURL(testbed.Addr(testbed.WAISPort), waisd.FloodDatabase, "TEXT", 0, []byte{3, 2, 0, byte(want - 1)})
		if u, err := c.Parse(raw); err != nil || ents[want-1].Locator == nil || ents[want-1].Locator.String() != u.String() {
			t.Errorf("max %d: the last hit is %v, want %s (%v)", max, ents[want-1].Locator, raw, err)
		}
		note := fmt.Sprintf("the server sent %d hits, more than the %d asked for", waisd.FloodHits, want)
		if !strings.Contains(tr.String(), note) {
			t.Errorf("max %d: no %q in the trace:\n%s", max, note, tr.String())
		}
	}
}

// TestWAISCancelMidDocument: canceling while the big document streams
// ends the read at once.
func TestWAISCancelMidDocument(t *testing.T) {
	testbed.Require(t, testbed.WAIS)
	ents := waisList(t, waisURL("demo?leviathan"))
	ctx, cancel := context.WithCancel(context.Background())
	resp, err := waisClient(nil).Get(ctx, ents[0].Locator.String())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if _, err := io.ReadFull(resp.Body, make([]byte, 25000)); err != nil {
		t.Fatal(err)
	}
	cancel()
	n, err := io.Copy(io.Discard, resp.Body)
	if schemes.KindOf(err) != schemes.KindCanceled || n > 10000 {
		t.Errorf("after cancel: %d more bytes, %v", n, err)
	}
}

// TestWAISLargeDocumentQuickly: the 150 KB document in 16 ranges from
// waisd, which writes each reply's header and APDU apart with Nagle's
// algorithm on, as freeWAIS-sf does. Without TCP_QUICKACK each range
// waited for the client's delayed ACK, ~42 ms: 0.67 s in all (issue 23).
// The bound is loose (the target is 0.1 s) so that a busy machine does
// not fail it; the test logs the best of three.
func TestWAISLargeDocumentQuickly(t *testing.T) {
	testbed.Require(t, testbed.WAIS)
	var big *schemes.Entry
	for _, e := range waisList(t, waisURL("demo?leviathan")) {
		if e.Size > 150000 {
			big = &e
		}
	}
	if big == nil {
		t.Fatal("no hit of more than 150000 bytes for leviathan")
	}
	best := time.Duration(1 << 62)
	for range 3 {
		start := time.Now()
		b, _, err := waisGet(big.Locator.String())
		if err != nil || int64(len(b)) != big.Size {
			t.Fatalf("%d bytes of %d, %v", len(b), big.Size, err)
		}
		best = min(best, time.Since(start))
	}
	t.Logf("%d bytes in %v (the best of 3)", big.Size, best)
	if best > 300*time.Millisecond {
		t.Errorf("%d bytes took %v, want well under the 0.67 s of one delayed ACK a range", big.Size, best)
	}
}

// waisFixtureURL is the URL of fixture p in waisd's "fixtures" database,
// written by the server's own code (waisd.DocID, waisd.DocURL) from what
// the compose service gives it: its name 127.0.0.1:2210, its corpus
// /srv/wais, the tree at /srv/fixtures. A missing fixture gets length 0.
func waisFixtureURL(p string) string {
	size := 0
	if info, err := os.Stat(filepath.Join(testbed.FixtureDir(), filepath.FromSlash(p))); err == nil {
		size = int(info.Size())
	}
	addr := testbed.Addr(testbed.WAISPort)
	id := waisd.DocID(addr, "/srv/wais/index/"+waisd.FixturesDatabase, "/srv/fixtures/"+p, 0, size)
	return waisd.DocURL(addr, waisd.FixturesDatabase, waisd.FixtureType(p), size, id)
}

// TestConformanceWAIS runs the suite against waisd's fixtures database:
// each fixture by the URL of its DocID, a directory as a search for its
// path (names/ lists the files whose paths hold "names/").
func TestConformanceWAIS(t *testing.T) {
	testbed.Require(t, testbed.WAIS)
	conformance.Run(t, conformance.Target{
		Name:            "waisd",
		URL:             waisFixtureURL,
		DirURL:          func(p string) string { return waisURL(waisd.FixturesDatabase + "?" + schemes.Escape(p, "?#+")) },
		EmptyIsNotFound: true,
	})
}
