//go:build integration

package integration

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/urlget/urlget/integration/testbed"
)

// lsEntry is one entry of `urlget ls --json`.
type lsEntry struct {
	Name, Title, Kind, URL, Target string
	Size                           *int64
	Extra                          map[string]string
}

// lsCase is one container of the test bed, listed by the built urlget.
type lsCase struct {
	name     string
	services []string
	args     []string // flags before the URL
	url      string
	code     int      // the exit status of both runs
	long     []string // regexps, each matching a whole line of ls -l
	short    []string // the same for ls without -l
	// entries are names (or titles) whose --json entry must carry the
	// url and target given ("" target: none expected).
	entries map[string][2]string
}

func lsCases() []lsCase {
	web := "http://" + testbed.Addr(testbed.HTTPPort) + "/"
	ftp := "ftp://" + testbed.Addr(testbed.VsftpdPort) + "/"
	goph := "gopher://" + testbed.Addr(testbed.GophernicusPort) + "/"
	pyg := "gopher://" + testbed.Addr(testbed.PygopherdPort) + "/"
	nntp := "nntp://" + testbed.Addr(testbed.NNTPPort) + "/"
	wais := "wais://" + testbed.Addr(testbed.WAISPort) + "/demo"
	pros := "prospero://" + testbed.Addr(testbed.ProsperoPort) + "/"
	prosEntry := "prospero://" + testbed.Host + "/" // the default port, 1525, left out
	return []lsCase{
		{name: "nginx index page", services: []string{testbed.Nginx}, url: web,
			long:    []string{`-\s+43 2024-01-02 03:04 README\.txt`, `d\s+- 2024-01-02 03:04 bin/`, `d\s+- \S+ \S+ dir with space/`},
			entries: map[string][2]string{"README.txt": {web + "README.txt"}, "dir with space": {web + "dir%20with%20space/"}}},
		{name: "vsftpd directory", services: []string{testbed.Vsftpd}, url: ftp,
			long:    []string{`-\s+43 2024-01-02\s+README\.txt`, `d\s+\d+ 2024-01-02\s+bin/`, `l\s+\d+ \S+ \S+ outside-link -> /etc/hostname`},
			entries: map[string][2]string{"README.txt": {ftp + "README.txt"}, "outside-link": {ftp + "outside-link", "/etc/hostname"}}},
		{name: "gophernicus menu", services: []string{testbed.Gophernicus}, url: goph,
			long:    []string{`-\s+-\s+LF text file`, `d\s+-\s+Nested directories`, `l\s+-\s+HTTP link -> ` + regexp.QuoteMeta(web)},
			short:   []string{`\[link\] HTTP link -> ` + regexp.QuoteMeta(web)},
			entries: map[string][2]string{"HTTP link": {goph + "hURL:" + web, web}, "LF text file": {goph + "0/text/lf.txt"}}},
		// pygopherd never ends a plain menu with its "." line: asked
		// again the Gopher+ way, its `+-2` reply ends when the server
		// closes, a whole listing (exit 0). Its `$` reply gives view
		// sizes (Gopher+), shown where ls shows sizes.
		{name: "pygopherd Gopher+ menu", services: []string{testbed.Pygopherd}, url: pyg,
			long:    []string{`-\s+<0k> \S+ \S+ about`, `d\s+- \S+ \S+ docs/`},
			entries: map[string][2]string{"about": {pyg + "0/about.txt"}}},
		{name: "inn2 news:*", services: []string{testbed.INN}, args: []string{"--nntp-server", testbed.Addr(testbed.NNTPPort)}, url: "news:*",
			long:    []string{`d\s+-\s+local\.test/`},
			entries: map[string][2]string{testbed.GroupTest: {"news:" + testbed.GroupTest}}},
		{name: "inn2 nntp://host/", services: []string{testbed.INN}, url: nntp,
			long:    []string{`d\s+-\s+local\.test/`, `d\s+-\s+local\.misc/`},
			entries: map[string][2]string{testbed.GroupTest: {nntp + testbed.GroupTest}}},
		{name: "inn2 group overview", services: []string{testbed.INN}, url: nntp + testbed.GroupTest,
			long:    []string{`-\s+\d+ \d{4}-\d\d-\d\d \d\d:\d\d Lines starting with dots`},
			entries: map[string][2]string{"Lines starting with dots": {nntp + testbed.GroupTest + "/1"}}},
		{name: "waisd database", services: []string{testbed.WAIS}, url: wais,
			long:    []string{`-\s+289\s+Catalog for database: demo`},
			entries: map[string][2]string{"Catalog for database: demo": {wais + "/TEXT/289/2=/srv/wais/index/demo;3=catalog;7=%00;"}}},
		{name: "dirsrv directory", services: []string{testbed.Prospero}, url: pros + "/srv/prospero",
			long:    []string{`-\s+52 1994-05-17 12:00 README\.txt`, `d\s+-\s+sub`},
			entries: map[string][2]string{"README.txt": {prosEntry + "/srv/prospero/README.txt"}}},
		{name: "dirsrv links", services: []string{testbed.Prospero}, url: pros + "/virtual/root",
			long:  []string{`l\s+-\s+ftp-readme -> ` + regexp.QuoteMeta(ftp+"%2FREADME.txt;type=i")},
			short: []string{`\[link\] ftp-readme -> ` + regexp.QuoteMeta(ftp+"%2FREADME.txt;type=i")},
			entries: map[string][2]string{"ftp-readme": {prosEntry + "/virtual/root/ftp-readme", ftp + "%2FREADME.txt;type=i"},
				"pfs": {prosEntry + "/srv/prospero"}}},
	}
}

// TestLsEveryScheme runs the built urlget's `ls -l` and `ls --json` on a
// container of each test bed server: every line the server's listing
// should show is there (sizes and times where the server gives them, link
// targets), and every fetchable entry has its url in --json, links
// included.
func TestLsEveryScheme(t *testing.T) {
	for _, tc := range lsCases() {
		t.Run(tc.name, func(t *testing.T) {
			for _, s := range tc.services {
				testbed.Require(t, s)
			}
			dir := t.TempDir()
			out, code := runURLGetOutput(t, dir, append(append([]string{"ls", "-l"}, tc.args...), tc.url)...)
			if code != tc.code {
				t.Errorf("ls -l %s: exit %d, want %d\n%s", tc.url, code, tc.code, out)
			}
			for _, re := range tc.long {
				if !regexp.MustCompile(`(?m)^` + re + `$`).MatchString(out) {
					t.Errorf("ls -l %s: no line matching %s in\n%s", tc.url, re, out)
				}
			}
			if len(tc.short) > 0 {
				out, _ = runURLGetOutput(t, dir, append(append([]string{"ls"}, tc.args...), tc.url)...)
				for _, re := range tc.short {
					if !regexp.MustCompile(`(?m)^` + re + `$`).MatchString(out) {
						t.Errorf("ls %s: no line matching %s in\n%s", tc.url, re, out)
					}
				}
			}
			out, code = runURLGetOutput(t, dir, append(append([]string{"ls", "--json"}, tc.args...), tc.url)...)
			var rep struct {
				Entries []lsEntry
				Error   *struct{ Message string }
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil || code != tc.code {
				t.Fatalf("ls --json %s: exit %d, %v\n%s", tc.url, code, err, out)
			}
			byLabel := map[string]lsEntry{}
			for _, e := range rep.Entries {
				label := e.Title
				if label == "" {
					label = e.Name
				}
				byLabel[label] = e
				// Info lines name nothing; a session (a gopher telnet
				// item) is started, not fetched: its telnet URL is in
				// extra.url.
				if e.Kind != "info" && e.Kind != "raw" && e.Kind != "session" && e.URL == "" {
					t.Errorf("ls --json %s: entry %+v has no url", tc.url, e)
				}
			}
			for label, want := range tc.entries {
				e, ok := byLabel[label]
				if !ok || e.URL != want[0] || e.Target != want[1] {
					t.Errorf("ls --json %s: entry %q = %+v, want url %q target %q", tc.url, label, e, want[0], want[1])
				}
			}
		})
	}
}

// TestLsIndexPageIsADocumentToRetrieval: the same nginx URL is a page to
// `urlget URL` (printed as the server sent it) and a directory to
// `urlget ls URL`.
func TestLsIndexPageIsADocumentToRetrieval(t *testing.T) {
	testbed.Require(t, testbed.Nginx)
	url := fmt.Sprintf("http://%s/", testbed.Addr(testbed.HTTPPort))
	page, code := runURLGetOutput(t, t.TempDir(), "-s", url)
	if code != 0 || !strings.Contains(page, "<title>Index of /</title>") {
		t.Fatalf("urlget %s: exit %d, %.200q", url, code, page)
	}
	list, code := runURLGetOutput(t, t.TempDir(), "ls", url)
	if code != 0 || strings.Contains(list, "<") || !regexp.MustCompile(`(?m)^README\.txt$`).MatchString(list) {
		t.Errorf("urlget ls %s: exit %d\n%s", url, code, list)
	}
}

// TestLsProsperoLinkURLFetches: the url --json gives a Prospero EXTERNAL
// link fetches what the link points to.
func TestLsProsperoLinkURLFetches(t *testing.T) {
	testbed.Require(t, testbed.Prospero)
	testbed.Require(t, testbed.Vsftpd)
	url := "prospero://" + testbed.Host + "//virtual/root/ftp-readme"
	body, code := runURLGetOutput(t, t.TempDir(), "-s", url)
	if code != 0 || body != "This is the urlget anonymous fixture root.\n" {
		t.Errorf("urlget %s: exit %d, %q", url, code, body)
	}
}
