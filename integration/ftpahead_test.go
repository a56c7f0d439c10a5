//go:build integration

package integration

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/schemes"
)

// TestFTPEPSVAhead: files fetched one after another, each request naming
// the ones after it (as a mirror's batch and a URL list do), get the next
// file's EPSV sent with RETR, on every real server: vsftpd and proftpd
// answer it after the 226 and the next files use its port (no EPSV in
// their turn); pure-ftpd may refuse it during the transfer ("500 Unknown
// command"), after which it is sent EPSV in its turn. Every file is
// whole, and one login serves them all.
func TestFTPEPSVAhead(t *testing.T) {
	names := []string{"many/file-0001.txt", "many/file-0002.txt", "many/file-0003.txt", "many/file-0004.txt"}
	for _, s := range ftpServers {
		t.Run(s.service, func(t *testing.T) {
			testbed.Require(t, s.service)
			var trace strings.Builder
			var mu sync.Mutex
			c := mirrorClient(lockedWriter{&mu, &trace})
			defer c.CloseIdleConnections()
			var locs []schemes.Locator
			for _, n := range names {
				loc, err := c.Parse(fmt.Sprintf("ftp://%s/%s", testbed.Addr(s.port), n))
				if err != nil {
					t.Fatal(err)
				}
				locs = append(locs, loc)
			}
			for i, n := range names {
				resp, err := c.Do(schemes.WithNext(context.Background(), locs[i+1:]), &fetch.Request{URL: locs[i]})
				if err != nil {
					t.Fatalf("%s: %v\n%s", n, err, trace.String())
				}
				got, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				want, _ := os.ReadFile(filepath.Join(testbed.FixtureDir(), n))
				if err != nil || string(got) != string(want) {
					t.Fatalf("%s: %q, %v; want %q", n, got, err, want)
				}
			}
			mu.Lock()
			tr := trace.String()
			mu.Unlock()
			used := strings.Count(tr, "the passive port asked for during the last transfer")
			refused := strings.Contains(tr, "the EPSV sent ahead was refused")
			switch {
			case s.service == testbed.Pureftpd && refused:
				t.Logf("refused during the transfer, then EPSV in its turn (%d ports used)", used)
			case used != len(names)-1 || refused:
				t.Errorf("%d of %d files used the port asked for ahead (refused: %v):\n%s", used, len(names)-1, refused, tr)
			}
			if n := strings.Count(tr, "> USER "); n != 1 {
				t.Errorf("%d logins, want 1:\n%s", n, tr)
			}
		})
	}
}
