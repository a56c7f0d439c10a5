//go:build integration

package integration

import (
	"bufio"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/urlget/urlget/gateway"
	"github.com/urlget/urlget/integration/browser"
	"github.com/urlget/urlget/integration/hostile"
	"github.com/urlget/urlget/integration/testbed"
)

// crumbsAre checks the page's breadcrumbs: the text of each step, and the
// URL whose gateway address each linked step leads to ("" for the page's
// own step, which is text).
func crumbsAre(t *testing.T, b *browser.Browser, base string, names, urls []string) {
	t.Helper()
	steps := b.Links("#crumbs a, #crumbs span")
	var gotNames, gotHrefs, wantHrefs []string
	for _, s := range steps {
		gotNames, gotHrefs = append(gotNames, s.Text), append(gotHrefs, s.Href)
	}
	for _, u := range urls {
		if u != "" {
			u = base + gateway.Address(u)
		}
		wantHrefs = append(wantHrefs, u)
	}
	if !slices.Equal(gotNames, names) || !slices.Equal(gotHrefs, wantHrefs) {
		t.Errorf("the crumbs of %s are %q -> %q, want %q -> %q", b.URL(), gotNames, gotHrefs, names, wantHrefs)
	}
}

// TestBrowserGatewayFTPDirectories: vsftpd's directories read as
// directories (a name ending in "/" and no size, where LIST says 4096),
// its files with their sizes; a directory three levels down has
// breadcrumbs to each level above and an Up link, and both lead there.
func TestBrowserGatewayFTPDirectories(t *testing.T) {
	testbed.Require(t, testbed.Vsftpd)
	base := browserGateway(t)
	b := browser.Start(t)
	root := "ftp://" + testbed.Addr(testbed.VsftpdPort) + "/"
	gatewayPage(t, b, base, root)
	if dirs := b.Texts("#entries li.dir a"); !slices.Contains(dirs, "bin/") || !slices.Contains(dirs, "nested/") {
		t.Errorf("the root's directories are named %q, want bin/ and nested/", dirs)
	}
	for _, d := range b.Texts("#entries li.dir") {
		if strings.Contains(d, "bytes") || strings.Contains(d, "4096") {
			t.Errorf("a directory reads %q: a size", d)
		}
	}
	if got := b.Text(`#entries li.file:has(a[href$="/README.txt"])`); !strings.Contains(got, "bytes") {
		t.Errorf("README.txt reads %q, without its size", got)
	}
	if b.Count("#crumbs") != 0 || b.Count("#up") != 0 {
		t.Error("the root has crumbs or an Up link")
	}
	for _, d := range []string{"nested/", "level1/", "level2/"} {
		b.ClickLink(d)
	}
	crumbsAre(t, b, base, []string{root, "nested/", "level1/", "level2/"}, []string{root, root + "nested/", root + "nested/level1/", ""})
	if st := b.Click("#up"); st != http.StatusOK || b.URL() != base+gateway.Address(root+"nested/level1/") {
		t.Fatalf("Up: status %d at %s", st, b.URL())
	}
	entryLink(t, b, "level2/")
	if st := b.ClickLink("nested/"); st != http.StatusOK || b.URL() != base+gateway.Address(root+"nested/") {
		t.Fatalf("the crumb nested/: status %d at %s", st, b.URL())
	}
	entryLink(t, b, "level1/")
	b.NoScriptRan()
}

// TestBrowserGatewayGopherPlusPages: pygopherd's menus through the
// gateway — each Gopher+ item's facts (its type, its Gopher+ flag, its
// first view's size) are a definition list, not key=value text; a menu
// below the root has breadcrumbs of menus; and the +ASK item, which
// pygopherd's menu flags "+" like any other, links to its form.
func TestBrowserGatewayGopherPlusPages(t *testing.T) {
	testbed.Require(t, testbed.Pygopherd)
	base := browserGateway(t)
	b := browser.Start(t)
	host := testbed.Addr(testbed.PygopherdPort)
	gatewayPage(t, b, base, "gopher://"+host+"/1/fixtures/nested/level1")
	crumbsAre(t, b, base, []string{"gopher://" + host + "/", "fixtures/", "nested/", "level1"},
		[]string{"gopher://" + host + "/", "gopher://" + host + "/1/fixtures/", "gopher://" + host + "/1/fixtures/nested/", ""})
	if st := b.ClickLink("fixtures/"); st != http.StatusOK {
		t.Fatalf("the crumb fixtures/: status %d", st)
	}
	entryLink(t, b, "nested/")

	gatewayPage(t, b, base, "gopher://"+host+"/")
	about := `#entries li:has(a[href$="/0/about.txt"])`
	if keys := b.Texts(about + " dl.extra dt"); !slices.Contains(keys, "gopher_type") || !slices.Contains(keys, "gopher_plus") {
		t.Errorf("about's facts are %q, want a <dl> with gopher_type and gopher_plus", keys)
	}
	if got := b.Text(about); strings.Contains(got, "=") {
		t.Errorf("about reads %q: key=value text", got)
	}
	form := entryLink(t, b, "form")
	if !strings.HasSuffix(form.Href, "/0/form.txt%09%09?") {
		t.Fatalf("the +ASK item links to %s, not to its form", form.Href)
	}
	if st := b.ClickHref(form.Href); st != http.StatusOK {
		t.Fatalf("the form: status %d: %s", st, b.Text("body"))
	}
	for _, want := range []string{"What is your name?", "Password?", "Favourite protocol?", "Comments?", "Subscribe?"} {
		if got := b.Text("#ask"); !strings.Contains(got, want) {
			t.Errorf("pygopherd's form lacks %q: %q", want, got)
		}
	}
	b.NoScriptRan()
}

// TestBrowserGatewayNewsServer: `urlget serve` finds a news: group's
// server as the command does — in NNTPSERVER, in --nntp-server, or in the
// URL typed into the start page's box (news://HOST:PORT/group) when
// neither is given, whose page then lists the group; without any, the
// page says where a server may be named.
func TestBrowserGatewayNewsServer(t *testing.T) {
	testbed.Require(t, testbed.INN)
	news := testbed.Addr(testbed.NNTPPort)
	b := browser.Start(t)
	lists := func(what string) {
		t.Helper()
		if got := b.Text("#entries"); !strings.Contains(got, "Lines starting with dots") {
			t.Errorf("%s: %s shows %q, want local.test's articles", what, b.URL(), got)
		}
		if froms := b.Texts("#entries dl.extra dt"); !slices.Contains(froms, "from") {
			t.Errorf("%s: the articles' facts are %q, want their senders in a <dl>", what, froms)
		}
		b.NoScriptRan()
	}
	for _, c := range []struct {
		what string
		env  []string
		args []string
	}{
		{"NNTPSERVER", []string{"NNTPSERVER=" + news}, nil},
		{"--nntp-server", []string{"NNTPSERVER="}, []string{"--nntp-server", news}},
	} {
		srv := startServeEnv(t, c.env, c.args...)
		if st := b.Open(srv.base + gateway.Address("news:"+testbed.GroupTest)); st != http.StatusOK {
			t.Fatalf("%s: status %d: %s", c.what, st, b.Text("body"))
		}
		lists(c.what)
	}
	srv := startServeEnv(t, []string{"NNTPSERVER="})
	b.Open(srv.base + "/")
	if st := b.SubmitForm(`form[action="/go"]`, "url", "news://"+news+"/"+testbed.GroupTest); st != http.StatusOK {
		t.Fatalf("news://%s/%s typed: status %d: %s", news, testbed.GroupTest, st, b.Text("body"))
	}
	lists("the URL's server")
	b.Open(srv.base + gateway.Address("news:"+testbed.GroupTest))
	if got := b.Text("#error"); !strings.Contains(got, "NNTPSERVER") || !strings.Contains(got, "news://host[:port]/group") {
		t.Errorf("news: without a server says %q, not where to name one", got)
	}
}

// TestBrowserGatewayHostilePlace: a gopher server's hostile selectors,
// which become the names of a page's breadcrumbs, and its hostile URL:
// selectors, which an entry's <dl> shows, are text: no script runs, no
// javascript: link appears, and the crumbs read as the server wrote them.
func TestBrowserGatewayHostilePlace(t *testing.T) {
	const evil = `"><img src=x onerror="window.top.__pwned=1">`
	srv, err := hostile.Start(func(c *hostile.Conn) {
		if _, err := bufio.NewReader(c).ReadString('\n'); err == nil {
			io.WriteString(c, "hjs\tURL:javascript:window.top.__pwned=1\t127.0.0.1\t70\r\n"+
				"hmarkup\tURL:"+evil+"\t127.0.0.1\t70\r\n"+
				"0x\t/x\t127.0.0.1\t70\r\n.\r\n")
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	base := browserGateway(t)
	b := browser.Start(t)
	root := "gopher://" + srv.HostPort() + "/"
	place := "<svg onload=window.top.__pwned=1>"
	gatewayPage(t, b, base, root+"1/"+strings.ReplaceAll(place, " ", "%20")+"/%3Cscript%3Ewindow.top.__pwned=1%3C%2Fscript%3E")
	b.NoScriptRan("__pwned")
	// %2F is a "/" of the selector, as gopher reads it: a step too.
	steps := b.Texts("#crumbs a, #crumbs span")
	if want := []string{root, place + "/", "<script>window.top.__pwned=1</", "script>"}; !slices.Equal(steps, want) {
		t.Errorf("the crumbs read %q, want %q", steps, want)
	}
	if got := strings.Join(b.Texts("#entries dl.extra dd"), "\n"); !strings.Contains(got, evil) || !strings.Contains(got, "javascript:window.top.__pwned=1") {
		t.Errorf("the h items' URLs are not text in their <dl>: %q", got)
	}
	for _, l := range b.Links("a") {
		if strings.HasPrefix(strings.ToLower(l.Href), "javascript:") {
			t.Errorf("a javascript: link on the page: %q -> %s", l.Text, l.Href)
		}
	}
	if out := b.Outside(); len(out) > 0 {
		t.Errorf("the page reached beyond 127.0.0.1: %q", out)
	}
}
