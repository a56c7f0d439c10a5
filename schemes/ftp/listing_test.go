package ftp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
)

// mlsdLines is an MLSD listing of n files f00000, f00001, ...
func mlsdLines(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "type=file;size=%d;modify=20260102030405; f%05d\r\n", i, i)
	}
	return b.String()
}

// next reads one entry, failing t when none comes within a few seconds.
func next(t *testing.T, l schemes.Listing) schemes.Entry {
	t.Helper()
	type result struct {
		e   schemes.Entry
		err error
	}
	ch := make(chan result, 1)
	go func() {
		e, err := l.Next()
		ch <- result{e, err}
	}()
	select {
	case r := <-ch:
		if r.err != nil {
			t.Fatalf("Next: %v", r.err)
		}
		return r.e
	case <-time.After(5 * time.Second):
		t.Fatal("no entry while the server holds the rest of the listing: the listing is not streamed")
	}
	return schemes.Entry{}
}

// TestListingStreams: entries come while the server still holds the rest
// of the listing; at its end the 226 is read and the connection reused.
func TestListingStreams(t *testing.T) {
	f := newFake(t)
	f.mlsd = mlsdLines(5000)
	f.listHold = strings.Index(f.mlsd, "f00010") // ten whole lines, then a pause
	e := newEnv(t)
	resp, err := e.h.Fetch(context.Background(), e.req(t, f.url("pub/")))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Close()
	for i := range 10 {
		if en := next(t, resp.Listing); en.Name != fmt.Sprintf("f%05d", i) || en.Size != int64(i) {
			t.Fatalf("entry %d: %+v", i, en)
		}
	}
	close(f.release)
	rest, err := schemes.ReadAll(resp.Listing)
	if err != nil || len(rest) != 4990 || rest[4989].Name != "f04999" {
		t.Fatalf("%d more entries, %v", len(rest), err)
	}
	if e.idle() != 1 {
		t.Errorf("%d idle connections after the listing's end, want 1", e.idle())
	}
	if _, _, err := e.get(t, f.url("pub/x")); schemes.KindOf(err) != schemes.KindNotFound || f.connCount() != 1 {
		t.Errorf("next request: %v over %d connections, want a 550 over the first one", err, f.connCount())
	}
}

// TestListingEarlyClose: a listing closed before its end aborts the
// transfer (ABOR, then NOOP as a marker). Whether the server was still
// sending (426, then ABOR's 225) or had sent everything (226), the
// connection is in step once NOOP's 200 comes, and is reused; a server
// that never confirms gets its connection closed.
func TestListingEarlyClose(t *testing.T) {
	for _, tc := range []struct {
		name    string
		listing string
		noNOOP  bool
		reused  bool
	}{
		// Far more than the socket buffers hold: the server is still
		// writing when the data connection closes.
		{"mid-transfer", mlsdLines(600_000), false, true},
		{"after the data", mlsdLines(3), false, true},
		{"never confirmed", mlsdLines(600_000), true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t)
			f.mlsd = tc.listing
			if tc.noNOOP {
				f.replies["NOOP"] = "CLOSE"
			}
			f.files["f.bin"] = "data"
			e := newEnv(t)
			resp, err := e.h.Fetch(context.Background(), e.req(t, f.url("")))
			if err != nil {
				t.Fatal(err)
			}
			if en := next(t, resp.Listing); en.Name != "f00000" {
				t.Fatalf("first entry %+v", en)
			}
			if err := resp.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
			if _, err := resp.Listing.Next(); err == nil {
				t.Error("Next after Close gave an entry")
			}
			if got := e.idle(); got != map[bool]int{true: 1, false: 0}[tc.reused] {
				t.Errorf("%d idle connections after Close, want reuse %v", got, tc.reused)
			}
			got, _, err := e.get(t, f.url("f.bin"))
			if err != nil || got != "data" {
				t.Fatalf("the next fetch: %q, %v", got, err)
			}
			want := map[bool]int{true: 1, false: 2}[tc.reused]
			if f.connCount() != want {
				t.Errorf("%d control connections, want %d", f.connCount(), want)
			}
			// Every reply up to NOOP's was read: the connection is in
			// step for the next command.
			if tc.reused && !strings.Contains(e.trace.String(), "> ABOR\n") || tc.reused && !strings.Contains(e.trace.String(), "< 200 NOOP ok.\n") {
				t.Errorf("trace:\n%s", e.trace)
			}
		})
	}
}

// TestListingCanceled: canceling the context ends a listing that waits for
// data, and its connection is not reused.
func TestListingCanceled(t *testing.T) {
	f := newFake(t)
	f.mlsd = mlsdLines(100)
	f.listHold = strings.Index(f.mlsd, "f00001")
	e := newEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	resp, err := e.h.Fetch(ctx, e.req(t, f.url("")))
	if err != nil {
		t.Fatal(err)
	}
	next(t, resp.Listing)
	cancel()
	if _, err := resp.Listing.Next(); schemes.KindOf(err) != schemes.KindCanceled {
		t.Errorf("Next after cancel: %v, want KindCanceled", err)
	}
	resp.Close()
	if e.idle() != 0 {
		t.Error("a canceled listing's connection was kept")
	}
}

// TestEntryLocators: every entry's Locator keeps the listed URL's login,
// password included, shows it only in String (never in Redacted or JSON),
// and fetches the same bytes as the URL typed by hand.
func TestEntryLocators(t *testing.T) {
	f := newFake(t)
	f.files["a b.bin"] = "first\x00"
	f.files["c#d;e.txt"] = "second\r\n"
	f.mlsd = "type=dir;modify=20260102030405; sub dir\r\n" +
		"type=file;size=6;modify=20260102030405; a b.bin\r\n" +
		"type=file;size=8;modify=20260102030405; c#d;e.txt\r\n"
	e := newEnv(t)
	base := strings.Replace(f.url("pub/"), "127.0.0.1", "u:pa55@127.0.0.1", 1)
	entries, _, err := e.list(t, base)
	if err != nil || len(entries) != 3 {
		t.Fatalf("entries %+v, %v", entries, err)
	}
	byHand := map[string]string{"sub dir": base + "sub%20dir/", "a b.bin": base + "a%20b.bin", "c#d;e.txt": base + "c%23d%3Be.txt"}
	for _, en := range entries {
		loc, ok := en.Locator.(*URL)
		if !ok {
			t.Fatalf("%s: Locator %T, want *ftp.URL", en.Name, en.Locator)
		}
		if got := loc.String(); got != byHand[en.Name] {
			t.Errorf("%s: Locator %q, want %q", en.Name, got, byHand[en.Name])
		}
		if r := loc.Redacted(); strings.Contains(r, "pa55") || !strings.Contains(r, "u:****@") {
			t.Errorf("%s: Redacted %q", en.Name, r)
		}
		if j, _ := en.MarshalJSON(); strings.Contains(string(j), "pa55") {
			t.Errorf("%s: JSON %s shows the password", en.Name, j)
		}
		schemestest.RoundTrip(t, loc, schemestest.Parser(Parse))
		if en.Kind == schemes.EntryDir {
			continue
		}
		viaEntry, _, err := e.fetchLoc(t, loc)
		if err != nil {
			t.Fatalf("%s: fetching its Locator: %v", en.Name, err)
		}
		typed, _, err := e.get(t, byHand[en.Name])
		if err != nil || typed != viaEntry || typed != f.files[en.Name] {
			t.Errorf("%s: Locator gave %q, the typed URL %q (%v)", en.Name, viaEntry, typed, err)
		}
	}
	// The directory's Locator lists it.
	resp, err := e.h.List(context.Background(), &schemes.Request{URL: entries[0].Locator, Dialer: e.d, Conns: e.pool, Trace: schemes.NopTrace{}})
	if err != nil {
		t.Fatal(err)
	}
	sub, err := schemes.ReadAll(resp.Listing)
	if err != nil || len(sub) != 3 || sub[1].Locator.String() != base+"sub%20dir/a%20b.bin" {
		t.Fatalf("listing the dir entry: %+v, %v", sub, err)
	}
	for _, c := range f.commands() {
		if strings.HasPrefix(c, "PASS ") && c != "PASS pa55" {
			t.Errorf("commands %q: a login without the URL's password", f.commands())
		}
	}
}

// TestLocatorTypecode: entries of a URL with ;type=a or ;type=i keep it
// for their files; NLST's ;type=d is not passed on.
func TestLocatorTypecode(t *testing.T) {
	f := newFake(t)
	f.mlsd = "type=dir; d\r\ntype=file; f\r\n"
	f.nlst = "n\r\n"
	e := newEnv(t)
	for path, want := range map[string][]string{
		"pub/;type=a": {"/pub/d/", "/pub/f;type=a"},
		"pub/;type=i": {"/pub/d/", "/pub/f;type=i"},
		"pub/;type=d": {"/pub/n"},
	} {
		entries, _, err := e.list(t, f.url(path))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, en := range entries {
			got = append(got, strings.TrimPrefix(en.Locator.String(), "ftp://"+f.ln.Addr().String()))
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: entry URLs %q, want %q", path, got, want)
		}
	}
}

// TestList: List lists any URL as a directory: a name without "/" is
// changed into; a file is not a directory to list.
func TestList(t *testing.T) {
	f := newFake(t)
	f.files["f.bin"] = "x"
	f.listing = "-rw-r--r-- 1 0 0 1 Jan 02  2026 g\r\n"
	e := newEnv(t)
	resp, err := e.h.List(context.Background(), e.req(t, f.url("pub/sub")))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := schemes.ReadAll(resp.Listing)
	if err != nil || len(entries) != 1 || !strings.HasSuffix(entries[0].Locator.String(), "/pub/sub/g") ||
		resp.Name != "sub" || resp.Kind != schemes.EntryDir {
		t.Fatalf("entries %+v, response %+v, %v", entries, resp, err)
	}
	wantCmds(t, f, append(anonLogin, "CWD pub", "CWD sub", "FEAT", "TYPE A", "EPSV", "LIST -a")...)

	_, err = e.h.List(context.Background(), e.req(t, f.url("pub/f.bin")))
	var se *schemes.Error
	if schemes.KindOf(err) != schemes.KindUsage || !errors.As(err, &se) || se.Part != "name" {
		t.Errorf("List of a file: %v, want KindUsage naming the name", err)
	}
	f.replies["CWD nope"] = "550 nope: No such file or directory"
	if _, err := e.h.List(context.Background(), e.req(t, f.url("nope"))); schemes.KindOf(err) != schemes.KindNotFound {
		t.Errorf("List of nothing: %v, want KindNotFound", err)
	}
}

// fetchLoc fetches loc and reads its body.
func (e *tenv) fetchLoc(t *testing.T, loc schemes.Locator) (string, *schemes.Response, error) {
	t.Helper()
	resp, err := e.h.Fetch(context.Background(), &schemes.Request{URL: loc, Dialer: e.d, Conns: e.pool, Trace: schemes.NopTrace{}})
	if err != nil {
		return "", nil, err
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	return string(b), resp, err
}

// TestListingCutInsideALine: data that ends inside a line was cut on its
// way (a proxy that closed it), even when the server says 226: the
// partial line is no entry, and the listing ends with a retryable error
// rather than looking whole.
func TestListingCutInsideALine(t *testing.T) {
	f := newFake(t)
	f.mlsd = mlsdLines(3) + "type=file;size=7;modify=2026" // cut inside the fourth line
	e := newEnv(t)
	resp, err := e.h.Fetch(context.Background(), e.req(t, f.url("pub/")))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Close()
	got, err := schemes.ReadAll(resp.Listing)
	if len(got) != 3 || err == nil || !strings.Contains(err.Error(), "cut short") || !schemes.IsRetryable(err) {
		t.Fatalf("%d entries, err %v; want the 3 whole lines and a retryable cut", len(got), err)
	}
	if e.idle() != 1 {
		t.Errorf("the control connection, in step after the 226, was not kept (%d idle)", e.idle())
	}
}

// TestListFallsBackWithoutDashA: a server that refuses "LIST -a" (reading
// it as a name) is asked with plain LIST, and only once on a connection.
func TestListFallsBackWithoutDashA(t *testing.T) {
	f := newFake(t)
	f.listing = "-rw-r--r-- 1 0 0 3 Jan 02  2026 x\r\n"
	f.replies["LIST -a"] = "550 -a: No such file or directory."
	e := newEnv(t)
	for range 2 {
		resp, err := e.h.List(context.Background(), e.req(t, f.url("pub/")))
		if err != nil {
			t.Fatal(err)
		}
		got, err := schemes.ReadAll(resp.Listing)
		if err != nil || len(got) != 1 || got[0].Name != "x" {
			t.Fatalf("%v, %v", got, err)
		}
	}
	if n := slices.Index(f.commands(), "LIST -a"); n < 0 || strings.Count(strings.Join(f.commands(), "|"), "LIST -a") != 1 {
		t.Errorf("commands %q: want one LIST -a, then LIST", f.commands())
	}
}
