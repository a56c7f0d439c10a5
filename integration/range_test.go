//go:build integration

package integration

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/urlget/urlget/integration/testbed"
)

// The tests here compare -r and -z with curl's on the test bed's nginx
// and FTP servers: the same bytes written, to stdout and to -o, and the
// same exit code; then the cases where urlget is exact and curl is not,
// each checked as the README tells it.

// rangeServers are the test bed's servers of the fixture tree that -r
// and -z are compared on.
func rangeServers(t *testing.T) map[string]string {
	servers := map[string]string{}
	for name, s := range map[string]struct {
		service, url string
	}{
		"nginx":     {testbed.Nginx, "http://" + testbed.Addr(testbed.HTTPPort)},
		"vsftpd":    {testbed.Vsftpd, "ftp://" + testbed.Addr(testbed.VsftpdPort)},
		"proftpd":   {testbed.Proftpd, "ftp://" + testbed.Addr(testbed.ProftpdPort)},
		"pure-ftpd": {testbed.Pureftpd, "ftp://" + testbed.Addr(testbed.PureftpdPort)},
	} {
		testbed.Require(t, s.service)
		servers[name] = s.url
	}
	return servers
}

// sameRun checks that curl and urlget exited alike and wrote the same
// stdout and files.
func sameRun(t *testing.T, what string, c, o twin) {
	t.Helper()
	if c.code != o.code || c.stdout != o.stdout {
		t.Errorf("%s: curl exit %d, %d bytes %.40q; urlget exit %d, %d bytes %.40q (%s)", what, c.code, len(c.stdout), c.stdout,
			o.code, len(o.stdout), o.stdout, o.stderr)
	}
	sameFiles(t, what, c, o)
}

// TestCurlRange: -r N-M, N-, -N and a range past the end of the file
// write curl's bytes and exit as curl does, to stdout and to -o, over
// HTTP (Range) and each FTP server (REST, then ABOR at the range's end),
// for a short text and the 64 MiB file.
func TestCurlRange(t *testing.T) {
	for name, base := range rangeServers(t) {
		for _, tc := range []struct{ path, rng string }{
			{"/text/lf.txt", "0-9"}, {"/text/lf.txt", "5-"}, {"/text/lf.txt", "-7"}, {"/text/lf.txt", "3-3"},
			{"/text/lf.txt", "28-28"}, {"/text/lf.txt", "20-4000"}, {"/text/lf.txt", "-29"}, {"/text/lf.txt", "0-"},
			{"/" + testbed.BigFile, "1000000-1999999"}, {"/" + testbed.BigFile, "-100000"}, {"/" + testbed.BigFile, "67100000-"},
			{"/" + testbed.BigFile, "0-0"},
		} {
			t.Run(name+tc.path+"/"+tc.rng, func(t *testing.T) {
				u := base + tc.path
				c, o := both(t, "-s", "-r", tc.rng, u)
				sameRun(t, "stdout", c, o)
				c, o = both(t, "-s", "-r", tc.rng, "-o", "f", u)
				sameRun(t, "-o", c, o)
			})
		}
	}
}

// multipartBoundary is nginx's boundary of a multipart/byteranges reply,
// a counter that differs between two requests.
var multipartBoundary = regexp.MustCompile(`(?m)^--\d{20}`)

// TestCurlRangeList: a list of ranges to nginx is its multipart reply
// as it came, for both (boundaries aside, which nginx counts).
func TestCurlRangeList(t *testing.T) {
	testbed.Require(t, testbed.Nginx)
	u := "http://" + testbed.Addr(testbed.HTTPPort) + "/text/lf.txt"
	for _, rng := range []string{"0-0,-1", "0-4,10-14", "0-3,20-"} {
		c, o := both(t, "-s", "-r", rng, u)
		c.stdout, o.stdout = multipartBoundary.ReplaceAllString(c.stdout, "--B"), multipartBoundary.ReplaceAllString(o.stdout, "--B")
		if c.stdout == "" || c.code != 0 {
			t.Fatalf("-r %s: curl exit %d %q", rng, c.code, c.stdout)
		}
		sameRun(t, "-r "+rng, c, o)
	}
}

// TestCurlRangeWhereURLGetIsExact: the README's differences from curl,
// each as it says — a range past the end over FTP fails (exit 6) where
// curl exits 36 (over HTTP both write the 416 page, exit 0, and exit 22
// with -f: an error status as any); the last N bytes of a shorter file
// are all of it over FTP as over HTTP, where curl's FTP exits 36; a list to
// FTP is refused (exit 8) where curl takes its first range; and a server
// that ignores Range gets urlget the range, curl the whole resource.
func TestCurlRangeWhereURLGetIsExact(t *testing.T) {
	httpURL := "http://" + testbed.Addr(testbed.HTTPPort) + "/text/lf.txt"
	ftpURL := "ftp://" + testbed.Addr(testbed.VsftpdPort) + "/text/lf.txt"
	testbed.Require(t, testbed.Nginx)
	testbed.Require(t, testbed.Vsftpd)
	for _, tc := range []struct {
		args                []string
		curlCode, ourCode   int
		curlWrote, ourWrote bool
	}{
		{[]string{"-s", "-r", "100-", ftpURL}, 36, 6, false, false},
		{[]string{"-s", "-r", "0-1,3-4", ftpURL}, 0, 8, true, false},
		{[]string{"-s", "-r", "-4000", ftpURL}, 36, 0, false, true},
		{[]string{"-s", "-r", "-4000", httpURL}, 0, 0, true, true},
	} {
		c, o := both(t, tc.args...)
		if c.code != tc.curlCode || o.code != tc.ourCode || (c.stdout != "") != tc.curlWrote || (o.stdout != "") != tc.ourWrote {
			t.Errorf("%q: curl exit %d %q; urlget exit %d %q %s", tc.args, c.code, c.stdout, o.code, o.stdout, o.stderr)
		}
	}
	for _, args := range [][]string{{"-s", "-r", "100-", httpURL}, {"-s", "-f", "-r", "100-", httpURL}} {
		c, o := both(t, args...)
		sameRun(t, fmt.Sprint(args), c, o)
	}
	ignores := newEcho(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "0123456789") })
	c, o := both(t, "-s", "-r", "2-5", ignores.URL+"/f")
	if c.stdout != "0123456789" || o.stdout != "2345" || c.code != 0 || o.code != 0 {
		t.Errorf("a server ignoring Range: curl %q exit %d, urlget %q exit %d", c.stdout, c.code, o.stdout, o.code)
	}
}

// TestCurlTimeCond: -z DATE, -z -DATE and -z FILE retrieve what curl
// retrieves, and write nothing where curl writes nothing (an existing -o
// file left alone), with curl's exit code and -w %{http_code}: nginx by
// If-Modified-Since/If-Unmodified-Since (and curl's own check where
// nginx answers a later date with 200), FTP by MDTM. The fixtures are
// all modified Tue, 02 Jan 2024 03:04:05 GMT.
func TestCurlTimeCond(t *testing.T) {
	dir := t.TempDir()
	mod := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	older, newer := filepath.Join(dir, "older"), filepath.Join(dir, "newer")
	for name, mt := range map[string]time.Time{older: mod.Add(-time.Hour), newer: mod.Add(time.Hour)} {
		os.WriteFile(name, nil, 0o644)
		os.Chtimes(name, mt, mt)
	}
	conds := []string{"1 Jan 2024", "3 Jan 2024", "Tue, 02 Jan 2024 03:04:05 GMT", "Tue, 02 Jan 2024 03:04:04 GMT",
		"-3 Jan 2024", "-Tue, 02 Jan 2024 03:04:06 GMT", older, newer, "-" + newer, filepath.Join(dir, "missing"), "2024-01-01"}
	for name, base := range rangeServers(t) {
		u := base + "/text/lf.txt"
		for _, cond := range append(conds, ftpOnly(name, "-1 Jan 2024", "-"+older, "-Tue, 02 Jan 2024 03:04:05 GMT")...) {
			t.Run(fmt.Sprintf("%s/%s", name, cond), func(t *testing.T) {
				c, o := both(t, "-s", "-w", "[%{http_code}]", "-z", cond, u)
				sameRun(t, "stdout", c, o)
				c, o = bothAt(t, func(dir string) { os.WriteFile(filepath.Join(dir, "f"), []byte("kept"), 0o644) }, "",
					"-s", "-z", cond, "-o", "f", u)
				sameRun(t, "-o", c, o)
			})
		}
	}
}

// ftpOnly is conds for an FTP server, none for nginx, where urlget and
// curl differ (TestCurlTimeCondDiffers).
func ftpOnly(server string, conds ...string) []string {
	if server == "nginx" {
		return nil
	}
	return conds
}

// TestCurlTimeCondDiffers: the README's differences from curl over HTTP:
// -z -DATE of a resource modified after DATE writes nothing with urlget,
// whose exit is 0 as curl's, where curl writes nginx's 412 page; and one
// modified exactly at DATE meets -z -DATE (RFC 9110 §13.1.4, and nginx
// sends it), where curl's own check drops it (curl's FTP sends it).
func TestCurlTimeCondDiffers(t *testing.T) {
	testbed.Require(t, testbed.Nginx)
	u := "http://" + testbed.Addr(testbed.HTTPPort) + "/text/lf.txt"
	c, o := both(t, "-s", "-w", "[%{http_code}]", "-z", "-1 Jan 2024", u)
	if c.code != 0 || o.code != 0 || o.stdout != "[412]" || len(c.stdout) <= len("[412]") || c.stdout[len(c.stdout)-5:] != "[412]" {
		t.Errorf("modified after: curl exit %d %q; urlget exit %d %q", c.code, c.stdout, o.code, o.stdout)
	}
	c, o = both(t, "-s", "-w", "[%{http_code}]", "-z", "-Tue, 02 Jan 2024 03:04:05 GMT", u)
	if c.code != 0 || o.code != 0 || c.stdout != "[304]" || o.stdout != "line one\nline two\nline three\n[200]" {
		t.Errorf("modified then: curl exit %d %q; urlget exit %d %q", c.code, c.stdout, o.code, o.stdout)
	}
}

// TestCurlDateForms: urlget reads -z's date as curl does: for each of
// curl_getdate's documented forms (and a few it refuses), the two send
// the same If-Modified-Since or If-Unmodified-Since, or none.
func TestCurlDateForms(t *testing.T) {
	srv := newEcho(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "x") })
	for _, d := range []string{
		"Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
		"06 Nov 1994 08:49:37 GMT", "06-Nov-94 08:49:37 GMT", "Nov  6 08:49:37 1994", "06 Nov 1994 08:49:37",
		"06-Nov-94 08:49:37", "1994 Nov 6 08:49:37", "GMT 08:49:37 06-Nov-94 Sunday", "94 6 Nov 08:49:37", "1994 Nov 6",
		"06-Nov-94", "Sun Nov 6 94", "1994.Nov.6", "Sun/Nov/6/94/GMT", "Sun, 06 Nov 1994 08:49:37 CET",
		"06 Nov 1994 08:49:37 EST", "Sun, 12 Sep 2004 15:05:58 -0700", "Sat, 11 Sep 2004 21:32:11 +0200",
		"20040912 15:05:58 -0700", "20040911 +0200", "20 Jan 2025", "Jan 10, 2017", "-Jan 10, 2017", "+Jan 10, 2017",
		"Wed 01 Sep 2021 12:18:00", "-Wed 01 Sep 2021 12:18:00", "1 Jan 2000 08:00 A", "31 Feb 2001", "01 Jan 2000 23:59:60",
		"12: 30 6 Nov 1994", "6 Nov 1994 8:49:37 GMT Sun 77", "30 Jun 2070 12:00 NZDT", "1 jan 2000 z",
		"yesterday", "2025-01-20", "Nov 1994", "32 Nov 1994", "6 Nov 1500", "6 Nov 1994 24:00:00", "6 Nov 1994 8:49:37 extra",
	} {
		both(t, "-s", "-z", d, srv.URL+"/")
		got := srv.take()
		if len(got) != 2 {
			t.Fatalf("%q: %d requests", d, len(got))
		}
		for _, f := range []string{"If-Modified-Since", "If-Unmodified-Since"} {
			if c, o := got[0].Get(f), got[1].Get(f); c != o {
				t.Errorf("-z %q: %s: curl %q, urlget %q", d, f, c, o)
			}
		}
	}
}
