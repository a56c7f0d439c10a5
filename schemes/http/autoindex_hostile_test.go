package http

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

// streamServer serves at /pub/ an HTML page that write produces, through a
// buffered writer that is flushed when write returns.
func streamServer(t *testing.T, write func(w *bufio.Writer, flush func()) error) *env {
	return newEnv(t, func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "text/html")
		w := bufio.NewWriterSize(rw, 64<<10)
		flush := func() { w.Flush(); rw.(http.Flusher).Flush() }
		if write(w, flush) == nil {
			flush()
		}
	}, false)
}

// TestListIndexStreams: entries come out as the page arrives, before its
// end: the server sends the rest only once the client has the first. (A
// run of text ends at the next "<" and the byte after it, so the first
// line goes with the start of the second.)
func TestListIndexStreams(t *testing.T) {
	gotFirst := make(chan struct{})
	e := streamServer(t, func(w *bufio.Writer, flush func()) error {
		io.WriteString(w, "<pre><a href=\"one\">one</a>  23-Nov-2026 10:05   1\n<a")
		flush()
		select {
		case <-gotFirst:
		case <-time.After(10 * time.Second):
		}
		_, err := io.WriteString(w, " href=\"two\">two</a>  23-Nov-2026 10:06   2\n</pre>")
		return err
	})
	begin := time.Now()
	resp, err := e.listPage("/pub/")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Close()
	first, err := resp.Listing.Next()
	if err != nil || first.Name != "one" || first.Size != 1 {
		t.Fatalf("first %+v, %v", first, err)
	}
	if d := time.Since(begin); d > 5*time.Second {
		t.Errorf("the first entry took %v: not streamed", d)
	}
	close(gotFirst)
	second, err := resp.Listing.Next()
	if err != nil || second.Name != "two" || second.Size != 2 {
		t.Fatalf("second %+v, %v", second, err)
	}
	if _, err := resp.Listing.Next(); err != io.EOF {
		t.Errorf("after the last: %v", err)
	}
}

// TestListIndexCloseEarly: closing a listing before its end lets go of
// the connection, while the server would send for ever; a listing read to
// its end leaves the connection for the next request.
func TestListIndexCloseEarly(t *testing.T) {
	stopped := make(chan error, 1)
	e := streamServer(t, func(w *bufio.Writer, flush func()) error {
		for i := 0; ; i++ {
			if _, err := fmt.Fprintf(w, "<a href=\"f%d\">f</a>\n", i); err != nil {
				stopped <- err
				return err
			}
			if i%1000 == 0 {
				flush()
			}
		}
	})
	resp, err := e.listPage("/pub/")
	if err != nil {
		t.Fatal(err)
	}
	if en, err := resp.Listing.Next(); err != nil || en.Name != "f0" {
		t.Fatalf("%+v, %v", en, err)
	}
	done := make(chan error, 1)
	go func() { done <- resp.Close() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not return while the server kept sending")
	}
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("the server could still write after Close")
	}

	page := indexServer(t, map[string]page{"/pub/": htmlPage(`<a href="x">x</a>`)})
	for range 3 {
		resp, err := page.listPage("/pub/")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := schemes.ReadAll(resp.Listing); err != nil {
			t.Fatal(err)
		}
	}
	if n := page.dialer.count(); n != 1 {
		t.Errorf("%d connections for 3 listings read to their end, want 1", n)
	}
}

// TestListIndexCanceled: once ctx is done, Next fails, even with entries
// left in what has arrived.
func TestListIndexCanceled(t *testing.T) {
	e := indexServer(t, map[string]page{"/pub/": htmlPage(`<a href="a">a</a><a href="b">b</a><a href="c">c</a>`)})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, _ := e.req("/pub/")
	resp, err := e.h.List(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Close()
	if _, err := resp.Listing.Next(); err != nil {
		t.Fatal(err)
	}
	cancel()
	_, err = resp.Listing.Next()
	if schemes.KindOf(err) != schemes.KindCanceled || !errors.Is(err, context.Canceled) {
		t.Errorf("after cancel: %v", err)
	}
}

// TestListIndexBounds: a hostile page ends with a clear error naming the
// limit it passed — an attribute or a run of text of 10 MB, 2 M entries —
// and a page of 2 M links that make no entry, or the same one, lists in
// bounded memory.
func TestListIndexBounds(t *testing.T) {
	if testing.Short() {
		t.Skip("streams pages of 2 M links")
	}
	huge := strings.Repeat("x", 10<<20)
	for name, body := range map[string]string{
		"href":  `<a href="` + huge + `">x</a>`,
		"title": `<a title="` + huge + `" href="x">x</a>`,
		"text":  `<a href="x">x</a> ` + huge,
	} {
		_, err := indexServer(t, map[string]page{"/pub/": htmlPage(body)}).goldenLines("/pub/")
		var se *schemes.Error
		if !errors.As(err, &se) || se.Kind != schemes.KindProtocol || !strings.Contains(err.Error(), "longer than 1048576 bytes (the limit)") {
			t.Errorf("10 MB %s: %v", name, err)
		}
	}

	links := func(n int, href func(i int) string) *env {
		return streamServer(t, func(w *bufio.Writer, _ func()) error {
			for i := range n {
				if _, err := fmt.Fprintf(w, "<a href=\"%s\">x</a>\n", href(i)); err != nil {
					return err
				}
			}
			return nil
		})
	}
	count := func(e *env) (n int, heap uint64, err error) {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		resp, err := e.listPage("/pub/")
		if err != nil {
			return 0, 0, err
		}
		defer resp.Close()
		for _, err = range schemes.Entries(resp.Listing) {
			if err != nil {
				break
			}
			n++
		}
		runtime.GC()
		runtime.ReadMemStats(&after) // resp, still open, holds what the listing holds
		return n, after.HeapAlloc - min(after.HeapAlloc, before.HeapAlloc), err
	}
	const twoM = 2_000_000

	n, heap, err := count(links(twoM, func(i int) string { return fmt.Sprintf("f%d", i) }))
	if n != maxIndexEntries || !strings.Contains(fmt.Sprint(err), "more than 1000000 entries (the limit)") ||
		schemes.KindOf(err) != schemes.KindProtocol {
		t.Errorf("2 M entries: %d given, %v", n, err)
	}
	t.Logf("2 M entries: %d MB held", heap>>20)
	if heap > 96<<20 { // 16-byte keys for 1 M names, with the map's own overhead

		t.Errorf("2 M entries: %d MB held", heap>>20)
	}
	for name, href := range map[string]func(int) string{
		"skipped": func(i int) string { return fmt.Sprintf("?C=N;O=%d", i) },
		"same":    func(int) string { return "same.txt" },
	} {
		n, heap, err := count(links(twoM, href))
		t.Logf("2 M %s links: %d MB held", name, heap>>20)
		if err != nil || n > 1 || heap > 16<<20 {
			t.Errorf("2 M %s links: %d entries, %v, %d MB held", name, n, err, heap>>20)
		}
	}
}

// FuzzIndex: no page makes the reader panic or loop, and every entry it
// gives keeps the rules: one segment below the page on its server, no
// query, a kind that matches the trailing "/", a safe name or none, no
// name twice, a size and time only as figures allow.
func FuzzIndex(f *testing.F) {
	pages, _ := filepath.Glob("testdata/index/*.html")
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add("<table><tr><td><a href=a>a</a></td>\n<td>2026-11-23 10:05:59</td>\n<td>12</td></tr></table>")
	base, err := parse("http://u:pw@h.example/pub/")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, page string) {
		ix := newIndexReader(context.Background(), base, strings.NewReader(page))
		names := map[string]bool{}
		for i := 0; ; i++ {
			en, err := ix.next()
			if err != nil {
				if err != io.EOF && schemes.KindOf(err) != schemes.KindProtocol {
					t.Fatalf("error %v", err)
				}
				return
			}
			if i > len(page) {
				t.Fatal("more entries than bytes")
			}
			loc, ok := en.Locator.(*URL)
			if !ok {
				t.Fatalf("Locator %T", en.Locator)
			}
			g := loc.Generic()
			rest, below := strings.CutPrefix(g.Path, "pub/")
			seg, dir := strings.CutSuffix(rest, "/")
			if !below || seg == "" || strings.Contains(seg, "/") || loc.Search != nil || g.Fragment != nil ||
				g.Scheme != "http" || g.Host != "h.example" || g.Port != 0 || *g.User != "u" || *g.Password != "pw" {
				t.Fatalf("entry %s outside the page's directory", loc.Redacted())
			}
			if dir != (en.Kind == schemes.EntryDir) || (!dir && en.Kind != schemes.EntryFile) {
				t.Fatalf("%s: kind %s", loc.Redacted(), en.Kind)
			}
			label := en.Label()
			if label == "." || label == ".." || names[label] {
				t.Fatalf("name %q (again, or a dot)", label)
			}
			names[label] = true
			if en.Name != "" {
				if n, ok := schemes.SafeName(en.Name); !ok || n != en.Name || hasControl(en.Name) {
					t.Fatalf("unsafe name %q", en.Name)
				}
			}
			if en.Size < -1 || en.Kind == schemes.EntryDir && en.Size != -1 ||
				en.ModTime.IsZero() != (en.Precision == 0) || en.ModTime.Location() != time.UTC && !en.ModTime.IsZero() {
				t.Fatalf("%q: size %d time %v precision %v", label, en.Size, en.ModTime, en.Precision)
			}
		}
	})
}
