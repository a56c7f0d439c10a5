//go:build integration

package integration

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

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
// since its log had offset bytes, once the gateway's Client has closed
// its sessions and their QUITs are logged (so that every command before
// them is).
func retrs(t *testing.T, service string, offset int64, closeIdle func(), name string) int {
	t.Helper()
	var cmds []string
	await.Until(t, service+" logging the gateway's QUITs", func() bool {
		// Again each time: a session goes back to the pool only once
		// its transfer's reply is read, which may come after the
		// client got the last byte.
		closeIdle()
		cmds = ftpCommands(t, service, offset)
		return count(cmds, "USER") > 0 && count(cmds, "QUIT") >= count(cmds, "USER")
	})
	n := 0
	for _, c := range cmds {
		if c == "RETR "+name {
			n++
		}
	}
	return n
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
			c := mirrorClient(io.Discard)
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
			if n := retrs(t, s.service, off, c.CloseIdleConnections, "doc.bin"); n != 1 {
				t.Errorf("%d RETR doc.bin for a GET and three revalidations, want 1", n)
			}
			// Changed an hour later, longer: fetched again.
			writeScratch(t, host, "doc.bin", "version 2, longer\n", testbed.FixtureModTime().Add(3600e9))
			off = testbed.LogSize(s.service)
			resp, body = cacheGet(t, url, "If-None-Match", tag, "If-Modified-Since", lm)
			if resp.StatusCode != 200 || body != "version 2, longer\n" || resp.Header.Get("ETag") == tag || resp.Header.Get("ETag") == "" {
				t.Errorf("changed: %d %q %v", resp.StatusCode, body, resp.Header)
			}
			if n := retrs(t, s.service, off, c.CloseIdleConnections, "doc.bin"); n != 1 {
				t.Errorf("changed: %d RETR doc.bin, want 1", n)
			}
			if t.Failed() {
				t.Logf("commands since the change: %q", strings.Join(ftpCommands(t, s.service, off), "; "))
			}
		})
	}
}
