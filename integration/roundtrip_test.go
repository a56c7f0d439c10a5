//go:build integration

package integration

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/integration/conformance"
	"github.com/urlget/urlget/integration/dirsrv"
	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/internal/await"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// rtSchemes are the schemes the RoundTripper is registered for.
var rtSchemes = []string{"ftp", "ftps", "gopher", "gophers", "news", "nntp", "wais", "prospero", "file"}

// rtEnv is a fetch.Client for the whole test bed (news: on INN, ftps
// trusting vsftpd's certificate) with its own pool and a dialer that
// counts open connections, and a plain http.Client whose Transport has
// the Client's RoundTripper registered for rtSchemes.
type rtEnv struct {
	c      *fetch.Client
	pool   *transport.Pool
	dialer *conformance.CountingDialer
	hc     *http.Client
}

func newRTEnv(t *testing.T) *rtEnv {
	t.Helper()
	cfg, err := transport.TLSConfig(testbed.FTPSCertFile(testbed.VsftpdFTPS), false, "")
	if err != nil {
		t.Fatal(err)
	}
	e := &rtEnv{pool: &transport.Pool{}, dialer: conformance.NewCountingDialer()}
	e.dialer.Dialer.TLS = cfg // a wrapper's TLS settings are its Dialer's (Client.TLS is for a *transport.Dialer)
	e.c = &fetch.Client{
		Registry: mustRegistry(fetch.Config{Options: schemes.Options{"nntp-server": testbed.Addr(testbed.NNTPPort)}}),
		Dialer:   e.dialer, Conns: e.pool,
	}
	tr := &http.Transport{}
	rt := e.c.RoundTripper()
	for _, s := range rtSchemes {
		tr.RegisterProtocol(s, rt)
	}
	e.hc = &http.Client{Transport: tr}
	t.Cleanup(e.c.CloseIdleConnections)
	return e
}

// do asks e's http.Client for raw with method and header fields (name,
// value, ...), and returns the response with its body read.
func (e *rtEnv) do(t *testing.T, method, raw string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := e.hc.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, raw, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the body: %v", method, raw, err)
	}
	return resp, b
}

// direct is what e's Client itself gives for raw: the bytes of a
// document, or a listing's entries as JSON lines (the RoundTripper's
// ListingMediaType).
func (e *rtEnv) direct(t *testing.T, raw string) []byte {
	t.Helper()
	resp, err := e.c.Get(context.Background(), raw)
	if err != nil {
		t.Fatalf("direct %s: %v", raw, err)
	}
	defer resp.Close()
	if resp.Listing == nil {
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatalf("direct %s: %v", raw, err)
		}
		return b
	}
	var out []byte
	for en, err := range schemes.Entries(resp.Listing) {
		if err != nil {
			t.Fatalf("direct %s: %v", raw, err)
		}
		b, _ := json.Marshal(en)
		out = append(append(out, b...), '\n')
	}
	return out
}

// waisHit is the URL of the first document a search of the demo
// database finds.
func waisHit(t *testing.T, c *fetch.Client) string {
	t.Helper()
	hits, err := c.List(context.Background(), waisURL("demo?leviathan"))
	if err != nil {
		t.Fatal(err)
	}
	defer hits.Close()
	hit, err := hits.Listing.Next()
	if err != nil || hit.Locator == nil {
		t.Fatalf("WAIS search: %v %v", hit, err)
	}
	return hit.Locator.String()
}

// TestRoundTripEveryScheme: through a plain http.Client, every scheme of
// the test bed gives the bytes a direct Client.Get gives, and a listing
// the JSON lines of the entries the Client lists; a Prospero link that
// resolves to FTP arrives through the redirect http.Client follows.
func TestRoundTripEveryScheme(t *testing.T) {
	e := newRTEnv(t)
	fixtures := filepath.ToSlash(testbed.FixtureDir())
	urls := []string{
		fmt.Sprintf("ftp://%s/README.txt", testbed.Addr(testbed.VsftpdPort)),
		fmt.Sprintf("ftp://%s/bin/small.bin", testbed.Addr(testbed.VsftpdPort)),
		fmt.Sprintf("ftp://%s/README.txt", testbed.Addr(testbed.ProftpdPort)),
		fmt.Sprintf("ftp://%s/bin/small.bin", testbed.Addr(testbed.PureftpdPort)),
		fmt.Sprintf("ftp://%s/bin/", testbed.Addr(testbed.VsftpdPort)),
		fmt.Sprintf("ftp://%s/names/", testbed.Addr(testbed.ProftpdPort)),
		fmt.Sprintf("ftp://%s/names/", testbed.Addr(testbed.PureftpdPort)),
		fmt.Sprintf("ftps://%s/README.txt", testbed.Addr(testbed.VsftpdFTPSPort)),
		fmt.Sprintf("gopher://%s/0/README.txt", testbed.Addr(testbed.GophernicusPort)),
		fmt.Sprintf("gopher://%s/9/bin/small.bin", testbed.Addr(testbed.GophernicusPort)),
		fmt.Sprintf("gopher://%s/1/", testbed.Addr(testbed.GophernicusPort)),
		gopherURL(testbed.PygopherdPort, "0", "/fixtures/", "")("README.txt"),
		fmt.Sprintf("gopher://%s/1/", testbed.Addr(testbed.GopherPlusPort)),
		"news:" + strings.Trim(testbed.MsgDots, "<>"),
		"news:" + testbed.GroupTest,
		fmt.Sprintf("nntp://%s/%s/1", testbed.Addr(testbed.NNTPPort), testbed.GroupTest),
		waisURL("demo?leviathan"),
		waisHit(t, e.c),
		fmt.Sprintf("prospero://%s/%s/README.txt", testbed.Addr(testbed.ProsperoPort), prosperoRoot),
		prosperoURL(dirsrv.VirtualRoot + "/ftp-readme"),
		"file://" + fixtures + "/README.txt",
		"file://" + fixtures + "/bin/",
	}
	for _, u := range urls {
		resp, got := e.do(t, "GET", u)
		want := e.direct(t, u)
		if resp.StatusCode != 200 || len(got) == 0 || string(got) != string(want) {
			t.Errorf("%s: %d, %d bytes through net/http, %d direct", u, resp.StatusCode, len(got), len(want))
			continue
		}
		listing := resp.Header.Get("Content-Type") == fetch.ListingMediaType
		if listing != (got[0] == '{') || resp.ContentLength >= 0 && resp.ContentLength != int64(len(got)) {
			t.Errorf("%s: Content-Type %q, Content-Length %d for %d bytes", u, resp.Header.Get("Content-Type"), resp.ContentLength, len(got))
		}
		t.Logf("%s: %d bytes, %s, via %s", u, len(got), resp.Header.Get("Content-Type"), resp.Request.URL)
	}
	// The EXTERNAL link resolves to vsftpd: a redirect, which http.Client
	// followed through the same Transport.
	e.hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	defer func() { e.hc.CheckRedirect = nil }()
	resp, _ := e.do(t, "GET", prosperoURL(dirsrv.VirtualRoot+"/ftp-readme"))
	if resp.StatusCode != http.StatusFound || !strings.HasPrefix(resp.Header.Get("Location"), "ftp://"+testbed.Addr(testbed.VsftpdPort)+"/") {
		t.Errorf("prospero EXTERNAL link: %d Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
}

// TestRoundTripMissing: a path that is not there is 404 on every scheme
// of the test bed, with the library's message as the body.
func TestRoundTripMissing(t *testing.T) {
	e := newRTEnv(t)
	for _, u := range []string{
		fmt.Sprintf("ftp://%s/no-such-file.txt", testbed.Addr(testbed.VsftpdPort)),
		fmt.Sprintf("ftp://%s/no-such-file.txt", testbed.Addr(testbed.ProftpdPort)),
		fmt.Sprintf("ftp://%s/no-such-file.txt", testbed.Addr(testbed.PureftpdPort)),
		fmt.Sprintf("ftps://%s/no-such-file.txt", testbed.Addr(testbed.VsftpdFTPSPort)),
		fmt.Sprintf("gopher://%s/0/no-such-file.txt", testbed.Addr(testbed.GophernicusPort)),
		gopherURL(testbed.PygopherdPort, "0", "/fixtures/", "+")("no-such-file.txt"),
		"news:no-such-article@urlget.test",
		"news:no.such.group",
		fmt.Sprintf("nntp://%s/%s/999999", testbed.Addr(testbed.NNTPPort), testbed.GroupTest),
		waisURL("nope?apple"),
		fmt.Sprintf("prospero://%s/%s/no-such-file.txt", testbed.Addr(testbed.ProsperoPort), prosperoRoot),
		"file://" + filepath.ToSlash(testbed.FixtureDir()) + "/no-such-file.txt",
	} {
		resp, body := e.do(t, "GET", u)
		_, err := e.c.Get(context.Background(), u)
		if resp.StatusCode != http.StatusNotFound || fetch.HTTPStatus(err) != http.StatusNotFound || !strings.Contains(string(body), strings.TrimSpace(err.Error())) {
			t.Errorf("%s: %d %q; direct: %v", u, resp.StatusCode, body, err)
		}
	}
}

// TestRoundTripRangeAndHead: a Range is FTP's REST and file:'s seek,
// answered 206 with the bytes asked for; HEAD is the scheme's stat.
func TestRoundTripRangeAndHead(t *testing.T) {
	e := newRTEnv(t)
	local, err := os.ReadFile(filepath.Join(testbed.FixtureDir(), "bin", "small.bin"))
	if err != nil {
		t.Fatal(err)
	}
	size := len(local)
	for _, u := range []string{
		fmt.Sprintf("ftp://%s/bin/small.bin", testbed.Addr(testbed.VsftpdPort)),
		fmt.Sprintf("ftp://%s/bin/small.bin", testbed.Addr(testbed.ProftpdPort)),
		fmt.Sprintf("ftp://%s/bin/small.bin", testbed.Addr(testbed.PureftpdPort)),
		"file://" + filepath.ToSlash(testbed.FixtureDir()) + "/bin/small.bin",
	} {
		for _, c := range []struct {
			rng    string
			status int
			body   []byte
			crange string
		}{
			{"bytes=100-", 206, local[100:], fmt.Sprintf("bytes 100-%d/%d", size-1, size)},
			{"bytes=100-109", 206, local[100:110], fmt.Sprintf("bytes 100-109/%d", size)},
			{"bytes=0-0", 206, local[:1], fmt.Sprintf("bytes 0-0/%d", size)},
			{fmt.Sprintf("bytes=%d-", size), 416, nil, fmt.Sprintf("bytes */%d", size)},
		} {
			resp, body := e.do(t, "GET", u, "Range", c.rng)
			if resp.StatusCode != c.status || string(body) != string(c.body) || resp.Header.Get("Content-Range") != c.crange {
				t.Errorf("%s %s: %d %q, %d bytes", u, c.rng, resp.StatusCode, resp.Header.Get("Content-Range"), len(body))
			}
		}
		resp, body := e.do(t, "HEAD", u)
		if resp.StatusCode != 200 || len(body) != 0 || resp.ContentLength != int64(size) || resp.Header.Get("Accept-Ranges") != "bytes" || resp.Header.Get("Last-Modified") == "" {
			t.Errorf("HEAD %s: %d %v", u, resp.StatusCode, resp.Header)
			continue
		}
		// Unchanged since the time HEAD told: 304, the stat alone.
		if resp, _ := e.do(t, "GET", u, "If-Modified-Since", resp.Header.Get("Last-Modified")); resp.StatusCode != http.StatusNotModified {
			t.Errorf("If-Modified-Since %s: %d", u, resp.StatusCode)
		}
	}
	// Gopher cannot resume: the whole file, 200.
	resp, body := e.do(t, "GET", fmt.Sprintf("gopher://%s/9/bin/small.bin", testbed.Addr(testbed.GophernicusPort)), "Range", "bytes=100-")
	if resp.StatusCode != 200 || string(body) != string(local) || resp.Header.Get("Content-Range") != "" {
		t.Errorf("gopher Range: %d %q, %d bytes", resp.StatusCode, resp.Header.Get("Content-Range"), len(body))
	}
}

// TestRoundTripCancelFTP: a 64 MiB FTP transfer stopped midway — by
// canceling the request's context, or by closing the body — leaves no
// goroutine and no connection behind: every connection the dialer opened
// is closed or idle in the pool, and the next request over the same
// Client works, and gives its session back to the pool once read and
// closed.
func TestRoundTripCancelFTP(t *testing.T) {
	e := newRTEnv(t)
	big := fmt.Sprintf("ftp://%s/bin/big-64M.bin", testbed.Addr(testbed.VsftpdPort))
	small := fmt.Sprintf("ftp://%s/README.txt", testbed.Addr(testbed.VsftpdPort))
	e.do(t, "HEAD", small) // the control connection, idle in the pool
	for _, how := range []string{"cancel", "close"} {
		before := runtime.NumGoroutine()
		ctx, cancel := context.WithCancel(context.Background())
		req, _ := http.NewRequestWithContext(ctx, "GET", big, nil)
		resp, err := e.hc.Do(req)
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		if _, err := io.ReadFull(bufio.NewReader(resp.Body), make([]byte, 1<<20)); err != nil {
			cancel()
			t.Fatal(err)
		}
		if how == "cancel" {
			cancel()
			if n, err := io.Copy(io.Discard, resp.Body); err == nil {
				t.Errorf("cancel: the body read on to its end (%d more bytes)", n)
			}
		}
		resp.Body.Close()
		cancel()
		if !await.Poll(func() bool {
			return e.dialer.Open.Load() == int64(e.pool.Idle()) && runtime.NumGoroutine() <= before
		}) {
			buf := make([]byte, 1<<16)
			t.Errorf("%s: %d connections open, %d idle in the pool; %d goroutines, %d before\n%s", how,
				e.dialer.Open.Load(), e.pool.Idle(), runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
		}
		t.Logf("%s: %d dials so far, %d open, %d idle", how, e.dialer.Dials.Load(), e.dialer.Open.Load(), e.pool.Idle())
		if resp, body := e.do(t, "GET", small); resp.StatusCode != 200 || string(body) != fixtureText(t, "README.txt") {
			t.Errorf("after %s: %d %q", how, resp.StatusCode, body)
		}
		// A transfer read to its end and closed gives its session back.
		if open, idle := e.dialer.Open.Load(), e.pool.Idle(); idle != 1 || open != 1 {
			t.Errorf("after a whole transfer: %d connections open, %d idle in the pool; want the one session, idle", open, idle)
		}
	}
	e.c.CloseIdleConnections()
	await.Poll(func() bool { return e.dialer.Open.Load() == 0 })
	if n := e.dialer.Open.Load(); n != 0 {
		t.Errorf("%d connections open after CloseIdleConnections", n)
	}
}
