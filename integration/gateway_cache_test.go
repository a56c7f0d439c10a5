//go:build integration

package integration

import (
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/gateway"
	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/internal/await"
)

// cacheGet asks for url with the header fields hdr (name, value, …) and
// returns the answer with its body read.
func cacheGet(t *testing.T, url string, hdr ...string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

// retrs is how many times the FTP server of service was sent RETR name
// since its log had offset bytes, once it logged at least least of them:
// a server logs a command as it gets it (vsftpd, pure-ftpd) or once it
// is done (proftpd: after the transfer's 226), so that the count is
// complete when the expected ones are in; one more would be a RETR the
// gateway should not have sent. Other clients' sessions do not matter.
func retrs(t *testing.T, service string, offset int64, name string, least int) int {
	t.Helper()
	await.Until(t, fmt.Sprintf("%s logging %d RETR %s", service, least, name), func() bool {
		return commandsSince(t, service, offset, "RETR "+name) >= least
	})
	return commandsSince(t, service, offset, "RETR "+name)
}

// TestGatewayRevalidatesFTP: the gateway's answer for an FTP document
// carries an ETag and a Last-Modified; a request with If-None-Match or
// If-Modified-Since that still matches is answered 304 from the
// server's stat (MLST, or SIZE and MDTM), and the server's log shows no
// RETR for it; once the file changed, the same request gets the new
// bytes and a new tag. On vsftpd, proftpd and pure-ftpd.
func TestGatewayRevalidatesFTP(t *testing.T) {
	for _, s := range ftpServers {
		t.Run(s.service, func(t *testing.T) {
			testbed.Require(t, s.service)
			host, rel := scratchTree(t, map[string]string{"doc.bin": "version 1\n"})
			c := countedClient(io.Discard) // its commands counted
			base := startGateway(t, gateway.Options{Client: c})
			url := base + gateway.Address(fmt.Sprintf("ftp://%s/%s/doc.bin", testbed.Addr(s.port), rel))
			off := testbed.LogSize(s.service)
			resp, body := cacheGet(t, url)
			tag, lm := resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
			if resp.StatusCode != 200 || body != "version 1\n" || tag == "" || lm != testbed.FixtureModTime().Format(http.TimeFormat) ||
				resp.Header.Get("Cache-Control") != "max-age=300" {
				t.Fatalf("%d %q %v", resp.StatusCode, body, resp.Header)
			}
			for _, h := range [][]string{{"If-None-Match", tag}, {"If-Modified-Since", lm}, {"If-None-Match", "W/" + tag}} {
				resp, body := cacheGet(t, url, h...)
				if resp.StatusCode != 304 || body != "" || resp.Header.Get("Last-Modified") != lm || resp.Header.Get("Cache-Control") != "max-age=300" {
					t.Errorf("%s: %d %q %v", h, resp.StatusCode, body, resp.Header)
				}
			}
			if n := retrs(t, s.service, off, "doc.bin", 1); n != 1 {
				t.Errorf("%d RETR doc.bin for a GET and three revalidations, want 1", n)
			}
			// Changed an hour later, longer: fetched again.
			writeScratch(t, host, "doc.bin", "version 2, longer\n", testbed.FixtureModTime().Add(3600e9))
			off = testbed.LogSize(s.service)
			resp, body = cacheGet(t, url, "If-None-Match", tag, "If-Modified-Since", lm)
			if resp.StatusCode != 200 || body != "version 2, longer\n" || resp.Header.Get("ETag") == tag || resp.Header.Get("ETag") == "" {
				t.Errorf("changed: %d %q %v", resp.StatusCode, body, resp.Header)
			}
			if n := retrs(t, s.service, off, "doc.bin", 1); n != 1 {
				t.Errorf("changed: %d RETR doc.bin, want 1", n)
			}
			if t.Failed() {
				t.Logf("commands since the change: %q", strings.Join(ftpCommands(t, s.service, off), "; "))
			}
		})
	}
}

// behindCache asks nginx's caching server (testbed.GatewayCachePort) for
// raw's gateway address, and returns the answer, its body and nginx's
// X-Cache-Status (MISS, HIT, EXPIRED, REVALIDATED, or "" for an answer
// it did not look up in its cache). It counts the answers each replica
// gave (X-Upstream) in upstreams, and each X-Cache-Status in it as
// "cache STATUS".
func behindCache(t *testing.T, upstreams map[string]int, raw string) (*http.Response, string, string) {
	t.Helper()
	resp, body := cacheGet(t, "http://"+testbed.Addr(testbed.GatewayCachePort)+gateway.Address(raw))
	if u := resp.Header.Get("X-Upstream"); u != "" {
		upstreams[u]++
	}
	upstreams["cache "+resp.Header.Get("X-Cache-Status")]++
	return resp, body, resp.Header.Get("X-Cache-Status")
}

// pastMaxAge is behindCache's first answer for raw after stale (when
// what nginx stored went past its max-age) that is no HIT. nginx counts
// time in whole seconds, so it is asked from a second after stale on (a
// request just past stale may still be served from its cache), every
// 50 ms, not at each look at the clock.
func pastMaxAge(t *testing.T, upstreams map[string]int, raw string, stale time.Time) (resp *http.Response, body, status string) {
	t.Helper()
	next := stale.Add(time.Second)
	await.Until(t, "nginx asking the gateway again past max-age", func() bool {
		if time.Now().Before(next) {
			return false
		}
		next = time.Now().Add(50 * time.Millisecond)
		resp, body, status = behindCache(t, upstreams, raw)
		return status != "HIT"
	})
	return resp, body, status
}

// commandsSince counts the commands of the FTP server of service, since
// its log had offset bytes, that are cmd exactly.
func commandsSince(t *testing.T, service string, offset int64, cmd string) int {
	n := 0
	for _, c := range ftpCommands(t, service, offset) {
		if c == cmd {
			n++
		}
	}
	return n
}

// TestGatewayBehindCache: nginx's proxy_cache in front of two `urlget
// serve --cache-max-age 1s` replicas (README's example): the second
// request for an FTP document is a HIT, and the server was sent one
// RETR; past max-age, nginx revalidates it (REVALIDATED: a 304 from
// MLST, no RETR); changed on the server, it is fetched again past
// max-age (EXPIRED, the new bytes, one RETR). A page fetched with a login
// and a search's hits are never stored (a MISS each time), and a
// listing is (a HIT).
func TestGatewayBehindCache(t *testing.T) {
	testbed.Require(t, testbed.Nginx)
	testbed.Require(t, testbed.Proftpd)
	testbed.Require(t, testbed.WAIS)
	const maxAge = time.Second
	for _, addr := range testbed.GatewayReplicas {
		startServe(t, "--listen", addr, "--host", testbed.Addr(testbed.GatewayCachePort), "--cache-max-age", "1s",
			"--interface", testbed.ClientIP.String()) // its commands counted
	}
	// A directory of this run's own: nginx keeps what earlier runs
	// stored under their URLs.
	run := fmt.Sprintf("run-%d", time.Now().UnixNano())
	host, rel := scratchTree(t, map[string]string{run + "/cached.bin": "version 1\n"})
	host, rel = filepath.Join(host, run), rel+"/"+run
	ftp := testbed.Addr(testbed.ProftpdPort)
	doc := fmt.Sprintf("ftp://%s/%s/cached.bin", ftp, rel)
	svc := testbed.Proftpd
	ups := map[string]int{}

	off := testbed.LogSize(svc)
	resp, body, status := behindCache(t, ups, doc)
	if resp.StatusCode != 200 || body != "version 1\n" || status != "MISS" || resp.Header.Get("Cache-Control") != "max-age=1" {
		t.Fatalf("first: %d %q %s %v", resp.StatusCode, body, status, resp.Header)
	}
	stored := time.Now()
	if _, body, status := behindCache(t, ups, doc); body != "version 1\n" || status != "HIT" {
		t.Errorf("second: %q %s, want a HIT", body, status)
	}
	if n := retrs(t, svc, off, "cached.bin", 1); n != 1 {
		t.Errorf("%d RETR for two requests, want 1", n)
	}

	// Past max-age, unchanged: revalidated with a 304, no RETR.
	off = testbed.LogSize(svc)
	resp, body, status = pastMaxAge(t, ups, doc, stored.Add(maxAge))
	if resp.StatusCode != 200 || body != "version 1\n" || status != "REVALIDATED" {
		t.Errorf("past max-age: %d %q %s, want REVALIDATED", resp.StatusCode, body, status)
	}
	stored = time.Now()
	await.Until(t, "proftpd logging the MLST", func() bool { return commandsSince(t, svc, off, "MLST cached.bin") >= 1 })
	if n := commandsSince(t, svc, off, "RETR cached.bin"); n != 0 {
		t.Errorf("revalidation: %d RETR, want none", n)
	}

	// Changed: past max-age, the new bytes.
	writeScratch(t, host, "cached.bin", "version 2, longer\n", testbed.FixtureModTime().Add(time.Hour))
	off = testbed.LogSize(svc)
	resp, body, status = pastMaxAge(t, ups, doc, stored.Add(maxAge))
	if resp.StatusCode != 200 || body != "version 2, longer\n" || status != "EXPIRED" {
		t.Errorf("changed: %d %q %s, want EXPIRED with the new bytes", resp.StatusCode, body, status)
	}
	if _, body, status := behindCache(t, ups, doc); body != "version 2, longer\n" || status != "HIT" {
		t.Errorf("changed, again: %q %s, want a HIT", body, status)
	}
	if n := retrs(t, svc, off, "cached.bin", 1); n != 1 {
		t.Errorf("changed: %d RETR, want 1", n)
	}

	// Under another name (a DNS-rebinding page's), the stored document
	// is not served: the replica refuses it.
	req, err := http.NewRequest("GET", "http://"+testbed.Addr(testbed.GatewayCachePort)+gateway.Address(doc), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = fmt.Sprintf("rebound.example:%d", testbed.GatewayCachePort)
	if resp, err := http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	} else if resp.Body.Close(); resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("under another Host: %d %s, want 421", resp.StatusCode, resp.Header.Get("X-Cache-Status"))
	}

	// A listing is stored too.
	dir := fmt.Sprintf("ftp://%s/%s/", ftp, rel)
	if _, _, status := behindCache(t, ups, dir); status != "MISS" {
		t.Errorf("listing: %s, want a MISS", status)
	}
	if resp, _, status := behindCache(t, ups, dir); status != "HIT" || resp.Header.Get("ETag") != "" {
		t.Errorf("listing again: %s %v, want a HIT", status, resp.Header)
	}

	// alice's login, typed into each replica (they keep it in memory),
	// then the page through the cache: never stored.
	withLogin := fmt.Sprintf("ftp://%s:%s@%s/%%2Fsrv/fixtures/%s/cached.bin", testbed.AliceUser, testbed.AlicePassword, ftp, rel)
	for _, addr := range testbed.GatewayReplicas {
		req, err := http.NewRequest("GET", "http://"+addr+gateway.Address(withLogin), nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := noFollow.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("the login's address on %s: %d", addr, resp.StatusCode)
		}
	}
	login := fmt.Sprintf("ftp://%s@%s/%%2Fsrv/fixtures/%s/cached.bin", testbed.AliceUser, ftp, rel)
	search := fmt.Sprintf("wais://%s/demo?leviathan", testbed.Addr(testbed.WAISPort))
	for _, raw := range []string{login, search} {
		for i := range 3 {
			resp, body, status := behindCache(t, ups, raw)
			if resp.StatusCode != 200 || status != "MISS" || resp.Header.Get("Cache-Control") != "private, no-store" {
				t.Errorf("%s, %d: %d %s %v", raw, i+1, resp.StatusCode, status, resp.Header)
			}
			if raw == login && body != "version 2, longer\n" {
				t.Errorf("%s, %d: %q", raw, i+1, body)
			}
		}
	}
	// Both replicas answered what nginx asked of them, in turn.
	for _, r := range testbed.GatewayReplicas {
		if ups[r] == 0 {
			t.Errorf("%s answered nothing: %v", r, ups)
		}
	}
	t.Logf("answers by replica, and nginx's cache statuses: %v", ups)
}

// noFollow shows a redirect instead of following it.
var noFollow = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
