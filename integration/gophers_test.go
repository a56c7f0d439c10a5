//go:build integration

package integration

import (
	"context"
	"fmt"
	"html"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/gateway"
	"github.com/urlget/urlget/integration/conformance"
	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// gophers: gophernicus behind stunnel (testbed.GophersPort), the same
// gopher hole as the plain service on GophernicusPort, over TLS with a
// certificate of the test bed's CA. Its menus name the TLS port, so a
// gophers menu's items are gophers URLs on it.

// gophersURL is gophernicusURL over TLS: the same item types and
// selectors, on the TLS port.
func gophersURL(p string) string {
	return toGophers(gophernicusURL(p))
}

// toGophers maps a URL of the plain gophernicus service to its TLS twin's.
func toGophers(raw string) string {
	plain := "gopher://" + testbed.Addr(testbed.GophernicusPort) + "/"
	if rest, ok := strings.CutPrefix(raw, plain); ok {
		return "gophers://" + testbed.Addr(testbed.GophersPort) + "/" + rest
	}
	return raw
}

// gophersClient trusts the test bed's CA, as --cacert does.
func gophersClient(t *testing.T) *fetch.Client {
	t.Helper()
	cfg, err := transport.TLSConfig(testbed.CACertFile(), false, "")
	if err != nil {
		t.Fatal(err)
	}
	c := &fetch.Client{
		Dialer: &transport.Dialer{ConnectTimeout: 10 * time.Second, IdleTimeout: 30 * time.Second},
		TLS:    cfg,
	}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// TestConformanceGophers runs the suite against gophernicus over TLS,
// verifying the server with the test bed's CA (and refused without it).
func TestConformanceGophers(t *testing.T) {
	testbed.Require(t, testbed.GophernicusTLS)
	conformance.Run(t, conformance.Target{Name: "gophernicus-tls", URL: gophersURL,
		DirURL: func(p string) string {
			return toGophers(gopherURL(testbed.GophernicusPort, "1", "", "")(gophernicusSelector("/" + p)))
		},
		ListName: func(name string) string { return gophernicusSelector(name) },
		TLS:      &conformance.TLSConfig{CAFile: testbed.CACertFile()}})
}

// listEntries lists raw with c and returns its entries; an error ends the
// test. No deadline of its own: c's dialer bounds connecting and silence.
func listEntries(t *testing.T, c *fetch.Client, raw string) []schemes.Entry {
	t.Helper()
	resp, err := c.List(context.Background(), raw)
	if err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	ents, err := schemes.ReadAll(resp.Listing)
	if err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return ents
}

// menuDate is the modification time in gophernicus's display strings,
// which differs between the two containers for what each makes at start
// (the fixture symlinks, the image's cgi-bin).
var menuDate = regexp.MustCompile(`\d{4}-[A-Z][a-z]{2}-\d\d \d\d:\d\d`)

// TestGophersMenu: the root menu over TLS is the plain service's, entry
// for entry, with every gopher item on the server a gophers URL on the TLS
// port (a gophers menu's items stay on TLS; gophernicus writes the port
// stunnel listens on), and the other items (the h URL, telnet) as they are.
func TestGophersMenu(t *testing.T) {
	testbed.Require(t, testbed.Gophernicus)
	testbed.Require(t, testbed.GophernicusTLS)
	plain := listEntries(t, &fetch.Client{}, "gopher://"+testbed.Addr(testbed.GophernicusPort)+"/1/")
	tls := listEntries(t, gophersClient(t), "gophers://"+testbed.Addr(testbed.GophersPort)+"/1/")
	if len(tls) != len(plain) || len(tls) < 10 {
		t.Fatalf("%d entries over TLS, %d in the plain menu", len(tls), len(plain))
	}
	onTLS := 0
	for i, e := range tls {
		p := plain[i]
		want := toGophers(gopherDest(p))
		if strings.HasPrefix(want, "gopher://") && p.Locator != nil {
			// Another gopher server's item (pygopherd): still TLS, as
			// the menu it came in.
			want = "gophers" + strings.TrimPrefix(want, "gopher")
		}
		if menuDate.ReplaceAllString(e.Label(), "") != menuDate.ReplaceAllString(p.Label(), "") || gopherDest(e) != want {
			t.Errorf("entry %d: %q -> %q, want %q -> %q", i, e.Label(), gopherDest(e), p.Label(), want)
		}
		if strings.HasPrefix(gopherDest(e), "gophers://"+testbed.Addr(testbed.GophersPort)+"/") {
			onTLS++
		}
	}
	if onTLS < 8 {
		t.Errorf("%d items on the TLS server, want the hole's items and fixtures", onTLS)
	}
}

// TestGophersFiles: urlget --cacert fetches over gophers a text item (CRLF
// on the wire, the LF fixture out), the CRLF file as type 9 (its bytes as
// they are), a small and the 64 MiB binary, byte exact; and a menu listed
// with `urlget ls` names gophers items.
func TestGophersFiles(t *testing.T) {
	testbed.Require(t, testbed.GophernicusTLS)
	dir := t.TempDir()
	for p, raw := range map[string]string{
		"text/lf.txt":   gophersURL("text/lf.txt"),
		"text/crlf.txt": toGophers(gopherURL(testbed.GophernicusPort, "9", "", "")("/text/crlf.txt")),
		"bin/small.bin": gophersURL("bin/small.bin"),
		testbed.BigFile: gophersURL(testbed.BigFile),
	} {
		out := filepath.Join(dir, strings.ReplaceAll(p, "/", "_"))
		if r := runURLGet(t, dir, "--cacert", testbed.CACertFile(), "-s", "-o", out, raw); r.code != 0 {
			t.Fatalf("%s: exit %d: %s", p, r.code, r.stderr)
		}
		gotSum, gotLen := fileSHA256(t, out)
		wantSum, wantLen := fileSHA256(t, filepath.Join(testbed.FixtureDir(), p))
		if gotSum != wantSum || gotLen != wantLen {
			t.Errorf("%s: %d bytes %s, want %d bytes %s", p, gotLen, gotSum, wantLen, wantSum)
		}
	}
	menu, code := runURLGetOutput(t, dir, "ls", "--cacert", testbed.CACertFile(), "gophers://"+testbed.Addr(testbed.GophersPort)+"/1/text")
	if code != 0 || !strings.Contains(menu, "<gophers://"+testbed.Addr(testbed.GophersPort)+"/0/text/lf.txt>") {
		t.Errorf("ls of the text menu: exit %d:\n%s", code, menu)
	}
}

// TestGophersUntrusted: without the test CA the server's certificate is
// refused before any selector is sent, exit 7 (a safety refusal, the
// README's table), saying how to trust it; -k fetches.
func TestGophersUntrusted(t *testing.T) {
	testbed.Require(t, testbed.GophernicusTLS)
	dir := t.TempDir()
	raw := gophersURL("bin/small.bin")
	off := testbed.LogSize(testbed.GophernicusTLS)
	r := runURLGet(t, dir, "-s", "-S", "-o", "out", raw)
	if r.code != 7 || !strings.Contains(r.stderr, "not trusted") || !strings.Contains(r.stderr, "--cacert") {
		t.Errorf("without the CA: exit %d, %q; want 7, a refused certificate", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		t.Errorf("an output file was made from an untrusted server")
	}
	if log, err := testbed.ReadProtocolLogSince(testbed.GophernicusTLS, off); err != nil || strings.Contains(string(log), "small.bin") {
		t.Errorf("the selector reached gophernicus (%v):\n%s", err, log)
	}
	if r := runURLGet(t, dir, "-k", "-s", "-o", "out", raw); r.code != 0 {
		t.Fatalf("-k: exit %d: %s", r.code, r.stderr)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "out"))
	if string(got) != testbed.FixtureFiles["bin/small.bin"] {
		t.Errorf("-k: %d bytes, not the fixture", len(got))
	}
}

// TestServeGophers: `urlget serve --cacert` shows the gophers root menu as
// a page whose items link to their gophers gateway addresses, and follows
// the lf.txt link to the fixture; without the CA it shows no menu.
func TestServeGophers(t *testing.T) {
	testbed.Require(t, testbed.GophernicusTLS)
	root := "gophers://" + testbed.Addr(testbed.GophersPort) + "/1/"
	srv := startServe(t, "--cacert", testbed.CACertFile())
	resp, body := gatewayGet(t, srv.base, root, "")
	page := string(body)
	if resp.StatusCode != 200 || !strings.Contains(page, `<ul id="entries">`) || strings.Contains(page, `class="error"`) {
		t.Fatalf("%s: %d\n%s", root, resp.StatusCode, page)
	}
	// Every link to the server stays on TLS.
	links := regexp.MustCompile(`href="(/gophers?/[^"]*)"`).FindAllStringSubmatch(page, -1)
	tlsLinks := 0
	for _, l := range links {
		if strings.HasPrefix(l[1], "/gopher/") && strings.Contains(l[1], fmt.Sprint(testbed.GophernicusPort)) {
			t.Errorf("a plain gopher link in a gophers menu: %s", l[1])
		}
		if strings.HasPrefix(l[1], "/gophers/") {
			tlsLinks++
		}
	}
	if tlsLinks < 8 {
		t.Errorf("%d gophers links on the page:\n%s", tlsLinks, page)
	}
	lf := gateway.Address(gophersURL("text/lf.txt"))
	if !strings.Contains(page, `href="`+html.EscapeString(lf)+`"`) {
		t.Fatalf("no link to %s on the page", lf)
	}
	r, err := http.Get(srv.base + lf)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r.Body)
	r.Body.Close()
	if err != nil || r.StatusCode != 200 || string(got) != testbed.FixtureFiles["text/lf.txt"] {
		t.Errorf("following %s: %d %q", lf, r.StatusCode, got)
	}

	bare := startServe(t)
	resp, body = gatewayGet(t, bare.base, root, "")
	if resp.StatusCode == 200 && strings.Contains(string(body), "lf.txt") {
		t.Errorf("without the CA the gateway showed the menu: %d\n%s", resp.StatusCode, body)
	}
}
