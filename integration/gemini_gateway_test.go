//go:build integration

package integration

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/urlget/urlget/gateway"
	"github.com/urlget/urlget/integration/browser"
	"github.com/urlget/urlget/integration/testbed"
)

// pageLinks parses an HTML page and returns its links' hrefs by their
// text, and the page's text.
func pageLinks(t *testing.T, body []byte) (map[string]string, string) {
	t.Helper()
	root, err := html.Parse(strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	links := map[string]string{}
	var text strings.Builder
	for n := range root.Descendants() {
		switch {
		case n.Type == html.TextNode:
			text.WriteString(n.Data)
		case n.Type == html.ElementNode && n.Data == "a":
			var label strings.Builder
			for c := range n.Descendants() {
				if c.Type == html.TextNode {
					label.WriteString(c.Data)
				}
			}
			for _, a := range n.Attr {
				if a.Key == "href" {
					links[label.String()] = a.Val
				}
			}
		}
	}
	return links, text.String()
}

// TestGeminiGateway: the gateway shows the capsule's index as a page,
// from one request, its text as the document reads and each link leading
// to the gateway address of its URL (the gopher server's too); the
// links lead on to the pages; a proxy's client gets the server's bytes.
func TestGeminiGateway(t *testing.T) {
	testbed.Require(t, testbed.Gemini)
	geminiHome(t)
	base := startGateway(t, gateway.Options{})
	capsule := "gemini://" + testbed.Host

	resp, body := gatewayGet(t, base, capsule+"/", "")
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("index: %d %s\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	links, text := pageLinks(t, body)
	for _, s := range []string{"# urlget's test capsule", "Served by molly-brown for urlget's integration tests.", "=> inside.gmi not a link: preformatted"} {
		if !strings.Contains(text, s) {
			t.Errorf("the page does not read %q:\n%s", s, text)
		}
	}
	for label, to := range map[string]string{
		"About this capsule":       capsule + "/about.gmi",
		"Documents/":               capsule + "/docs/",
		"Search (asks for input)":  capsule + "/cgi-bin/search",
		"A temporary redirect":     capsule + "/old",
		"A page that is not there": capsule + "/missing.gmi",
		"A gopher server":          "gopher://127.0.0.1:7070/",
	} {
		if got, want := links[label], gateway.Address(to); got != want || want == "" {
			t.Errorf("%q links to %q, want %q (%s)", label, got, want, to)
		}
	}
	if _, ok := links["not a link: preformatted"]; ok {
		t.Error("a preformatted line made a link")
	}
	if strings.Contains(string(body), `class="search"`) {
		t.Error("a search form on a document's page: the server asks for words where it wants them")
	}

	// Follow the links: a page and a directory's index.
	resp, body = gatewayGetURL(t, base+links["About this capsule"], "")
	about, _ := os.ReadFile(filepath.Join("servers", "molly-brown", "capsule", "about.gmi"))
	firstLine, _, _ := strings.Cut(string(about), "\n")
	if _, text := pageLinks(t, body); resp.StatusCode != 200 || !strings.Contains(text, firstLine) {
		t.Errorf("about.gmi: %d\n%s\nwant it to read %q", resp.StatusCode, body, firstLine)
	}
	resp, body = gatewayGetURL(t, base+links["Documents/"], "")
	if docs, _ := pageLinks(t, body); resp.StatusCode != 200 || docs["One"] != gateway.Address(capsule+"/docs/one.txt") {
		t.Errorf("docs/: %d %v\n%s", resp.StatusCode, docs, body)
	}
	resp, body = gatewayGetURL(t, base+gateway.Address(capsule+"/docs/one.txt"), "")
	one, _ := os.ReadFile(filepath.Join("servers", "molly-brown", "capsule", "docs", "one.txt"))
	if resp.StatusCode != 200 || string(body) != string(one) {
		t.Errorf("docs/one.txt: %d %q, want the bytes %q", resp.StatusCode, body, one)
	}

	// As a proxy the gateway hands over what the server sent.
	c, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte("GET " + capsule + "/ HTTP/1.1\r\nHost: " + testbed.Host + "\r\nConnection: close\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	presp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer presp.Body.Close()
	rawb, _ := io.ReadAll(presp.Body)
	raw := string(rawb)
	index, _ := os.ReadFile(filepath.Join("servers", "molly-brown", "capsule", "index.gmi"))
	if presp.StatusCode != 200 || raw != string(index) || !strings.HasPrefix(presp.Header.Get("Content-Type"), "text/gemini") {
		t.Errorf("as a proxy: %d %s %q, want the document's bytes", presp.StatusCode, presp.Header.Get("Content-Type"), raw)
	}
}

// TestBrowserGatewayGemini: in Chromium the capsule's index reads as its
// text with its links; a click leads to a page, and the search page
// (status 10) is a form whose words reach the CGI.
func TestBrowserGatewayGemini(t *testing.T) {
	testbed.Require(t, testbed.Gemini)
	geminiHome(t)
	base := browserGateway(t)
	b := browser.Start(t)
	capsule := "gemini://" + testbed.Host
	gatewayPage(t, b, base, capsule+"/")
	if got := b.Text("#entries"); !strings.Contains(got, "Served by molly-brown for urlget's integration tests.") {
		t.Errorf("the page's text is not shown: %q", got)
	}
	b.ClickLink("About this capsule")
	about, _ := os.ReadFile(filepath.Join("servers", "molly-brown", "capsule", "about.gmi"))
	firstLine, _, _ := strings.Cut(string(about), "\n")
	if got := b.Text("#entries"); b.URL() != base+gateway.Address(capsule+"/about.gmi") || !strings.Contains(got, firstLine) {
		t.Errorf("after the click: %s reads %q, want %q", b.URL(), got, firstLine)
	}
	b.NoScriptRan()

	gatewayPage(t, b, base, capsule+"/")
	b.ClickLink("Search (asks for input)")
	if st := b.SubmitForm("form.search", "q", "two words"); st != http.StatusOK {
		t.Fatalf("search: status %d: %s", st, b.Text("body"))
	}
	if got := b.Text("body"); !strings.Contains(got, "You searched for: two%20words") {
		t.Errorf("search results at %s: %q", b.URL(), got)
	}
	b.NoScriptRan()
}
