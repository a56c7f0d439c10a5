//go:build integration

package integration

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
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
// the same headless Chromium the tests drive: gophernicus's root menu, and
// a WAIS search typed into the demo database's form as a person would.
func TestGatewayScreenshots(t *testing.T) {
	testbed.Require(t, testbed.Gophernicus)
	testbed.Require(t, testbed.WAIS)
	dir := os.Getenv(EnvScreenshots)
	if dir == "" {
		dir = t.TempDir()
	}
	base := browserGateway(t)
	b := browser.Start(t)
	shot := func(name string) {
		t.Helper()
		p := filepath.Join(dir, name)
		b.Screenshot(p)
		png, err := os.ReadFile(p)
		if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) || len(png) < 10<<10 {
			t.Errorf("%s: %d bytes, %v: not a picture of a page", p, len(png), err)
		}
		t.Logf("wrote %s (%d bytes)", p, len(png))
	}

	gatewayPage(t, b, base, "gopher://"+testbed.Addr(testbed.GophernicusPort)+"/")
	shot("gateway-gopher-menu.png")

	gatewayPage(t, b, base, "wais://"+testbed.Addr(testbed.WAISPort)+"/demo")
	if st := b.SubmitForm("form.search", "q", "orchard gardening"); st != http.StatusOK {
		t.Fatalf("the WAIS database's search form: status %d", st)
	}
	if got := b.Text("#entries"); !strings.Contains(got, "Orchard management") || !strings.Contains(got, "score=") {
		t.Errorf("the WAIS search shows %q, want the hits with their scores", got)
	}
	b.NoScriptRan()
	shot("gateway-wais-search.png")
}
