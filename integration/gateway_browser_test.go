//go:build integration

package integration

import (
	"bufio"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/gateway"
	"github.com/urlget/urlget/integration/browser"
	"github.com/urlget/urlget/integration/hostile"
	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/schemes/nntp"
	"github.com/urlget/urlget/transport"
)

// browserGateway starts the gateway in-process (startGateway) with a
// client for the test bed, news: URLs read from its INN, and returns its
// base URL.
func browserGateway(t *testing.T) string {
	t.Helper()
	return startGateway(t, gateway.Options{Timeout: time.Minute, Client: &fetch.Client{
		Registry: fetch.NewRegistry(fetch.Config{NNTP: &nntp.Handler{Server: testbed.Addr(testbed.NNTPPort)}}),
		Dialer:   &transport.Dialer{ConnectTimeout: 10 * time.Second, IdleTimeout: 30 * time.Second},
	}})
}

// gatewayPage opens raw's gateway address in b and fails unless it loads
// with status 200 and no script of its own ran.
func gatewayPage(t *testing.T, b *browser.Browser, base, raw string) {
	t.Helper()
	if st := b.Open(base + gateway.Address(raw)); st != http.StatusOK {
		t.Fatalf("%s: status %d: %s", raw, st, b.Text("body"))
	}
	b.NoScriptRan()
}

// TestBrowserGatewayGopher walks gophernicus's root menu to a text file,
// one click a level.
func TestBrowserGatewayGopher(t *testing.T) {
	testbed.Require(t, testbed.Gophernicus)
	base := browserGateway(t)
	b := browser.Start(t)
	root := "gopher://" + testbed.Addr(testbed.GophernicusPort) + "/"
	gatewayPage(t, b, base, root)
	if got := b.Text("#entries"); !strings.Contains(got, "Welcome to the urlget Gopher test server") {
		t.Errorf("the menu's info lines are not shown: %q", got)
	}
	b.ClickLink("Nested directories")
	for _, d := range []string{"level1", "level2", "level3"} {
		links := b.Links("#entries a")
		i := slices.IndexFunc(links, func(l browser.Link) bool { return strings.HasPrefix(l.Text, d+" ") || l.Text == d })
		if i < 0 {
			t.Fatalf("no %s in %s: %q", d, b.URL(), links)
		}
		b.ClickHref(links[i].Href)
	}
	links := b.Links("#entries a")
	i := slices.IndexFunc(links, func(l browser.Link) bool { return strings.HasPrefix(l.Text, "deep.txt") })
	if i < 0 {
		t.Fatalf("no deep.txt in %s: %q", b.URL(), links)
	}
	b.ClickHref(links[i].Href)
	if got, want := b.Text("body"), testbed.FixtureFiles["nested/level1/level2/level3/deep.txt"]; got != want {
		t.Errorf("deep.txt shows %q, want %q", got, want)
	}
	b.NoScriptRan()
}

// hostileMenu is a gopher menu whose display strings and selectors try to
// run window.top.__pwned=1 on the gateway's page in every way a name can.
const hostileMenu = "i<script>window.top.__pwned=1</script>\tfake\t(NULL)\t0\r\n" +
	"0\"><img src=x onerror=\"window.top.__pwned=1\">\t/a\t127.0.0.1\t70\r\n" +
	"1'><svg onload=window.top.__pwned=1>\t/b'><script>window.top.__pwned=1</script>\t127.0.0.1\t70\r\n" +
	"hjavascript link\tURL:javascript:window.top.__pwned=1\t127.0.0.1\t70\r\n" +
	"7<iframe srcdoc=\"<script>window.top.__pwned=1</script>\">\t/s\"><script>window.top.__pwned=1</script>\t127.0.0.1\t70\r\n" +
	"0\x1b[31mred\x07 and a \x00nul\t/c\t127.0.0.1\t70\r\n" +
	".\r\n"

// TestBrowserGatewayHostileListing: a gopher server's hostile names and
// selectors are text on the gateway's page; no script runs.
func TestBrowserGatewayHostileListing(t *testing.T) {
	srv, err := hostile.Start(func(c *hostile.Conn) {
		if _, err := bufio.NewReader(c).ReadString('\n'); err == nil {
			io.WriteString(c, hostileMenu)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	base := browserGateway(t)
	b := browser.Start(t)
	gatewayPage(t, b, base, "gopher://"+srv.HostPort()+"/")
	b.NoScriptRan("__pwned")
	got := b.Text("#entries")
	for _, want := range []string{"<script>window.top.__pwned=1</script>", `"><img src=x onerror="window.top.__pwned=1">`, "'><svg onload=window.top.__pwned=1>", "javascript link"} {
		if !strings.Contains(got, want) {
			t.Errorf("the page does not show %q as text:\n%s", want, got)
		}
	}
	for _, l := range b.Links("#entries a") {
		if strings.HasPrefix(strings.ToLower(l.Href), "javascript:") {
			t.Errorf("a javascript: link on the page: %q -> %s", l.Text, l.Href)
		}
	}
	if out := b.Outside(); len(out) > 0 {
		t.Errorf("the page reached beyond 127.0.0.1: %q", out)
	}
}
