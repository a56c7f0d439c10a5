//go:build integration

package integration

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/urlget/urlget/integration/browser"
	"github.com/urlget/urlget/integration/testbed"
)

// EnvScreenshots names the directory TestGatewayScreenshots writes the
// README's pictures to; unset, they go to the test's temporary directory
// and only show that the pages render. Take them with
//
//	URLGET_SCREENSHOTS=$PWD/docs go test -tags integration -count=1 -run TestGatewayScreenshots ./integration/
const EnvScreenshots = "URLGET_SCREENSHOTS"

// TestGatewayScreenshots takes the README's pictures of `urlget serve` in
// the same headless Chromium the tests drive: a gopher menu below
// pygopherd's root (its breadcrumbs, its directories, each Gopher+ item's
// facts), vsftpd's root directory (directories marked as such, files with
// their sizes and dates), INN's local.test (the articles with their
// senders and sizes) and a WAIS search typed into the demo database's
// form as a person would.
func TestGatewayScreenshots(t *testing.T) {
	for _, s := range []string{testbed.Pygopherd, testbed.Vsftpd, testbed.INN, testbed.WAIS} {
		testbed.Require(t, s)
	}
	dir := os.Getenv(EnvScreenshots)
	if dir == "" {
		dir = t.TempDir()
	}
	base := browserGateway(t)
	b := browser.Start(t)
	shot := func(name string) {
		t.Helper()
		b.NoScriptRan()
		p := filepath.Join(dir, name)
		b.Screenshot(p)
		png, err := os.ReadFile(p)
		if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) || len(png) < 10<<10 {
			t.Errorf("%s: %d bytes, %v: not a picture of a page", p, len(png), err)
		}
		if len(png) > maxScreenshot {
			t.Errorf("%s: %d bytes, more than %d for the README", p, len(png), maxScreenshot)
		}
		t.Logf("wrote %s (%d bytes)", p, len(png))
	}

	gatewayPage(t, b, base, "gopher://"+testbed.Addr(testbed.PygopherdPort)+"/1/fixtures")
	if b.Count("#crumbs a") == 0 || b.Count("#entries li.dir") == 0 || b.Count("#entries dl.extra") == 0 {
		t.Errorf("the gopher menu shows no crumbs, directories or Gopher+ facts: %q", b.Text("body"))
	}
	shot("gateway-gopher-menu.png")

	gatewayPage(t, b, base, "ftp://"+testbed.Addr(testbed.VsftpdPort)+"/")
	if dirs := b.Texts("#entries li.dir a"); !slices.Contains(dirs, "bin/") {
		t.Errorf("the FTP directory's directories are %q, want bin/", dirs)
	}
	shot("gateway-ftp-directory.png")

	gatewayPage(t, b, base, "news:"+testbed.GroupTest)
	if got := b.Text("#entries"); !strings.Contains(got, "Lines starting with dots") {
		t.Errorf("the news group shows %q", got)
	}
	shot("gateway-news-group.png")

	gatewayPage(t, b, base, "wais://"+testbed.Addr(testbed.WAISPort)+"/demo")
	if st := b.SubmitForm("form.search", "q", "orchard gardening"); st != http.StatusOK {
		t.Fatalf("the WAIS database's search form: status %d", st)
	}
	if got := b.Text("#entries"); !strings.Contains(got, "Orchard management") || !slices.Contains(b.Texts("#entries dl.extra dt"), "score") {
		t.Errorf("the WAIS search shows %q, want the hits with their scores", got)
	}
	shot("gateway-wais-search.png")
}

// maxScreenshot bounds each picture, which the repository keeps.
const maxScreenshot = 96 << 10
