//go:build integration

package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/integration/conformance"
	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/schemes/gopher"
	"github.com/urlget/urlget/transport"
)

// gopherURL returns the URL of fixture p on a gopher server: type t, the
// selector prefix+p (no character is reserved in a gopher-path, so only
// unsafe ones are escaped) and an optional Gopher+ string.
func gopherURL(port int, t, prefix, plus string) func(string) string {
	return func(p string) string {
		u := fmt.Sprintf("gopher://%s/%s%s", testbed.Addr(port), t, schemes.Escape(prefix+p, ""))
		if plus != "" {
			u += "%09%09" + schemes.Escape(plus, "")
		}
		return u
	}
}

// The conformance suite fetches every fixture as type 9 (binary), which
// gives the exact bytes; text handling is tested apart below. Gopher has
// no resume. Directories are menus (type 1, DirURL); their entries are
// named by their selectors' last segments, since display strings are
// anything a server likes (gophernicus pads them with dates and sizes,
// pygopherd drops the extension).

// gophernicusURL is the URL of fixture p on gophernicus as its own menus
// write it: type 0 for .txt files (gophernicus sends them with CRLF line
// ends whatever the client asks, so they are read as text, giving back the
// LF file) and 9 for the rest, and the selector in gophernicus's form,
// where bytes other than letters, digits and "/._-;" are written "#NNN"
// (octal) — it reads "%XX" and a bare "#" in a selector as escapes.
func gophernicusURL(p string) string {
	t := "9"
	if strings.HasSuffix(p, ".txt") {
		t = "0"
	}
	return gopherURL(testbed.GophernicusPort, t, "", "")(gophernicusSelector("/" + p))
}

func gophernicusSelector(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c < 0x80 && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("/._-;", c) >= 0) {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "#%03o", c)
		}
	}
	return b.String()
}

// TestConformanceGophernicus runs the suite against gophernicus 3.1.1.
func TestConformanceGophernicus(t *testing.T) {
	testbed.Require(t, testbed.Gophernicus)
	conformance.Run(t, conformance.Target{Name: "gophernicus", URL: gophernicusURL,
		DirURL: func(p string) string {
			return gopherURL(testbed.GophernicusPort, "1", "", "")(gophernicusSelector("/" + p))
		},
		ListName: func(name string) string { return gophernicusSelector(name) }})
}

// TestConformancePygopherd runs the suite against pygopherd, plain Gopher
// and Gopher+ (`+N` headers, `--2` errors with code 1), on the fixture
// tree it serves under /fixtures. Its plain menus end without the "."
// line RFC 1436 ends a menu with, so urlget asks each again the Gopher+
// way; its Gopher+ menus are `+-2` replies, whole at the close.
func TestConformancePygopherd(t *testing.T) {
	testbed.Require(t, testbed.Pygopherd)
	t.Run("gopher", func(t *testing.T) {
		conformance.Run(t, conformance.Target{Name: "pygopherd", URL: gopherURL(testbed.PygopherdPort, "9", "/fixtures/", ""),
			DirURL: gopherURL(testbed.PygopherdPort, "1", "/fixtures/", "")})
	})
	t.Run("gopher+", func(t *testing.T) {
		conformance.Run(t, conformance.Target{Name: "pygopherd+", URL: gopherURL(testbed.PygopherdPort, "9", "/fixtures/", "+"),
			DirURL: gopherURL(testbed.PygopherdPort, "1", "/fixtures/", "+"), NotFoundCode: 1})
	})
}

// TestConformanceGopherPlus runs the suite against urlget's Gopher+ server.
func TestConformanceGopherPlus(t *testing.T) {
	testbed.Require(t, testbed.GopherPlus)
	t.Run("gopher", func(t *testing.T) {
		conformance.Run(t, conformance.Target{Name: "gopherplusd", URL: gopherURL(testbed.GopherPlusPort, "9", "/", ""),
			DirURL: gopherURL(testbed.GopherPlusPort, "1", "/", "")})
	})
	t.Run("gopher+", func(t *testing.T) {
		conformance.Run(t, conformance.Target{Name: "gopherplusd+", URL: gopherURL(testbed.GopherPlusPort, "9", "/", "+"),
			DirURL: gopherURL(testbed.GopherPlusPort, "1", "/", "+"), NotFoundCode: 1})
	})
}

// gopherClient is a client whose gopher handler is h.
func gopherClient(h *gopher.Handler, tr schemes.Trace) *fetch.Client {
	return &fetch.Client{
		Registry: mustRegistry(fetch.Config{Override: gopher.Schemes(h)}),
		Dialer:   &transport.Dialer{ConnectTimeout: 10 * time.Second, IdleTimeout: 30 * time.Second},
		Trace:    tr,
	}
}

func gopherGet(t *testing.T, h *gopher.Handler, raw string) (string, *fetch.Response) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resp, err := gopherClient(h, nil).Get(ctx, raw)
	if err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return string(b), resp
}

// gopherList lists raw (a menu, a search, an attribute or views request)
// with handler h and returns its entries.
func gopherList(t *testing.T, h *gopher.Handler, raw string) []schemes.Entry {
	t.Helper()
	ents, err := gopherListErr(t, h, raw)
	if err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return ents
}

// gopherListErr is gopherList for a listing that may fail after some
// entries: it returns the entries given before the error, and the error.
// Only the request itself failing ends the test.
func gopherListErr(t *testing.T, h *gopher.Handler, raw string) ([]schemes.Entry, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resp, err := gopherClient(h, nil).List(ctx, raw)
	if err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return schemes.ReadAll(resp.Listing)
}

// gopherDest is where a menu entry leads: the destination of an `h` URL:
// or telnet item (Extra "url"), else its gopher Locator; "" for none.
func gopherDest(e schemes.Entry) string {
	if u, ok := e.Extra.Get("url"); ok {
		return u
	}
	if e.Locator != nil {
		return e.Locator.String()
	}
	return ""
}

// TestGopherText reads type 0 items as text: CRLF becomes LF, and "."
// lines inside the text stay (gophernicus sends neither terminator nor
// dot-stuffing; pygopherd sends the file as stored; gopherplusd stuffs
// and terminates, UMN-style).
func TestGopherText(t *testing.T) {
	lf := func(p string) string { return strings.ReplaceAll(testbed.FixtureFiles[p], "\r\n", "\n") }
	t.Run("gophernicus", func(t *testing.T) {
		testbed.Require(t, testbed.Gophernicus)
		for _, p := range []string{"text/lf.txt", "text/crlf.txt", "text/dotlines.txt", "text/utf8.txt"} {
			got, _ := gopherGet(t, &gopher.Handler{}, gopherURL(testbed.GophernicusPort, "0", "/", "")(p))
			if got != lf(p) {
				t.Errorf("%s: %q, want %q", p, got, lf(p))
			}
		}
	})
	t.Run("pygopherd", func(t *testing.T) {
		testbed.Require(t, testbed.Pygopherd)
		for _, p := range []string{"text/lf.txt", "text/crlf.txt", "text/dotlines.txt"} {
			got, _ := gopherGet(t, &gopher.Handler{}, gopherURL(testbed.PygopherdPort, "0", "/fixtures/", "")(p))
			if got != lf(p) {
				t.Errorf("%s: %q, want %q", p, got, lf(p))
			}
		}
	})
	t.Run("gopherplusd", func(t *testing.T) {
		testbed.Require(t, testbed.GopherPlus)
		want := "before\n.\n..\n.leading dot\nafter\n"
		for _, u := range []string{
			gopherURL(testbed.GopherPlusPort, "0", "/plus/", "")("stuffed.txt"),
			gopherURL(testbed.GopherPlusPort, "0", "/plus/", "+")("stuffed.txt"),
		} {
			h := &gopher.Handler{Unstuff: !strings.Contains(u, "%09")}
			if got, _ := gopherGet(t, h, u); got != want {
				t.Errorf("%s: %q, want %q", u, got, want)
			}
		}
	})
}

// TestGopherMenu reads gophernicus's root menu: info lines, items of
// every type with their URLs, the h link and the telnet item.
func TestGopherMenu(t *testing.T) {
	testbed.Require(t, testbed.Gophernicus)
	ents := gopherList(t, &gopher.Handler{}, fmt.Sprintf("gopher://%s/", testbed.Addr(testbed.GophernicusPort)))
	byName := map[string]schemes.Entry{}
	welcome := false
	for _, e := range ents {
		byName[e.Label()] = e
		if e.Kind == schemes.EntryInfo && strings.Contains(e.Title, "Welcome to the urlget Gopher test server") {
			welcome = true
		}
	}
	for name, want := range map[string]string{
		"LF text file":               "gopher://127.0.0.1:7070/0/text/lf.txt",
		"Search (type 7, CGI)":       "gopher://127.0.0.1:7070/7/cgi-bin/search",
		"HTTP link":                  "http://127.0.0.1:8080/",
		"Telnet to the test host":    "telnet://alice@127.0.0.1:2323/",
		"Gopher+ server (pygopherd)": "gopher://127.0.0.1:7071/",
	} {
		if e, ok := byName[name]; !ok || gopherDest(e) != want {
			t.Errorf("%q: %+v, want URL %s", name, e, want)
		}
	}
	if e := byName["An error item (type 3)"]; !hasExtra(e, "gopher_type", "3") {
		t.Errorf("error item: %+v", e)
	}
	if !welcome {
		t.Errorf("listing lacks the info line: %+v", ents)
	}
}

// TestGopherListNames checks that the names/ menu of each server lists
// every odd file name, by selector, and that the listing is whole.
// pygopherd's plain menu has no "." line: urlget asks it again the
// Gopher+ way, whose `+-2` reply ends when the server closes, and the
// command line lists the same entries and exits 0.
func TestGopherListNames(t *testing.T) {
	for _, s := range []struct {
		service string
		port    int
		prefix  string
		noDot   bool // the server ends its plain menus without the "." line
	}{
		{testbed.Gophernicus, testbed.GophernicusPort, "/", false},
		{testbed.Pygopherd, testbed.PygopherdPort, "/fixtures/", true},
		{testbed.GopherPlus, testbed.GopherPlusPort, "/", false},
	} {
		t.Run(s.service, func(t *testing.T) {
			testbed.Require(t, s.service)
			raw := gopherURL(s.port, "1", s.prefix, "")("names")
			ents := gopherList(t, &gopher.Handler{}, raw)
			sels := map[string]bool{}
			for _, e := range ents {
				if g, ok := e.Locator.(*gopher.URL); ok {
					sels[strings.TrimPrefix(g.Selector, "/")] = true
				}
			}
			for p := range testbed.FixtureFiles {
				want := strings.TrimPrefix(s.prefix, "/") + p
				if s.service == testbed.Gophernicus {
					want = strings.TrimPrefix(gophernicusSelector("/"+p), "/")
				}
				if strings.HasPrefix(p, "names/") && !sels[want] {
					t.Errorf("menu lacks %s (has %v)", p, sels)
				}
			}
			if s.noDot {
				checkListCommand(t, raw, sels)
			}
		})
	}
}

// checkListCommand runs `urlget --json` on raw, a menu whose plain
// reply ends without its "." line, and asserts what a script sees: exit
// 0, the JSON object with every entry the library listed (sels, by
// selector) and no error.
func checkListCommand(t *testing.T, raw string, sels map[string]bool) {
	t.Helper()
	out, code := runURLGetOutput(t, t.TempDir(), "--json", raw)
	if code != 0 {
		t.Errorf("urlget --json %s: exit %d, want 0\n%s", raw, code, out)
	}
	var obj struct {
		Entries []struct{ URL string }
		Error   struct{ Kind, Message string }
	}
	if err := json.Unmarshal([]byte(out), &obj); err != nil {
		t.Fatalf("urlget --json %s: %v in %q", raw, err, out)
	}
	got := map[string]bool{}
	var c fetch.Client
	for _, e := range obj.Entries {
		if loc, err := c.Parse(e.URL); err == nil {
			if g, ok := loc.(*gopher.URL); ok {
				got[strings.TrimPrefix(g.Selector, "/")] = true
			}
		}
	}
	if !maps.Equal(got, sels) {
		t.Errorf("urlget --json listed %v, want %v", got, sels)
	}
	if obj.Error.Kind != "" || obj.Error.Message != "" {
		t.Errorf("urlget --json error %+v, want none", obj.Error)
	}
}

// TestGopherSearch runs type 7 searches: gophernicus's CGI and
// gopherplusd's built-in search, from the URL and from Handler.Search.
func TestGopherSearch(t *testing.T) {
	t.Run("gophernicus", func(t *testing.T) {
		testbed.Require(t, testbed.Gophernicus)
		ents := gopherList(t, &gopher.Handler{}, fmt.Sprintf("gopher://%s/7/cgi-bin/search%%09dotlines", testbed.Addr(testbed.GophernicusPort)))
		if !hasURL(ents, "gopher://127.0.0.1:7070/0/text/dotlines.txt") {
			t.Errorf("results %+v", ents)
		}
		words := "small"
		ents = gopherList(t, &gopher.Handler{Search: &words}, fmt.Sprintf("gopher://%s/7/cgi-bin/search", testbed.Addr(testbed.GophernicusPort)))
		if !hasURL(ents, "gopher://127.0.0.1:7070/9/bin/small.bin") {
			t.Errorf("results %+v", ents)
		}
	})
	t.Run("gopherplusd", func(t *testing.T) {
		testbed.Require(t, testbed.GopherPlus)
		ents := gopherList(t, &gopher.Handler{}, fmt.Sprintf("gopher://%s/7/plus/search%%09lf.txt%%09+", testbed.Addr(testbed.GopherPlusPort)))
		if !hasURL(ents, "gopher://127.0.0.1:7072/0/text/lf.txt") {
			t.Errorf("results %+v", ents)
		}
	})
	t.Run("no search", func(t *testing.T) {
		_, err := gopherClient(nil, nil).Get(context.Background(), fmt.Sprintf("gopher://%s/7/cgi-bin/search", testbed.Addr(testbed.GophernicusPort)))
		if schemes.KindOf(err) != schemes.KindUsage {
			t.Errorf("err %v, want usage (exit 2)", err)
		}
	})
}

func hasURL(ents []schemes.Entry, u string) bool {
	for _, e := range ents {
		if e.Locator != nil && e.Locator.String() == u {
			return true
		}
	}
	return false
}

func hasExtra(e schemes.Entry, key, value string) bool {
	v, ok := e.Extra.Get(key)
	return ok && v == value
}

// blocks maps block names to their text from an attribute listing's
// entries: each block's value and content lines, trimmed, one a line (an
// +INFO line gives its item's display string), and each view as
// "type[ lang]: <size>" under VIEWS.
func blocks(ents []schemes.Entry) map[string]string {
	m := map[string]string{}
	for _, e := range ents {
		name, ok := e.Extra.Get("gopher_block")
		text := e.Title
		if _, view := e.Extra.Get("view_type"); view {
			size, _ := e.Extra.Get("view_size")
			name, text = "VIEWS", e.Title+": <"+size+">"
		} else if !ok {
			continue
		} else if rest, start := strings.CutPrefix(text, name+":"); start {
			text = rest // the block's first line, "NAME: value"
		}
		if text = strings.TrimSpace(text); text == "" {
			continue
		}
		if m[name] != "" {
			m[name] += "\n"
		}
		m[name] += text
	}
	return m
}

// infoItems returns the URLs of the items an attribute listing's +INFO
// lines describe.
func infoItems(ents []schemes.Entry) []string {
	var out []string
	for _, e := range ents {
		if hasExtra(e, "gopher_block", "INFO") && e.Locator != nil {
			out = append(out, e.Locator.String())
		}
	}
	return out
}

// TestGopherAttributes asks for `!`, `!+ABSTRACT +VIEWS` and `$`.
func TestGopherAttributes(t *testing.T) {
	t.Run("pygopherd", func(t *testing.T) {
		testbed.Require(t, testbed.Pygopherd)
		ents := gopherList(t, &gopher.Handler{}, fmt.Sprintf("gopher://%s/0/about.txt%%09%%09!", testbed.Addr(testbed.PygopherdPort)))
		b := blocks(ents)
		for _, name := range []string{"INFO", "ADMIN", "VIEWS", "ABSTRACT", "KEYWORDS"} {
			if b[name] == "" {
				t.Errorf("no +%s block: %+v", name, ents)
			}
		}
		// text/ holds at least five files, each with its +INFO line.
		ents = gopherList(t, &gopher.Handler{}, fmt.Sprintf("gopher://%s/1/fixtures/text%%09%%09$", testbed.Addr(testbed.PygopherdPort)))
		if n := len(infoItems(ents)); n < 5 {
			t.Errorf("$ gave %d +INFO items: %+v", n, ents)
		}
	})
	t.Run("gopherplusd", func(t *testing.T) {
		testbed.Require(t, testbed.GopherPlus)
		ents := gopherList(t, &gopher.Handler{}, fmt.Sprintf("gopher://%s/0/plus/about.txt%%09%%09!+ABSTRACT%%20+VIEWS", testbed.Addr(testbed.GopherPlusPort)))
		b := blocks(ents)
		if b["ADMIN"] != "" || !strings.Contains(b["ABSTRACT"], "Gopher+ attributes") || b["VIEWS"] != "text/plain: <46b>" {
			t.Errorf("blocks %q\n%+v", b, ents)
		}
		// /plus holds six items: about, multi, form, stuffed, search and
		// the links menu.
		ents = gopherList(t, &gopher.Handler{}, fmt.Sprintf("gopher://%s/1/plus%%09%%09$", testbed.Addr(testbed.GopherPlusPort)))
		n := 0
		for _, u := range infoItems(ents) {
			if strings.Contains(u, "/plus/") {
				n++
			}
		}
		if n != 6 {
			t.Errorf("$ on /plus: %d items, want 6: %+v", n, ents)
		}
	})
	t.Run("gophernicus", func(t *testing.T) {
		// gophernicus knows only `$` on its root, with a stub.
		testbed.Require(t, testbed.Gophernicus)
		ents := gopherList(t, &gopher.Handler{}, fmt.Sprintf("gopher://%s/1%%09%%09$", testbed.Addr(testbed.GophernicusPort)))
		if b := blocks(ents); !strings.Contains(b["VIEWS"], "application/gopher+-menu") {
			t.Errorf("blocks %q", b)
		}
	})
}

// TestGopherViews lists the views of a multi-view item and fetches one.
func TestGopherViews(t *testing.T) {
	for _, s := range []struct {
		service string
		port    int
		sel     string
	}{
		{testbed.Pygopherd, testbed.PygopherdPort, "/multi.txt"},
		{testbed.GopherPlus, testbed.GopherPlusPort, "/plus/multi.txt"},
	} {
		t.Run(s.service, func(t *testing.T) {
			testbed.Require(t, s.service)
			raw := fmt.Sprintf("gopher://%s/0%s", testbed.Addr(s.port), s.sel)
			ents := gopherList(t, &gopher.Handler{Views: true}, raw)
			if len(ents) != 3 || ents[1].Title != "text/plain De_DE" || ents[1].Locator == nil {
				t.Fatalf("views %+v", ents)
			}
			got, _ := gopherGet(t, &gopher.Handler{}, ents[1].Locator.String())
			if s.service == testbed.GopherPlus && got != "Die deutsche Ansicht.\n" {
				t.Errorf("De_DE view: %q", got)
			}
		})
	}
}

// TestGopherForm fills and submits +ASK forms.
func TestGopherForm(t *testing.T) {
	t.Run("gopherplusd", func(t *testing.T) {
		testbed.Require(t, testbed.GopherPlus)
		name := fmt.Sprintf("Alice %d", time.Now().UnixNano())
		h := &gopher.Handler{Form: gopher.Answers{"What is your name?": name, "Password?": "pw", "3": "ftp", "Comments?": "line one\n.dot"}}
		body, _ := gopherGet(t, h, fmt.Sprintf("gopher://%s/0/plus/form.txt%%09%%09?", testbed.Addr(testbed.GopherPlusPort)))
		if !strings.HasPrefix(body, "Thanks, "+name+".") {
			t.Errorf("reply %q", body)
		}
		want := []string{name, "pw", "ftp", "2", "line one", ".dot", "1"}
		if got := lastForm(t, name); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("server recorded %q, want %q", got, want)
		}
		// A URL holding the filled form (RFC 1738 §3.4.9) is refused
		// before anything is sent: a data block comes only from answers
		// (issue 31).
		filled := "Bob" + fmt.Sprint(time.Now().UnixNano())
		raw := fmt.Sprintf("gopher://%s/0/plus/form.txt%%09%%09+%%091%%0D%%0A+-1%%0D%%0A%s%%0D%%0A.%%0D%%0A", testbed.Addr(testbed.GopherPlusPort), filled)
		if _, err := gopherClient(&gopher.Handler{}, nil).Get(context.Background(), raw); schemes.KindOf(err) != schemes.KindSafety {
			t.Errorf("%s: %v, want KindSafety", raw, err)
		}
		if got := lastForm(t, filled); got != nil {
			t.Errorf("recorded %q", got)
		}
	})
	t.Run("pygopherd", func(t *testing.T) {
		// pygopherd shows the +ASK block but cannot take the answers: it
		// replies to the submission with the plain document.
		testbed.Require(t, testbed.Pygopherd)
		h := &gopher.Handler{Form: gopher.Answers{"Password?": "pw", "Comments?": ""}}
		body, _ := gopherGet(t, h, fmt.Sprintf("gopher://%s/0/form.txt%%09%%09?", testbed.Addr(testbed.PygopherdPort)))
		if !strings.Contains(body, "+ASK form") {
			t.Errorf("reply %q", body)
		}
	})
}

// lastForm returns the lines of the last submission gopherplusd recorded
// whose first line is first.
func lastForm(t *testing.T, first string) []string {
	t.Helper()
	body, _ := gopherGet(t, &gopher.Handler{}, fmt.Sprintf("gopher://%s/0/_forms", testbed.Addr(testbed.GopherPlusPort)))
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(body), "\n") {
		var sub struct{ Lines []string }
		if json.Unmarshal([]byte(l), &sub) == nil && len(sub.Lines) > 0 && sub.Lines[0] == first {
			got = sub.Lines
		}
	}
	return got
}
