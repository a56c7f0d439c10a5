//go:build integration

package integration

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/urlget/urlget/gateway"
	"github.com/urlget/urlget/integration/browser"
	"github.com/urlget/urlget/integration/conformance"
	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/schemes"
)

// z3950URL is a URL of yaz-ztest in the test bed: scheme z39.50s or
// z39.50r, rest the url-path after "/".
func z3950URL(scheme, rest string) string { return z3950At(testbed.YazPort, scheme, rest) }

// z3950At is a URL of the Z39.50 server on port.
func z3950At(port int, scheme, rest string) string {
	return scheme + "://" + testbed.Addr(port) + "/" + rest
}

// yazClient runs yaz-client against yaz-ztest with the commands (one a
// line, after "open"), and returns its output. yaz-client is the
// reference urlget is compared with; under CI=true its absence fails the
// test (.ci/run installs it).
func yazClient(t *testing.T, dir string, commands ...string) string {
	t.Helper()
	return yazClientAt(t, dir, testbed.Addr(testbed.YazPort), commands...)
}

// yazClientAt is yazClient against the Z39.50 server at addr.
func yazClientAt(t *testing.T, dir, addr string, commands ...string) string {
	t.Helper()
	bin, err := exec.LookPath("yaz-client")
	if err != nil {
		if testbed.InCI() {
			t.Fatal("yaz-client not installed (Debian package yaz)")
		}
		t.Skip("yaz-client not installed (Debian package yaz)")
	}
	script := "open tcp:" + addr + "\n" + strings.Join(commands, "\n") + "\nquit\n"
	f := filepath.Join(dir, "yaz-commands")
	if err := os.WriteFile(f, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-f", f)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("yaz-client: %v\n%s", err, out)
	}
	return string(out)
}

// ztestSUTRS is yaz-ztest's SUTRS rendering of the record at a position.
func ztestSUTRS(n int) string { return fmt.Sprintf("This is dummy SUTRS record number %d\n", n) }

// TestConformanceZ3950 runs the query suite against yaz-ztest: a
// Retrieval URL's one record, and a search listing 4,000 records (presented
// 100 at a time) for the subtests that cancel or time out mid-listing.
func TestConformanceZ3950(t *testing.T) {
	testbed.Require(t, testbed.Yaz)
	conformance.RunQueries(t, conformance.QueryTarget{
		Name:    "yaz-ztest",
		URL:     z3950URL("z39.50r", "Default?1;rs=sutrs"),
		Reply:   []byte(ztestSUTRS(1)),
		ListURL: z3950URL("z39.50s", "Default?4000"),
		Options: schemes.Options{schemes.OptionMax: 4000},
	})
}

// hitsOf is yaz-client's "Number of hits: N" after each find.
var hitsOf = regexp.MustCompile(`Number of hits: (\d+)`)

// TestZ3950MatchesYazClient: urlget's searches find what yaz-client's
// find does on the same server (one word; a docid with spaces, one term
// as RFC 2056 §3 and yaz-client's quoted `find "a b c"`), its listing has the titles of
// the records yaz-client shows, and a record comes byte for byte as
// yaz-client saves it (USMARC: set_marcdump), as yaz-marcdump renders
// it (the default text), and as yaz-client shows SUTRS and XML.
func TestZ3950MatchesYazClient(t *testing.T) {
	testbed.Require(t, testbed.Yaz)
	dir := t.TempDir()
	out := yazClient(t, dir, "find 25", `find "computer b c"`, "find computer", "find 1", "show 1", "find 12", "show 1+12")
	hits := hitsOf.FindAllStringSubmatch(out, -1)
	if len(hits) != 5 {
		t.Fatalf("yaz-client reported %d searches:\n%s", len(hits), out)
	}
	for i, words := range []string{"25", "computer%20b%20c", "computer", "1", "12"} {
		want, _ := strconv.Atoi(hits[i][1])
		got := listZ3950(t, dir, z3950URL("z39.50s", "Default?"+words), want+5)
		if len(got) != want {
			t.Errorf("%s: urlget lists %d records, yaz-client found %d", words, len(got), want)
		}
	}
	// Titles: 245 $a (and $b) of the twelve records yaz-client showed.
	var titles []string
	for _, l := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(l, "245 "); ok {
			var parts []string
			for _, sf := range strings.Split(rest[2:], " $")[1:] {
				if sf[0] == 'a' || sf[0] == 'b' {
					parts = append(parts, strings.TrimSpace(sf[1:]))
				}
			}
			titles = append(titles, strings.Join(parts, " "))
		}
	}
	got := listZ3950(t, dir, z3950URL("z39.50s", "Default?12"), 12)
	if len(titles) != 13 || len(got) != 12 { // record 1 of "find 1", then 12
		t.Fatalf("titles %q, listing %d", titles, len(got))
	}
	for i, e := range got {
		if e.Title != titles[i+1] || e.Name != strconv.Itoa(i+1) {
			t.Errorf("record %d: %q %q, yaz-client shows %q", i+1, e.Name, e.Title, titles[i+1])
		}
	}
	// The same records as MARCXML: the same titles, from the XML.
	for i, e := range listZ3950(t, dir, z3950URL("z39.50s", "Default?12;rs=xml"), 12) {
		if e.Title != titles[i+1] {
			t.Errorf("record %d as XML: %q, yaz-client shows %q", i+1, e.Title, titles[i+1])
		}
	}

	// One record: raw USMARC as yaz-client saved it, text as
	// yaz-marcdump renders it.
	yazClient(t, dir, "set_marcdump marc.dump", "find 1", "show 1")
	dump, err := os.ReadFile(filepath.Join(dir, "marc.dump"))
	if err != nil || len(dump) == 0 {
		t.Fatalf("yaz-client's marc dump: %v", err)
	}
	raw, code := runURLGetOutput(t, dir, z3950URL("z39.50r", "Default?1;rs=usmarc"))
	if code != 0 || raw != string(dump) {
		t.Errorf(";rs=usmarc: exit %d, %d bytes; yaz-client saved %d bytes", code, len(raw), len(dump))
	}
	md, err := exec.Command("yaz-marcdump", filepath.Join(dir, "marc.dump")).Output()
	if err != nil {
		t.Fatal(err)
	}
	text, code := runURLGetOutput(t, dir, z3950URL("z39.50r", "Default?1"))
	if code != 0 || text != string(md) {
		t.Errorf("text: exit %d\n%s\nyaz-marcdump:\n%s", code, text, md)
	}
	out = yazClient(t, dir, "find 1", "format sutrs", "show 1", "format xml", "show 1")
	sutrs, code := runURLGetOutput(t, dir, z3950URL("z39.50r", "Default?1;rs=sutrs"))
	if code != 0 || !strings.Contains(out, "Record type: SUTRS\n"+sutrs) {
		t.Errorf("sutrs: exit %d %q; yaz-client:\n%s", code, sutrs, out)
	}
	xml, code := runURLGetOutput(t, dir, z3950URL("z39.50r", "Default?1;rs=xml"))
	if code != 0 || !strings.HasPrefix(xml, "<record") || !strings.Contains(out, "Record type: XML\n"+xml) {
		t.Errorf("xml: exit %d %q; yaz-client:\n%s", code, xml, out)
	}
}

// listZ3950 is urlget --json's listing of a Session URL, --max max.
func listZ3950(t *testing.T, dir, raw string, max int) []struct{ Name, Title, URL string } {
	t.Helper()
	out, code := runURLGetOutput(t, dir, "--json", "--max", strconv.Itoa(max), raw)
	var res struct {
		Entries []struct{ Name, Title, URL string }
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != 0 {
		t.Fatalf("%s: exit %d %v\n%s", raw, code, err, out)
	}
	return res.Entries
}

// TestZ3950Errors: a Retrieval URL whose docid finds no record or
// several fails (exit 3 and 6), an unknown database is not found (exit
// 3), and --max bounds a listing whatever the hits.
func TestZ3950Errors(t *testing.T) {
	testbed.Require(t, testbed.Yaz)
	dir := t.TempDir()
	for raw, want := range map[string]int{
		z3950URL("z39.50r", "Default?0"): 3,
		z3950URL("z39.50r", "Default?2"): 6,
		z3950URL("z39.50s", "Nope?1"):    3,
	} {
		if out, code := runURLGetOutput(t, dir, raw); code != want {
			t.Errorf("%s: exit %d, want %d (%q)", raw, code, want, out)
		}
	}
	if got := listZ3950(t, dir, z3950URL("z39.50s", "Default?1000"), 7); len(got) != 7 {
		t.Errorf("--max 7: %d records", len(got))
	}
}

// TestZ3950Gateway: through urlget serve, a Session URL without words is
// a page with a search form for its database, whose words lead to the
// search; a search is a page of its records, each linking to its
// Retrieval URL's gateway address; a record is a text page.
func TestZ3950Gateway(t *testing.T) {
	testbed.Require(t, testbed.Yaz)
	base := startGateway(t, gateway.Options{})
	resp, body := gatewayGet(t, base, z3950URL("z39.50s", "Default"), "")
	if resp.StatusCode != 200 || !bytes.Contains(body, []byte(`class="search"`)) {
		t.Errorf("database page: %d, want a search form\n%s", resp.StatusCode, body)
	}
	// The form's words: /search answers with the search's address (303).
	form := url.Values{"url": {z3950URL("z39.50s", "Default")}, "q": {"3"}}
	resp, body = gatewayGetURL(t, base+"/search?"+form.Encode(), "")
	if _, text := pageLinks(t, body); resp.StatusCode != 200 || !strings.Contains(text, "How to program a computer") {
		t.Errorf("the form's search: %d\n%s", resp.StatusCode, body)
	}
	// A record is a page of its own: yaz-client's show, as text.
	resp, body = gatewayGet(t, base, z3950URL("z39.50r", "Default?1"), "")
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") ||
		!strings.Contains(string(body), "245 10 $a How to program a computer\n") {
		t.Errorf("record page: %d %s\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	resp, body = gatewayGet(t, base, z3950URL("z39.50s", "Default?3"), "")
	_, text := pageLinks(t, body)
	if resp.StatusCode != 200 || !strings.Contains(text, "How to program a computer") {
		t.Fatalf("search page: %d\n%s", resp.StatusCode, body)
	}
	// Records 1 and 2 have one title: links are told by address.
	for _, docid := range []string{"11224466", "11224467", "73090924%20%2F%2Fr82"} {
		if want := gateway.Address(z3950URL("z39.50r", "Default?"+docid)); !bytes.Contains(body, []byte(`href="`+want+`"`)) {
			t.Errorf("no link to %s:\n%s", want, body)
		}
	}
}

// TestBrowserGatewayZ3950Search: in Chromium a Z39.50 database's page
// is a search form; words typed into it come back as the records found,
// with their syntax, and no script runs.
func TestBrowserGatewayZ3950Search(t *testing.T) {
	testbed.Require(t, testbed.Yaz)
	base := browserGateway(t)
	b := browser.Start(t)
	gatewayPage(t, b, base, z3950URL("z39.50s", "Default"))
	if st := b.SubmitForm("form.search", "q", "3"); st != http.StatusOK {
		t.Fatalf("search: status %d", st)
	}
	if got := b.Text("#entries"); !strings.Contains(got, "How to program a computer") || !slices.Contains(b.Texts("#entries dl.extra dt"), "syntax") {
		t.Fatalf("the Z39.50 search at %s shows %q, want its records with their syntax", b.URL(), got)
	}
	b.NoScriptRan()
}
