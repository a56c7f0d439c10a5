//go:build integration

package integration

import (
	"bufio"
	"crypto/sha256"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/gateway"
	"github.com/urlget/urlget/integration/browser"
	"github.com/urlget/urlget/integration/dirsrv"
	"github.com/urlget/urlget/integration/hostile"
	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// browserGateway starts the gateway in-process (startGateway) with a
// client for the test bed, news: URLs read from its INN, and returns its
// base URL.
func browserGateway(t *testing.T) string {
	t.Helper()
	return startGateway(t, gateway.Options{Timeout: time.Minute, Client: &fetch.Client{
		Registry: mustRegistry(fetch.Config{Options: schemes.Options{"nntp-server": testbed.Addr(testbed.NNTPPort)}}),
		Dialer:   &transport.Dialer{ConnectTimeout: 10 * time.Second, IdleTimeout: 30 * time.Second},
	}})
}

// entryLink returns the link of the listing's entry named name (alone, or
// before a space and what a server added), failing the test without one.
func entryLink(t *testing.T, b *browser.Browser, name string) browser.Link {
	t.Helper()
	links := b.Links("#entries a")
	i := slices.IndexFunc(links, func(l browser.Link) bool { return l.Text == name || strings.HasPrefix(l.Text, name+" ") })
	if i < 0 {
		t.Fatalf("no entry %s in %s: %q", name, b.URL(), links)
	}
	return links[i]
}

// showsFixture checks that the page shown is the text of fixture file p,
// and that it ran no script.
func showsFixture(t *testing.T, b *browser.Browser, p string) {
	t.Helper()
	if got, want := b.Text("body"), testbed.FixtureFiles[p]; got != want {
		t.Errorf("%s shows %q, want %q", p, got, want)
	}
	b.NoScriptRan()
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
	b.ClickLink("Nested directories/")
	// gophernicus pads a name with its date and size.
	for _, name := range []string{"level1", "level2", "level3", "deep.txt"} {
		b.ClickHref(entryLink(t, b, name).Href)
	}
	showsFixture(t, b, "nested/level1/level2/level3/deep.txt")
}

// TestBrowserGatewayGopherSearch: gophernicus's type 7 item is a form on
// the menu's page; words typed into it reach the CGI, and its results
// lead on to the file found.
func TestBrowserGatewayGopherSearch(t *testing.T) {
	testbed.Require(t, testbed.Gophernicus)
	base := browserGateway(t)
	b := browser.Start(t)
	gatewayPage(t, b, base, "gopher://"+testbed.Addr(testbed.GophernicusPort)+"/")
	if st := b.SubmitForm("form.search", "q", "dotlines"); st != http.StatusOK {
		t.Fatalf("search: status %d", st)
	}
	want := base + gateway.Address("gopher://"+testbed.Addr(testbed.GophernicusPort)+"/0/text/dotlines.txt")
	if !slices.ContainsFunc(b.Links("#entries a"), func(l browser.Link) bool { return l.Href == want }) {
		t.Fatalf("search results at %s lack %s: %q", b.URL(), want, b.Links("#entries a"))
	}
	b.ClickHref(want)
	showsFixture(t, b, "text/dotlines.txt")
}

// TestBrowserGatewayFTP follows vsftpd's root to bin/ and small.bin, which
// the browser saves with the fixture's bytes.
func TestBrowserGatewayFTP(t *testing.T) {
	testbed.Require(t, testbed.Vsftpd)
	base := browserGateway(t)
	b := browser.Start(t)
	gatewayPage(t, b, base, "ftp://"+testbed.Addr(testbed.VsftpdPort)+"/")
	savesSmallBin(t, b)
}

// savesSmallBin clicks bin/ on the page b shows, finds small.bin there
// with its size, and saves it: the fixture's bytes.
func savesSmallBin(t *testing.T, b *browser.Browser) {
	t.Helper()
	b.ClickLink("bin/")
	entryLink(t, b, "small.bin")
	if got := b.Text(`#entries li:has(a[href$="/small.bin"])`); !strings.Contains(got, "256 bytes") {
		t.Errorf("small.bin's entry shows %q, want its size", got)
	}
	got, err := os.ReadFile(b.Download("small.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sha256.Sum256(got), sha256.Sum256(testbed.SmallBin()); got != want {
		t.Errorf("small.bin saved by the browser: SHA-256 %x, want %x", got, want)
	}
}

// TestBrowserGatewayProspero opens the virtual directory of dirsrv and its
// EXTERNAL link to vsftpd's README.txt, which the gateway resolves and
// retrieves over FTP.
func TestBrowserGatewayProspero(t *testing.T) {
	testbed.Require(t, testbed.Prospero)
	testbed.Require(t, testbed.Vsftpd)
	base := browserGateway(t)
	b := browser.Start(t)
	gatewayPage(t, b, base, prosperoURL(dirsrv.VirtualRoot))
	if got := b.Text("#entries"); !strings.Contains(got, "ftp://"+testbed.Addr(testbed.VsftpdPort)+"/%2FREADME.txt;type=i") {
		t.Errorf("the listing does not show where ftp-readme leads: %q", got)
	}
	// The link asks for the file as ;type=i (binary): the browser saves it.
	got, err := os.ReadFile(b.Download("ftp-readme"))
	if err != nil {
		t.Fatal(err)
	}
	if want := testbed.FixtureFiles["README.txt"]; string(got) != want {
		t.Errorf("ftp-readme saved as %q, want %q", got, want)
	}
}

// TestBrowserGatewayWAISSearch: a WAIS database's page is a search form;
// words typed into it come back as hits with their scores, each leading to
// its document.
func TestBrowserGatewayWAISSearch(t *testing.T) {
	testbed.Require(t, testbed.WAIS)
	base := browserGateway(t)
	b := browser.Start(t)
	gatewayPage(t, b, base, "wais://"+testbed.Addr(testbed.WAISPort)+"/demo")
	if st := b.SubmitForm("form.search", "q", "orchard gardening"); st != http.StatusOK {
		t.Fatalf("search: status %d", st)
	}
	if got := b.Text("#entries"); !strings.Contains(got, "Orchard management") || !slices.Contains(b.Texts("#entries dl.extra dt"), "score") {
		t.Fatalf("the WAIS search at %s shows %q, want its hits with their scores", b.URL(), got)
	}
	b.NoScriptRan()
	b.ClickLink("Orchard management")
	if got := b.Text("body"); !strings.Contains(strings.ToLower(got), "orchard") {
		t.Errorf("Orchard management shows %q", got)
	}
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

// TestBrowserGatewayNewsArticle opens INN's local.test, clicks the article
// with lines starting with dots, and finds its header fields and its body
// as posted; its Message-ID links to the same article, on the same server.
func TestBrowserGatewayNewsArticle(t *testing.T) {
	testbed.Require(t, testbed.INN)
	base := browserGateway(t)
	b := browser.Start(t)
	gatewayPage(t, b, base, "news:"+testbed.GroupTest)
	if st := b.ClickLink("Lines starting with dots"); st != http.StatusOK {
		t.Fatalf("the article: status %d", st)
	}
	head, body := nntpArticleFile(t, "01-dots.art")
	article := b.URL()
	idLink := showsArticle(t, b, head, body)
	if want := base + gateway.Address("news://"+testbed.Addr(testbed.NNTPPort)+"/"+strings.Trim(testbed.MsgDots, "<>")); idLink != want {
		t.Errorf("the Message-ID links to %s, want %s", idLink, want)
	}
	if st := b.ClickHref(idLink); st != http.StatusOK {
		t.Fatalf("the Message-ID's link: status %d", st)
	}
	if b.URL() == article {
		t.Fatalf("the Message-ID's link leads back to %s, not to the article by its id", article)
	}
	showsArticle(t, b, head, body)
}

// showsArticle checks that the page shown is the article whose header in
// the fixture is head (Subject, From and Message-ID among the fields on
// the page, as posted) and whose body is body, exactly; it returns where
// the Message-ID links.
func showsArticle(t *testing.T, b *browser.Browser, head, body string) (idLink string) {
	t.Helper()
	b.NoScriptRan()
	names, values := b.Texts("#header th"), b.Texts("#header td")
	shown := map[string]string{}
	for i := range min(len(names), len(values)) {
		shown[names[i]] = values[i]
	}
	for _, line := range strings.Split(strings.TrimSuffix(head, "\n"), "\n") {
		name, value, _ := strings.Cut(line, ": ")
		if slices.Contains([]string{"Subject", "From", "Message-ID", "Newsgroups"}, name) && shown[name] != value {
			t.Errorf("%s: %s shows %q, want %q", b.URL(), name, shown[name], value)
		}
	}
	if got := b.Text("#body"); got != body {
		t.Errorf("%s: the body shows\n%q\nwant\n%q", b.URL(), got, body)
	}
	for _, l := range b.Links("#header a") {
		if l.Text == testbed.MsgDots {
			return l.Href
		}
	}
	t.Fatalf("%s: the Message-ID %s is no link: %q", b.URL(), testbed.MsgDots, b.Links("#header a"))
	return ""
}
