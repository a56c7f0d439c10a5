package gemini

import (
	"encoding/json"
	"flag"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestHeaderLines is the reply header's table.
func TestHeaderLines(t *testing.T) {
	for _, tt := range []struct {
		line   string
		status int
		meta   string
		bad    bool
	}{
		{line: "20 text/gemini", status: 20, meta: "text/gemini"},
		{line: "20", status: 20},
		{line: "20 ", status: 20},
		{line: "31 gemini://h/new", status: 31, meta: "gemini://h/new"},
		{line: "10 What word?", status: 10, meta: "What word?"},
		{line: "51 Not found", status: 51, meta: "Not found"},
		{line: "2", bad: true},
		{line: "200 ok", bad: true},
		{line: "70 x", bad: true},
		{line: "HTTP/1.1 200 OK", bad: true},
		{line: "20 " + strings.Repeat("x", maxMeta+1), bad: true},
	} {
		h, err := parseHeaderLine(tt.line)
		if tt.bad {
			if schemes.KindOf(err) != schemes.KindProtocol {
				t.Errorf("%q: %+v %v, want a protocol error", tt.line, h, err)
			}
			continue
		}
		if err != nil || h.Status != tt.status || h.Meta != tt.meta {
			t.Errorf("%q: %+v %v, want %d %q", tt.line, h, err, tt.status, tt.meta)
		}
	}
}

// TestStatusKinds maps failure statuses to the README's exit table.
func TestStatusKinds(t *testing.T) {
	for status, want := range map[int]schemes.Kind{
		40: schemes.KindBusy, 41: schemes.KindBusy, 44: schemes.KindBusy, 42: schemes.KindOther, 43: schemes.KindBusy,
		50: schemes.KindOther, 51: schemes.KindNotFound, 52: schemes.KindNotFound, 53: schemes.KindPermission,
		59: schemes.KindProtocol, 60: schemes.KindPermission, 61: schemes.KindPermission, 62: schemes.KindPermission,
	} {
		if e := statusError(header{Status: status, Meta: "m"}); e.Kind != want || e.Code != status {
			t.Errorf("%d: kind %v code %d, want %v", status, e.Kind, e.Code, want)
		}
	}
}

func TestParseLink(t *testing.T) {
	for line, want := range map[string]*link{
		"=> a.gmi A":      {URL: "a.gmi", Label: "A"},
		"=>a.gmi":         {URL: "a.gmi"},
		"=>\ta.gmi\t B  ": {URL: "a.gmi", Label: "B"},
		"=>":              nil,
		"=>   ":           nil,
		"> quote":         nil,
		" => a":           nil,
	} {
		got, ok := parseLink(line)
		if (want == nil) != !ok || (ok && got != *want) {
			t.Errorf("%q: %+v %v, want %+v", line, got, ok, want)
		}
	}
}

// TestGemtextGolden lists testdata/capsule.gmi as the page
// gemini://127.0.0.1/dir/index.gmi and compares with its golden file.
func TestGemtextGolden(t *testing.T) {
	base, err := parse("gemini://127.0.0.1/dir/index.gmi")
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("testdata/capsule.gmi")
	if err != nil {
		t.Fatal(err)
	}
	entries, err := schemes.ReadAll(gemtextListing(base, f, false))
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Name, Title, Kind, URL, Target string
	}
	var rows []row
	for _, e := range entries {
		rows = append(rows, row{e.Name, e.Title, string(e.Kind), schemestest.LocatorString(e), e.Target})
	}
	got, _ := json.MarshalIndent(rows, "", "  ")
	got = append(got, '\n')
	const golden = "testdata/capsule.golden.json"
	if *update {
		os.WriteFile(golden, got, 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil || string(got) != string(want) {
		t.Errorf("listing:\n%s\nwant (%s, %v):\n%s", got, golden, err, want)
	}
}

// TestGemtextBounded fails a document past the links' limit rather than
// listing it without end.
func TestGemtextBounded(t *testing.T) {
	base, _ := parse("gemini://h/")
	r := io.NopCloser(strings.NewReader(strings.Repeat("=> a\n", maxLinks+1)))
	if _, err := schemes.ReadAll(gemtextListing(base, r, false)); schemes.KindOf(err) != schemes.KindProtocol {
		t.Errorf("%v, want a protocol error", err)
	}
}
