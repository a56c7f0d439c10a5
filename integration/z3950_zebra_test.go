//go:build integration

package integration

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
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

// Zebra (integration/servers/zebra) indexes a real catalogue
// (testbed.ZebraRecord): a record's 001 is searched as a word like any
// other, so the Retrieval URLs a listing gives (z39.50r://…/db?<001>)
// must each find their one record there (RFC 2056 §4), which yaz-ztest,
// a stub where a number finds that many records, cannot show.

// zebraURL is a URL of the test bed's Zebra (z3950URL).
func zebraURL(scheme, rest string) string { return z3950At(testbed.ZebraPort, scheme, rest) }

// zebraClient runs yaz-client against Zebra (yazClient).
func zebraClient(t *testing.T, dir string, commands ...string) string {
	t.Helper()
	return yazClientAt(t, dir, testbed.Addr(testbed.ZebraPort), commands...)
}

// zebraAll is the number of records in both databases.
var zebraAll = testbed.ZebraRecords()

// TestZebraHitCountsMatchYazClient: a Session URL's search lists as many
// records as yaz-client's find of the same term finds on the same
// server: words of titles, authors and subjects (UTF-8 ones too, one
// folded to lower case), a word in every record, two words (a phrase to
// Zebra, as one term), a docid with blanks and slashes, a word found
// nowhere, and "+" lists of databases.
func TestZebraHitCountsMatchYazClient(t *testing.T) {
	testbed.Require(t, testbed.Zebra)
	dir := t.TempDir()
	searches := []struct{ bases, find, docid string }{
		{"books", "navigation", "navigation"},
		{"books", "Dvořák", "Dvo%C5%99%C3%A1k"},
		{"books", "øresund", "%C3%B8resund"},
		{"books", "Zoë", "Zo%C3%AB"},
		{"books", `"modern navigation"`, "modern%20navigation"},
		{"books", testbed.ZebraCommonWord, testbed.ZebraCommonWord},
		{"books", `"41000026 //r02"`, "41000026%20%2F%2Fr02"},
		{"books", "xyzzy", "xyzzy"},
		{"journals", "journal", "journal"},
		{"books journals", "navigation", "navigation"},
		{"books journals", testbed.ZebraCommonWord, testbed.ZebraCommonWord},
	}
	var cmds []string
	for _, s := range searches {
		cmds = append(cmds, "base "+s.bases, "find "+s.find)
	}
	out := zebraClient(t, dir, cmds...)
	hits := hitsOf.FindAllStringSubmatch(out, -1)
	if len(hits) != len(searches) {
		t.Fatalf("yaz-client reported %d searches, want %d:\n%s", len(hits), len(searches), out)
	}
	for i, s := range searches {
		want, _ := strconv.Atoi(hits[i][1])
		raw := zebraURL("z39.50s", strings.ReplaceAll(s.bases, " ", "+")+"?"+s.docid)
		if got := listZ3950(t, dir, raw, want+5); len(got) != want {
			t.Errorf("%s: urlget lists %d records, yaz-client found %d", raw, len(got), want)
		}
		t.Logf("base %s, find %s: %d", s.bases, s.find, want)
	}
	// The catalogue is what was indexed: a word in every record finds
	// every record of the database, and of both.
	if n, _ := strconv.Atoi(hits[5][1]); n != testbed.ZebraBookRecords {
		t.Errorf("find %s in books: %d, want %d", testbed.ZebraCommonWord, n, testbed.ZebraBookRecords)
	}
	if n, _ := strconv.Atoi(hits[10][1]); n != zebraAll {
		t.Errorf("find %s in books+journals: %d, want %d", testbed.ZebraCommonWord, n, zebraAll)
	}
}

// zebraDump is yaz-client's USMARC dump (set_marcdump) of the records at
// positions 1..n of a find of term in bases, split into records.
func zebraDump(t *testing.T, dir, bases, term string, n int) [][]byte {
	t.Helper()
	cmds := []string{"base " + bases, "set_marcdump zebra.dump", "format usmarc", "find " + term}
	for at := 1; at <= n; at += 100 {
		cmds = append(cmds, fmt.Sprintf("show %d+%d", at, min(100, n-at+1)))
	}
	os.Remove(filepath.Join(dir, "zebra.dump"))
	zebraClient(t, dir, cmds...)
	b, err := os.ReadFile(filepath.Join(dir, "zebra.dump"))
	if err != nil {
		t.Fatal(err)
	}
	recs := bytes.SplitAfter(b, []byte{0x1d})
	if len(recs[len(recs)-1]) == 0 {
		recs = recs[:len(recs)-1]
	}
	if len(recs) != n {
		t.Fatalf("yaz-client dumped %d records of %d", len(recs), n)
	}
	return recs
}

// zebraGoClient is a client with the z39.50 schemes' --max at max.
func zebraGoClient(t *testing.T, max int) *fetch.Client {
	t.Helper()
	c := &fetch.Client{
		Registry: mustRegistry(fetch.Config{Options: schemes.Options{schemes.OptionMax: max}}),
		Dialer:   &transport.Dialer{ConnectTimeout: 10 * time.Second, IdleTimeout: 30 * time.Second},
		Conns:    &transport.Pool{},
	}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// TestZebraRecordURLsResolve is the point of the zebra service: a search
// of both databases for a word in every record lists all of them, and
// every Retrieval URL the listing gives retrieves exactly the record
// listed at that position: the same MARC octets as yaz-client's show
// of the position, which are the octets indexed (testbed.ZebraRecord,
// the record with that 001), in the database the listing named. Its
// docid, searched as one term, finds one record whatever its 001 looks
// like (blanks, slashes, a hyphen, a prefix). A sample of the URLs goes
// through the command as well, which prints a record as yaz-marcdump
// does.
func TestZebraRecordURLsResolve(t *testing.T) {
	testbed.Require(t, testbed.Zebra)
	dir := t.TempDir()
	dump := zebraDump(t, dir, "books journals", testbed.ZebraCommonWord, zebraAll)
	byID := map[string]int{}
	for n := 1; n <= zebraAll; n++ {
		byID[strings.TrimSpace(testbed.ZebraRecord(n).Control("001"))] = n
	}

	c := zebraGoClient(t, 2*zebraAll)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	list := zebraURL("z39.50s", "books+journals?"+testbed.ZebraCommonWord+";rs=usmarc")
	resp, err := c.List(ctx, list)
	if err != nil {
		t.Fatal(err)
	}
	var entries []schemes.Entry
	for {
		e, err := resp.Listing.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, e)
	}
	resp.Listing.Close()
	if len(entries) != zebraAll {
		t.Fatalf("%s lists %d records, want %d", list, len(entries), zebraAll)
	}
	forms := map[string]bool{}
	failed := 0
	for i, e := range entries {
		docid, _ := e.Extra.Get("docid")
		db, _ := e.Extra.Get("database")
		n := byID[docid]
		if e.Locator == nil || n == 0 || e.Name != strconv.Itoa(i+1) {
			t.Fatalf("entry %d: name %q, docid %q, URL %v", i+1, e.Name, docid, e.Locator)
		}
		if db != testbed.ZebraDatabaseOf(n) {
			t.Errorf("entry %d (record %d): database %q, want %q", i+1, n, db, testbed.ZebraDatabaseOf(n))
		}
		want := testbed.ZebraRecord(n).ISO2709()
		if !bytes.Equal(dump[i], want) {
			t.Fatalf("yaz-client's record %d is not record %d as indexed:\n%q\n%q", i+1, n, dump[i], want)
		}
		got, err := zebraGet(ctx, c, e.Locator.String())
		if err != nil || !bytes.Equal(got, dump[i]) {
			t.Errorf("entry %d: %s: %v\n got %q\nwant %q", i+1, e.Locator, err, got, dump[i])
			if failed++; failed == 10 {
				t.Fatal("ten records wrong: not trying the rest")
			}
		}
		forms[docidForm(docid)] = true
	}
	if len(forms) < 5 {
		t.Errorf("the docids took %d forms (%v), want the catalogue's five", len(forms), forms)
	}

	// The command: the listing's URLs as --json gives them, the first
	// ten records (every 001 form, a UTF-8 record), raw and as text.
	// Zebra's APDU log shows each docid sent as it is in the 001 (blanks
	// trimmed): one term, no attributes.
	logAt := testbed.LogSize(testbed.Zebra)
	var terms []string
	for _, e := range listZ3950(t, dir, zebraURL("z39.50s", "books?"+testbed.ZebraCommonWord+";rs=usmarc"), 10) {
		n, _ := strconv.Atoi(e.Name)
		id := strings.TrimSpace(testbed.ZebraRecord(n).Control("001"))
		terms = append(terms, fmt.Sprintf("attributes {\n          }\n          term choice\n          general OCTETSTRING(len=%d) %s\n", len(id), id))
		raw, code := runURLGetOutput(t, dir, e.URL)
		if code != 0 || raw != string(testbed.ZebraRecord(n).ISO2709()) {
			t.Errorf("%s: exit %d, %q", e.URL, code, raw)
		}
		f := filepath.Join(dir, "one.mrc")
		if err := os.WriteFile(f, []byte(raw), 0o644); err != nil {
			t.Fatal(err)
		}
		md, err := exec.Command("yaz-marcdump", f).Output()
		if err != nil {
			t.Fatal(err)
		}
		text, code := runURLGetOutput(t, dir, strings.TrimSuffix(e.URL, ";rs=usmarc"))
		if code != 0 || text != string(md) {
			t.Errorf("%s as text: exit %d\n%s\nyaz-marcdump:\n%s", e.URL, code, text, md)
		}
	}
	apdus, err := testbed.ReadProtocolLogSince(testbed.Zebra, logAt)
	if err != nil {
		t.Fatal(err)
	}
	for _, term := range terms {
		if n := strings.Count(string(apdus), term); n != 2 { // raw, then text
			t.Errorf("Zebra received %d searches with %q, want 2", n, term)
		}
	}
}

// TestZebraXMLRecordURLsResolve: a search asking for MARCXML (;rs=xml)
// lists each record with the Retrieval URL of its controlfield 001, and
// each retrieves, as XML, the record yaz-client shows at that position
// (Zebra's record number, in its idzebra element, included), its
// non-ASCII letters as indexed (UTF-8, not encoded twice).
func TestZebraXMLRecordURLsResolve(t *testing.T) {
	testbed.Require(t, testbed.Zebra)
	dir := t.TempDir()
	out := zebraClient(t, dir, "base books journals", "find navigation")
	hits := hitsOf.FindStringSubmatch(out)
	if hits == nil {
		t.Fatalf("yaz-client:\n%s", out)
	}
	n, _ := strconv.Atoi(hits[1])
	out = zebraClient(t, dir, "base books journals", "format xml", "find navigation", fmt.Sprintf("show 1+%d", n))
	var shown []string
	for _, chunk := range strings.Split(out, "Record type: XML\n")[1:] {
		shown = append(shown, chunk[:strings.LastIndex(chunk, "</record>")+len("</record>")])
	}
	if n < 10 || n > 100 || len(shown) != n {
		t.Fatalf("yaz-client found %d, showed %d", n, len(shown))
	}
	c := zebraGoClient(t, 100)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	resp, err := c.List(ctx, zebraURL("z39.50s", "books+journals?navigation;rs=xml"))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Listing.Close()
	utf8 := 0
	for i := 0; ; i++ {
		e, err := resp.Listing.Next()
		if err == io.EOF {
			if i != n {
				t.Errorf("listed %d records, yaz-client found %d", i, n)
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		docid, _ := e.Extra.Get("docid")
		if m := control001.FindStringSubmatch(shown[i]); e.Locator == nil || m == nil || strings.TrimSpace(m[1]) != docid {
			t.Fatalf("entry %d: docid %q, URL %v; yaz-client shows\n%s", i+1, docid, e.Locator, shown[i])
		}
		got, err := zebraGet(ctx, c, e.Locator.String())
		if err != nil || string(got) != shown[i] {
			t.Errorf("entry %d: %s: %v\n got %s\nwant %s", i+1, e.Locator, err, got, shown[i])
		}
		if bytes.ContainsAny(got, "ÅÃ") {
			t.Errorf("entry %d: non-ASCII letters encoded twice:\n%s", i+1, got)
		}
		if strings.ContainsAny(e.Title, "ōØßóŁ") {
			utf8++
		}
	}
	if utf8 == 0 {
		t.Error("no UTF-8 title among the records listed")
	}
}

// control001 finds a MARCXML record's 001 (Zebra writes no entities in
// the test bed's control numbers).
var control001 = regexp.MustCompile(`<controlfield tag="001">([^<]*)</controlfield>`)

// docidForm is a docid with its digits as 9: its form.
func docidForm(docid string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return '9'
		}
		return r
	}, docid)
}

// zebraGet retrieves raw with c.
func zebraGet(ctx context.Context, c *fetch.Client, raw string) ([]byte, error) {
	resp, err := c.Get(ctx, raw)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

// TestZebraRetrievalNotOne: a Retrieval URL whose docid finds no record
// fails as not found (exit 3), one that finds several as the server's
// fault (exit 6), each saying how many it found as yaz-client counts
// them, and that RFC 2056 §4 wants one.
func TestZebraRetrievalNotOne(t *testing.T) {
	testbed.Require(t, testbed.Zebra)
	dir := t.TempDir()
	out := zebraClient(t, dir, "base books", "find nosuchdocid", "find navigation")
	hits := hitsOf.FindAllStringSubmatch(out, -1)
	if len(hits) != 2 || hits[0][1] != "0" || hits[1][1] == "0" || hits[1][1] == "1" {
		t.Fatalf("yaz-client: %q\n%s", hits, out)
	}
	for _, tc := range []struct {
		docid string
		code  int
		count string
	}{
		{"nosuchdocid", 3, hits[0][1]},
		{"navigation", 6, hits[1][1]},
	} {
		raw := zebraURL("z39.50r", "books?"+tc.docid)
		r := runURLGet(t, dir, raw)
		want := fmt.Sprintf("docid %q matches %s records: a Retrieval URL must match exactly one (RFC 2056 §4)", tc.docid, tc.count)
		if r.code != tc.code || !strings.Contains(r.stderr, want) {
			t.Errorf("%s: exit %d, want %d; stderr %q, want it to say %q", raw, r.code, tc.code, r.stderr, want)
		}
	}
}

// TestConformanceZebra runs the query suite against Zebra: a Retrieval
// URL's record (USMARC, the octets indexed), and a search of the books
// database (its 1,000 records presented 100 at a time) for the subtests
// that cancel or time out mid-listing.
func TestConformanceZebra(t *testing.T) {
	testbed.Require(t, testbed.Zebra)
	r := testbed.ZebraRecord(4)
	conformance.RunQueries(t, conformance.QueryTarget{
		Name:    "zebra",
		URL:     zebraURL("z39.50r", "books?"+strings.TrimSpace(r.Control("001"))+";rs=usmarc"),
		Reply:   r.ISO2709(),
		ListURL: zebraURL("z39.50s", "books?"+testbed.ZebraCommonWord),
		Options: schemes.Options{schemes.OptionMax: testbed.ZebraBookRecords},
	})
}

// TestZebraGateway: through urlget serve, a search of Zebra is a page
// with a link for each record yaz-client's find counts, and every link
// leads to the record's page (its MARC as text).
func TestZebraGateway(t *testing.T) {
	testbed.Require(t, testbed.Zebra)
	dir := t.TempDir()
	hits := hitsOf.FindStringSubmatch(zebraClient(t, dir, "base books", "find navigation"))
	if hits == nil {
		t.Fatal("yaz-client found nothing")
	}
	base := startGateway(t, gateway.Options{Client: zebraGoClient(t, 100)}) // --max 100
	resp, body := gatewayGet(t, base, zebraURL("z39.50s", "books?navigation"), "")
	if resp.StatusCode != 200 {
		t.Fatalf("search page: %d\n%s", resp.StatusCode, body)
	}
	prefix := gateway.Address(zebraURL("z39.50r", "books?"))
	var records []string
	for _, m := range hrefOf.FindAllStringSubmatch(string(body), -1) {
		if href := html.UnescapeString(m[1]); strings.HasPrefix(href, prefix) {
			records = append(records, href)
		}
	}
	if strconv.Itoa(len(records)) != hits[1] {
		t.Fatalf("%d record links, yaz-client found %s:\n%s", len(records), hits[1], body)
	}
	for _, href := range records {
		resp, body := gatewayGetURL(t, base+href, "")
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") || !bytes.Contains(body, []byte("\n245 10 $a ")) {
			t.Errorf("%s: %d %s\n%s", href, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
	}
}

// hrefOf finds a page's links.
var hrefOf = regexp.MustCompile(`href="([^"]*)"`)
