//go:build integration

package integration

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/gateway"
	"github.com/urlget/urlget/integration/hostile"
	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/schemes/mailto"
)

// startGateway runs the gateway in this process on 127.0.0.1:0 with opt
// (its Hosts those of the port it got; a nil Client the zero Client's
// policy, as `urlget serve` without flags) and returns its base URL,
// "http://127.0.0.1:PORT".
func startGateway(t *testing.T, opt gateway.Options) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	opt.Hosts = gateway.HostsFor(ln.Addr())
	srv := &http.Server{Handler: gateway.New(opt), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

// gatewayGet asks the gateway for raw's address, with Range rng if set.
func gatewayGet(t *testing.T, base, raw, rng string) (*http.Response, []byte) {
	t.Helper()
	return gatewayGetURL(t, base+gateway.Address(raw), rng)
}

// gatewayGetURL asks for url, an address on the gateway, with Range rng
// if set, and returns the answer with its body read.
func gatewayGetURL(t *testing.T, url, rng string) (*http.Response, []byte) {
	t.Helper()
	var hdr []string
	if rng != "" {
		hdr = []string{"Range", rng}
	}
	resp, b := cacheGet(t, url, hdr...)
	return resp, []byte(b)
}

// TestServeGopherMenu: gophernicus's and pygopherd's root menus as
// gateway pages: one <li> per entry the library lists, each item linked
// to its gateway address, and no error under the menu — pygopherd's plain
// menu has no "." line and is asked again the Gopher+ way, whose `+-2`
// reply is whole at the server's close.
func TestServeGopherMenu(t *testing.T) {
	base := startGateway(t, gateway.Options{})
	for _, s := range []struct {
		service string
		port    int
	}{{testbed.Gophernicus, testbed.GophernicusPort}, {testbed.Pygopherd, testbed.PygopherdPort}} {
		t.Run(s.service, func(t *testing.T) {
			testbed.Require(t, s.service)
			checkGatewayMenu(t, base, fmt.Sprintf("gopher://%s/1/", testbed.Addr(s.port)))
		})
	}
	// Follow the README.txt item to its text.
	resp, body := gatewayGet(t, base, fmt.Sprintf("gopher://%s/0/README.txt", testbed.Addr(testbed.GophernicusPort)), "")
	want, _ := os.ReadFile(filepath.Join(testbed.FixtureDir(), "README.txt"))
	if resp.StatusCode != 200 || string(body) != string(want) {
		t.Errorf("README.txt: %d %q, want %q", resp.StatusCode, body, want)
	}
}

// checkGatewayMenu asks the gateway for the menu at raw and checks its
// page against the library's listing of it, with the entries' times as
// the gateway asks for them: one <li> per entry, a link to each item's
// gateway address (to its form's, for an item that asks questions
// first), and no error.
func checkGatewayMenu(t *testing.T, base, raw string) {
	t.Helper()
	resp, body := gatewayGet(t, base, raw, "")
	page := string(body)
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || !strings.Contains(page, `<ul id="entries">`) {
		t.Fatalf("%d %s\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), page)
	}
	if strings.Contains(page, `class="error"`) {
		t.Errorf("an error on the page of %s:\n%s", raw, page)
	}
	c := &fetch.Client{}
	req, err := c.NewRequest(fetch.MethodList, raw)
	if err != nil {
		t.Fatal(err)
	}
	req.WantModTime = true
	l, err := c.Do(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	n := 0
	for e, err := range schemes.Entries(l.Listing) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		to := e.Locator
		if e.Form != nil {
			to = e.Form
		}
		if to != nil && !strings.Contains(page, `href="`+strings.ReplaceAll(gateway.LocatorAddress(to), "&", "&amp;")+`"`) {
			t.Errorf("no link to %s (%s)", gateway.LocatorAddress(to), e.Label())
		}
	}
	if got := strings.Count(page, "<li"); got != n || n < 5 {
		t.Errorf("%d <li> on the page, %d entries listed", got, n)
	}
}

// TestServeFTPBinary: a 64 MiB file through the gateway is the fixture,
// by its SHA-256.
func TestServeFTPBinary(t *testing.T) {
	base := startGateway(t, gateway.Options{})
	sums, err := os.ReadFile(filepath.Join(testbed.FixtureDir(), "bin", "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	var want string
	for _, line := range strings.Split(string(sums), "\n") {
		if sum, name, ok := strings.Cut(line, "  "); ok && name == "big-64M.bin" {
			want = sum
		}
	}
	req, _ := http.NewRequest("GET", base+gateway.Address(fmt.Sprintf("ftp://%s/bin/big-64M.bin", testbed.Addr(testbed.VsftpdPort))), nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	h := sha256.New()
	n, err := io.Copy(h, resp.Body)
	if err != nil || resp.StatusCode != 200 || hex.EncodeToString(h.Sum(nil)) != want || resp.ContentLength != n {
		t.Errorf("%d, %d bytes (Content-Length %d), %v: sha256 %x, want %s", resp.StatusCode, n, resp.ContentLength, err, h.Sum(nil), want)
	}
	if resp.Header.Get("Content-Security-Policy") != "sandbox" || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("headers: %v", resp.Header)
	}
}

// TestServeRange: a Range is the scheme's resume, on FTP (REST) and HTTP
// (Range), answered 206 with the bytes asked for.
func TestServeRange(t *testing.T) {
	base := startGateway(t, gateway.Options{})
	local, err := os.ReadFile(filepath.Join(testbed.FixtureDir(), "bin", "small.bin"))
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{
		fmt.Sprintf("ftp://%s/bin/small.bin", testbed.Addr(testbed.VsftpdPort)),
		fmt.Sprintf("http://%s/bin/small.bin", testbed.Addr(testbed.HTTPPort)),
	} {
		for _, c := range []struct {
			rng    string
			body   []byte
			crange string
		}{
			{"bytes=100-", local[100:], "bytes 100-255/256"},
			{"bytes=100-109", local[100:110], "bytes 100-109/256"},
		} {
			resp, body := gatewayGet(t, base, u, c.rng)
			if resp.StatusCode != http.StatusPartialContent || string(body) != string(c.body) || resp.Header.Get("Content-Range") != c.crange {
				t.Errorf("%s %s: %d %q %x", u, c.rng, resp.StatusCode, resp.Header.Get("Content-Range"), body)
			}
		}
		// HEAD is the scheme's stat: the size without the bytes.
		resp, err := http.Head(base + gateway.Address(u))
		if err != nil || resp.StatusCode != 200 || resp.ContentLength != int64(len(local)) || resp.Header.Get("Accept-Ranges") != "bytes" {
			t.Errorf("HEAD %s: %v %v", u, resp, err)
		}
	}
	// Gopher cannot resume: a Range is answered with the whole file, 200.
	resp, body := gatewayGet(t, base, fmt.Sprintf("gopher://%s/9/bin/small.bin", testbed.Addr(testbed.GophernicusPort)), "bytes=100-")
	if resp.StatusCode != 200 || string(body) != string(local) || resp.Header.Get("Content-Range") != "" {
		t.Errorf("gopher Range: %d %q, %d bytes", resp.StatusCode, resp.Header.Get("Content-Range"), len(body))
	}
}

// TestServeProxy: curl with the gateway as its proxy gets what a direct
// urlget fetch gets, for every scheme of the test bed: -x for ftp:// and
// http:// (curl sends absolute form), --request-target for the others
// (for which curl would ask a tunnel). A listing asked for as JSON holds
// the entries `urlget --json` prints.
func TestServeProxy(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("no curl")
	}
	base := startGateway(t, gateway.Options{})
	// A WAIS document's URL is its DocID, as a search lists it.
	hits, err := (&fetch.Client{}).List(context.Background(), fmt.Sprintf("wais://%s/demo?leviathan", testbed.Addr(testbed.WAISPort)))
	if err != nil {
		t.Fatal(err)
	}
	hit, err := hits.Listing.Next()
	hits.Close()
	if err != nil || hit.Locator == nil {
		t.Fatalf("WAIS search: %v %v", hit, err)
	}
	for _, c := range []struct {
		url    string
		target bool // ask with --request-target
		json   bool // Accept: application/json
	}{
		{fmt.Sprintf("ftp://%s/README.txt", testbed.Addr(testbed.VsftpdPort)), false, false},
		{fmt.Sprintf("ftp://%s/bin/small.bin", testbed.Addr(testbed.VsftpdPort)), false, false},
		{fmt.Sprintf("http://%s/README.txt", testbed.Addr(testbed.HTTPPort)), false, false},
		{fmt.Sprintf("gopher://%s/0/README.txt", testbed.Addr(testbed.GophernicusPort)), true, false},
		{fmt.Sprintf("gopher://%s/9/bin/small.bin", testbed.Addr(testbed.GophernicusPort)), true, false},
		{fmt.Sprintf("nntp://%s/%s/1", testbed.Addr(testbed.NNTPPort), testbed.GroupTest), true, false},
		{hit.Locator.String(), true, false},
		{fmt.Sprintf("prospero://%s/%s/README.txt", testbed.Addr(testbed.ProsperoPort), prosperoRoot), true, false},
		{fmt.Sprintf("ftp://%s/bin/", testbed.Addr(testbed.VsftpdPort)), false, true},
		{fmt.Sprintf("gopher://%s/1/", testbed.Addr(testbed.GophernicusPort)), true, true},
		{fmt.Sprintf("wais://%s/demo?leviathan", testbed.Addr(testbed.WAISPort)), true, true},
	} {
		args := []string{"-sS", "--fail", "-x", base}
		if c.json {
			args = append(args, "-H", "Accept: application/json")
		}
		if c.target {
			// The URL curl is given only names the Host it sends.
			args = append(args, "--request-target", c.url, "http://127.0.0.1/")
		} else {
			args = append(args, c.url)
		}
		got, err := exec.Command("curl", args...).Output()
		if err != nil {
			t.Errorf("curl %v: %v", args, err)
			continue
		}
		uargs := []string{"-sS", c.url}
		if c.json {
			uargs = []string{"-sS", "--json", c.url}
		}
		direct, err := exec.Command(urlgetBinary(t), uargs...).Output()
		if err != nil {
			t.Errorf("urlget %s: %v", c.url, err)
			continue
		}
		if c.json {
			var a, b struct{ Entries []json.RawMessage }
			if json.Unmarshal(got, &a) != nil || json.Unmarshal(direct, &b) != nil || len(a.Entries) == 0 || fmt.Sprint(a.Entries) != fmt.Sprint(b.Entries) {
				t.Errorf("%s: through the gateway\n%s\ndirect\n%s", c.url, got, direct)
			}
			continue
		}
		if string(got) != string(direct) || len(got) == 0 {
			t.Errorf("%s: through the gateway %d bytes, direct %d bytes", c.url, len(got), len(direct))
		}
	}
}

// TestServeHostileNames: a gopher server's titles and selectors are text
// on the page, never markup or script.
func TestServeHostileNames(t *testing.T) {
	srv, err := hostile.Start(func(c *hostile.Conn) {
		if _, err := bufio.NewReader(c).ReadString('\n'); err == nil {
			io.WriteString(c, "i<script>alert('info')</script>\t\terror.host\t1\r\n"+
				"0<script>alert(1)</script>\t/<script>\"'\t127.0.0.1\t70\r\n"+
				"1<img src=x onerror=alert(2)>\t/a\x1b[2J\t127.0.0.1\t70\r\n"+
				"hjavascript\tURL:javascript:alert(3)\t127.0.0.1\t70\r\n.\r\n")
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	base := startGateway(t, gateway.Options{})
	resp, body := gatewayGet(t, base, "gopher://"+srv.HostPort()+"/1/", "")
	page := string(body)
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, page)
	}
	for _, bad := range []string{"<script", "<img", `href="javascript:`, "\x1b"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page holds %q:\n%s", bad, page)
		}
	}
	for _, want := range []string{"&lt;script&gt;alert(1)&lt;/script&gt;", "&lt;img src=x onerror=alert(2)&gt;", "&lt;script&gt;alert(&#39;info&#39;)&lt;/script&gt;"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s:\n%s", want, page)
		}
	}
}

// TestServeSend: with AllowSend, a mailto: address shows a form and sends
// nothing; the form's POST, with its token, sends to aiosmtpd.
func TestServeSend(t *testing.T) {
	testbed.Require(t, "smtp")
	tag := randomTag(t)
	h := &mailto.Handler{Server: testbed.Addr(testbed.SMTPPort), From: "Gateway <gw@urlget.test>",
		Stdin: strings.NewReader("never read"), Getenv: func(string) string { return "" }}
	base := startGateway(t, gateway.Options{Client: mailClient(h, nil), AllowSend: true})
	to := "mailto:alice@urlget.test"
	_, page := gatewayGet(t, base, to, "")
	m := regexp.MustCompile(`name="token" value="([0-9a-f]+)"`).FindSubmatch(page)
	if m == nil {
		t.Fatalf("no form:\n%s", page)
	}
	form := url.Values{"token": {string(m[1])}, "subject": {tag}, "body": {"sent from the gateway's form"}}
	resp, err := http.PostForm(base+gateway.Address(to), form)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), "Sent.") {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
	msg, raw := findMail(t, tag)
	if msg.Header.Get("To") != "alice@urlget.test" || !strings.Contains(string(raw), "sent from the gateway's form") || strings.Contains(string(raw), "never read") {
		t.Errorf("stored:\n%s", raw)
	}
}

// TestServeWAISSearch: a WAIS database's page has a search form; its
// submission leads to the search's own address, whose page lists the hit
// with its score, linked to the document's address.
func TestServeWAISSearch(t *testing.T) {
	base := startGateway(t, gateway.Options{})
	db := fmt.Sprintf("wais://%s/demo", testbed.Addr(testbed.WAISPort))
	// The database's page opens with a form to search it.
	_, dbPage := gatewayGet(t, base, db, "")
	form := `<form class="search" method="get" action="/search"><input type="hidden" name="url" value="` + db + `">`
	if i := strings.Index(string(dbPage), form); i < 0 || i > strings.Index(string(dbPage), `<ul id="entries">`) {
		t.Errorf("no search form before the entries:\n%s", dbPage)
	}
	resp, err := http.Get(base + "/search?" + url.Values{"url": {db}, "q": {"leviathan"}}.Encode())
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := gateway.Address(db + "?leviathan"); resp.Request.URL.RequestURI() != want {
		t.Errorf("the form led to %s, want %s", resp.Request.URL.RequestURI(), want)
	}
	if resp.StatusCode != 200 || !strings.Contains(string(page), "The leviathan chronicle</a>") || !strings.Contains(string(page), "<dt>score</dt>") ||
		!strings.Contains(string(page), `href="/wais/`+testbed.Addr(testbed.WAISPort)+`/demo/TEXT/`) {
		t.Errorf("%d\n%s", resp.StatusCode, page)
	}
}
