package gateway

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

	"github.com/urlget/urlget/fetch"
)

// page is a gateway page parsed as a browser parses it, for assertions on
// its structure rather than on its bytes.
type page struct {
	t    *testing.T
	root *html.Node
}

// getPage asks the gateway for path and parses the page, which must come
// with status 200.
func getPage(t *testing.T, base, path string) page {
	t.Helper()
	resp, body := get(t, newRequest(t, "GET", base+path))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d %s", path, resp.StatusCode, body)
	}
	root, err := html.Parse(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return page{t, root}
}

// all returns the elements under n, in document order, for which match
// holds.
func all(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	for c := range n.Descendants() {
		if c.Type == html.ElementNode && match(c) {
			out = append(out, c)
		}
	}
	return out
}

// byID returns the element whose id is id, nil without one.
func (p page) byID(id string) *html.Node {
	if els := all(p.root, func(n *html.Node) bool { return attr(n, "id") == id }); len(els) > 0 {
		return els[0]
	}
	return nil
}

// tag returns the elements named name under n.
func tag(n *html.Node, name string) []*html.Node {
	return all(n, func(c *html.Node) bool { return c.Data == name })
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// text is the text under n, as a browser's textContent.
func text(n *html.Node) string {
	var b strings.Builder
	for c := range n.Descendants() {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return b.String()
}

// entry returns the <li> of #entries whose link's text is label.
func (p page) entry(label string) *html.Node {
	p.t.Helper()
	ul := p.byID("entries")
	if ul == nil {
		p.t.Fatal("no #entries")
	}
	for _, li := range tag(ul, "li") {
		if as := tag(li, "a"); len(as) > 0 && text(as[0]) == label {
			return li
		}
	}
	p.t.Fatalf("no entry linked as %q in %q", label, text(ul))
	return nil
}

// crumbs returns the text and href ("" for text alone) of each step of
// the page's #crumbs.
func (p page) crumbs() (names, hrefs []string) {
	nav := p.byID("crumbs")
	if nav == nil {
		return nil, nil
	}
	for _, c := range all(nav, func(n *html.Node) bool { return n.Data == "a" || n.Data == "span" }) {
		names, hrefs = append(names, text(c)), append(hrefs, attr(c, "href"))
	}
	return names, hrefs
}

// extras returns the <dl class="extra"> of li as its dt and dd texts.
func extras(li *html.Node) (keys, values []string) {
	for _, dl := range all(li, func(n *html.Node) bool { return n.Data == "dl" && attr(n, "class") == "extra" }) {
		for _, dt := range tag(dl, "dt") {
			keys = append(keys, text(dt))
		}
		for _, dd := range tag(dl, "dd") {
			values = append(values, text(dd))
		}
	}
	return keys, values
}

// TestDirectoryPage: in a directory's listing a directory reads as one —
// its name ends in "/" and it has no size, where a file has its size;
// above the entries, breadcrumbs link each directory above to its
// gateway address, and "Up to" leads to the parent's.
func TestDirectoryPage(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "a", "b c")
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "f.txt"), []byte("12345"), 0o644)
	base := gateway(t, Options{Client: &fetch.Client{}, AllowFile: true})
	dirURL := "file://" + filepath.ToSlash(dir) + "/"
	p := getPage(t, base, Address(dirURL))

	sub := p.entry("sub/")
	if got := text(sub); strings.Contains(got, "bytes") || attr(sub, "class") != "dir" {
		t.Errorf("the directory's entry %q (class %q) shows a size, or is no dir", got, attr(sub, "class"))
	}
	if got := text(p.entry("f.txt")); !strings.Contains(got, "5 bytes") {
		t.Errorf("the file's entry %q lacks its size", got)
	}

	names, hrefs := p.crumbs()
	// file:///, then each directory down to the page's own, which is
	// text.
	var want []string
	u := "file:///"
	want = append(want, Address(u))
	for _, seg := range strings.Split(strings.Trim(filepath.ToSlash(dir), "/"), "/") {
		u += strings.ReplaceAll(seg, " ", "%20") + "/"
		want = append(want, Address(u))
	}
	want[len(want)-1] = ""
	if strings.Join(hrefs, " ") != strings.Join(want, " ") {
		t.Errorf("crumbs lead to\n%q\nwant\n%q", hrefs, want)
	}
	if len(names) < 3 || names[0] != "file:///" || names[len(names)-1] != "b c/" || names[len(names)-2] != "a/" {
		t.Errorf("crumbs read %q", names)
	}
	upLink := p.byID("up")
	if upLink == nil || attr(upLink, "href") != Address("file://"+filepath.ToSlash(filepath.Dir(dir))+"/") || attr(upLink, "rel") != "up" {
		t.Fatalf("the Up link: %v", upLink)
	}
	// Each crumb's address is a page: the parent's lists this directory.
	parent := getPage(t, base, attr(upLink, "href"))
	if li := parent.entry("b c/"); attr(tag(li, "a")[0], "href") != Address(dirURL) {
		t.Errorf("the parent's entry for b c/ leads to %s, want %s", attr(tag(li, "a")[0], "href"), Address(dirURL))
	}
	// The root has no crumbs and no Up.
	if top := getPage(t, base, Address("file:///")); top.byID("crumbs") != nil || top.byID("up") != nil {
		t.Error("the root has crumbs or an Up link")
	}
}

// gopherRoutes is a gopher server that answers each request line with its
// reply in replies ("." for a line it does not know), and records the
// lines it was sent.
func gopherRoutes(t *testing.T, replies map[string]string) (addr string) {
	addr, _ = fake(t, func(c net.Conn) {
		line, _ := bufio.NewReader(c).ReadString('\n')
		if r, ok := replies[line]; ok {
			io.WriteString(c, r)
			return
		}
		io.WriteString(c, ".\r\n")
	})
	return addr
}

// TestGopherMenuPageStructure: a Gopher+ menu's items show their typed
// facts (Entry.Extra) as a definition list, not as "key=value" text; a
// menu's crumbs are menus of the same type, up to the server's root; an
// item flagged "?" in its menu links to its form, and so does one whose
// `$` attributes hold an +ASK block though its menu flags it "+" only
// (pygopherd), while the others link to themselves.
func TestGopherMenuPageStructure(t *testing.T) {
	var addr string
	menu := func() string {
		host, port, _ := net.SplitHostPort(addr)
		item := func(typ, name, sel, plus string) string {
			return typ + name + "\t" + sel + "\t" + host + "\t" + port + "\t" + plus + "\r\n"
		}
		return "+-1\r\n" + item("0", "Flagged form", "/a/b/flagged", "?") + item("0", "Quiet form", "/a/b/quiet", "+") +
			item("0", "Notes", "/a/b/notes", "+") + item("1", "Deeper", "/a/b/c", "+") + ".\r\n"
	}
	dollar := "+-2\r\n+INFO: 0Quiet form\t/a/b/quiet\th\t70\t+\r\n+ADMIN:\r\n Mod-Date: <20240102030405>\r\n+ASK:\r\n Ask: Name?\r\n" +
		"+INFO: 0Notes\t/a/b/notes\th\t70\t+\r\n+ADMIN:\r\n Mod-Date: <20240102030405>\r\n+VIEWS:\r\n text/plain: <1k>\r\n"
	replies := map[string]string{"/a/b\r\n": "", "/a/b\t$\r\n": dollar}
	addr = gopherRoutes(t, replies)
	replies["/a/b\r\n"] = menu()
	replies["/a/b\t+\r\n"] = menu()
	base := gateway(t, Options{})
	p := getPage(t, base, "/gopher/"+addr+"/1/a/b")

	keys, values := extras(p.entry("Notes"))
	if strings.Join(keys, " ") != "gopher_type gopher_plus view_size" || strings.Join(values, " ") != "0 + 1k" {
		t.Errorf("Notes' extras: %q = %q", keys, values)
	}
	if got := text(p.entry("Notes")); strings.Contains(got, "gopher_type=") || !strings.Contains(got, "2024-01-02 03:04:05") {
		t.Errorf("Notes reads %q: key=value text, or no time", got)
	}
	for label, want := range map[string]string{
		"Flagged form": "/gopher/" + addr + "/0/a/b/flagged%09%09?",
		"Quiet form":   "/gopher/" + addr + "/0/a/b/quiet%09%09?",
		"Notes":        "/gopher/" + addr + "/0/a/b/notes",
		"Deeper/":      "/gopher/" + addr + "/1/a/b/c",
	} {
		if got := attr(tag(p.entry(label), "a")[0], "href"); got != want {
			t.Errorf("%s links to %s, want %s", label, got, want)
		}
	}
	names, hrefs := p.crumbs()
	if got, want := strings.Join(hrefs, " "), "/gopher/"+addr+"/ /gopher/"+addr+"/1/a/ "; got != want {
		t.Errorf("crumbs lead to %q, want %q", got, want)
	}
	if got, want := strings.Join(names, " "), "gopher://"+addr+"/ a/ b"; got != want {
		t.Errorf("crumbs read %q, want %q", got, want)
	}
	if up := p.byID("up"); up == nil || attr(up, "href") != "/gopher/"+addr+"/1/a/" {
		t.Errorf("Up: %v", up)
	}
}

// TestHostilePlaceAndExtras: a server's names in a page's place (the
// crumbs) and in its entries' facts (the <dl>) are text: no element, no
// attribute and no control character of theirs reaches the page.
func TestHostilePlaceAndExtras(t *testing.T) {
	evil := `"><svg onload=alert(1)><img src=x onerror=alert(2)>`
	sel := "/" + evil + "/in\x1b[2J/x"
	var addr string
	addr, _ = fake(t, func(c net.Conn) {
		bufio.NewReader(c).ReadString('\n')
		host, port, _ := net.SplitHostPort(addr)
		io.WriteString(c, "h"+evil+"\tURL:"+evil+"\t"+host+"\t"+port+"\r\n"+
			"0notes\t/n\t"+host+"\t"+port+"\r\n.\r\n")
	})
	base := gateway(t, Options{})
	p := getPage(t, base, Address("gopher://"+addr+"/1"+sel))
	for _, bad := range []string{"script", "img", "iframe", "svg"} {
		if els := tag(p.root, bad); len(els) > 0 {
			t.Errorf("a <%s> on the page", bad)
		}
	}
	for _, n := range all(p.root, func(*html.Node) bool { return true }) {
		for _, a := range n.Attr {
			if strings.HasPrefix(a.Key, "on") {
				t.Errorf("<%s %s=%q> on the page", n.Data, a.Key, a.Val)
			}
		}
	}
	names, hrefs := p.crumbs()
	parent, err := (&fetch.Client{}).Parse("gopher://" + addr + "/1/" + strings.ReplaceAll(evil, " ", "%20") + "/")
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 4 || names[1] != evil+"/" || names[2] != "in\\x1b[2J/" || names[3] != "x" || hrefs[3] != "" || urlAt(t, hrefs[1]) != parent.String() {
		t.Errorf("crumbs %q -> %q", names, hrefs)
	}
	var found bool
	for _, li := range tag(p.byID("entries"), "li") {
		if _, values := extras(li); strings.Contains(strings.Join(values, " "), evil) {
			found = true
		}
	}
	if !found {
		t.Errorf("the h item's url is not shown as text in its <dl>:\n%s", text(p.byID("entries")))
	}
}

// urlAt is the canonical URL of the gateway address addr.
func urlAt(t *testing.T, addr string) string {
	t.Helper()
	req := newRequest(t, "GET", "http://127.0.0.1"+addr)
	req.RequestURI = addr
	raw, err := URLOf(req)
	if err != nil {
		t.Fatal(err)
	}
	loc, err := (&fetch.Client{}).Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return loc.String()
}

// TestGoKeepsTheAddress: /go answers with the typed URL's address byte
// for byte; a cleaned path would make the address of news://HOST/group
// (/news///HOST/group) that of news:HOST/group, a group named "HOST/group"
// on no server.
func TestGoKeepsTheAddress(t *testing.T) {
	base := gateway(t, Options{})
	for raw, want := range map[string]string{
		"news://127.0.0.1:1119/local.test": "/news///127.0.0.1:1119/local.test",
		"gopher://127.0.0.1/1//a/../b":     "/gopher/127.0.0.1/1//a/../b",
	} {
		resp, _ := get(t, newRequest(t, "GET", base+"/go?url="+strings.NewReplacer(":", "%3A", "/", "%2F").Replace(raw)))
		if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != want {
			t.Errorf("/go %s: %d %q, want 303 %q", raw, resp.StatusCode, loc, want)
		}
	}
}
