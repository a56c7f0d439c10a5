//go:build integration

package integration

import (
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/gateway"
	"github.com/urlget/urlget/integration/browser"
	"github.com/urlget/urlget/integration/testbed"
)

// TestSFTPBrowserGateway opens alice's sftp URL, password and all, in
// Chromium through the gateway: the page it lands on shows the fixture
// root without the password (address, text, links), bin/ is a click
// away, and small.bin saved from there has the fixture's bytes.
func TestSFTPBrowserGateway(t *testing.T) {
	c := sftpFetchClient(t)
	base := startGateway(t, gateway.Options{Timeout: time.Minute, Client: c})
	b := browser.Start(t)
	gatewayPage(t, b, base, sftpURL(""))
	var hrefs []string
	for _, l := range b.Links("a") {
		hrefs = append(hrefs, l.Href)
	}
	if page := b.URL() + b.Text("html") + strings.Join(hrefs, " "); strings.Contains(page, testbed.AlicePassword) {
		t.Fatalf("the page at %s shows the password", b.URL())
	}
	savesSmallBin(t, b)
}
