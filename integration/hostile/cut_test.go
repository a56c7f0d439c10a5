//go:build integration

package hostile_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/urlget/urlget/integration/hostile"
)

// TestMirrorCutListing mirrors a small tree with --delete twice: first
// whole (everything arrives, exit 0), then with the top listing cut short
// after two of its nine entries. A listing that cannot be shown complete
// must delete nothing: the second run fails, every local file and
// subtree is still there, and the summary says deletions were withheld.
//
// Gopher and HTTP can tell a cut on the wire (no "." line; no </html> on
// a page ended by the close): exit 6. The FTP listing is cut at a line
// end and confirmed with 226, and a Gopher+ `+-2` menu is cut at a line
// end and closed, which both look whole on the wire; only the mirror's
// guard against a listing that suddenly names far fewer entries than the
// local copy holds keeps the files.
func TestMirrorCutListing(t *testing.T) {
	for _, tc := range []struct {
		name  string
		serve func(*hostile.Tree) func(*hostile.Conn)
		url   string // ADDR stands for the server's 127.0.0.1:PORT
		code  int    // the second run's exit status; -1: any but 0
		// say must be in an error event of the second run.
		say string
	}{
		{name: "gopher menu without its dot line", serve: hostile.GopherTree, url: "gopher://ADDR/1/",
			code: 6, say: `without its "." line`},
		// pygopherd's way: plain menus without their "." line, asked
		// again as Gopher+ and whole at the close of a +-2 reply — which
		// a cut at a line end looks like, so, as for FTP's 226, only the
		// guard against a listing that shrank keeps the files.
		{name: "gopher+ menu cut then closed (+-2)", serve: hostile.GopherPlusTree, url: "gopher://ADDR/1/", code: -1,
			say: "deletions held back"},
		{name: "http index ended by close without </html>", serve: hostile.HTTPTree, url: "http://ADDR/",
			code: 6, say: "without </html> and its length was not given"},
		{name: "ftp listing cut at a line end then 226", serve: hostile.FTPTree, url: "ftp://ADDR/", code: -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tree := &hostile.Tree{}
			s := start(t, tc.serve(tree))
			url := strings.ReplaceAll(tc.url, "ADDR", s.HostPort())
			dst := filepath.Join(t.TempDir(), "mirror")

			r := run(t, s, "mirror", "--delete", url, dst)
			if r.code != 0 {
				t.Fatalf("first run: exit %d, want 0; stderr:\n%s", r.code, r.stderr)
			}
			r.checkRSS(t)
			whole := localTree(t, dst)
			for p, content := range hostile.TreeFiles() {
				if got, ok := whole[p]; !ok || got != content {
					t.Errorf("first run: %s holds %q (present %v), want %q", p, got, ok, content)
				}
			}

			tree.Cut()
			r = run(t, s, "mirror", "--delete", "--json", url, dst)
			switch {
			case tc.code < 0 && r.code == 0, tc.code >= 0 && r.code != tc.code:
				t.Errorf("second run: exit %d, want %s; stderr:\n%s", r.code, exitWant(tc.code), r.stderr)
			}
			r.checkRSS(t)
			after := localTree(t, dst)
			for p := range whole {
				if _, ok := after[p]; !ok {
					t.Errorf("second run deleted %s", p)
				}
			}
			sum, deletes, errs := mirrorJSON(t, r.stdout)
			if tc.say != "" && !strings.Contains(strings.Join(errs, "\n"), tc.say) {
				t.Errorf("no error event of the second run says %q:\n%s", tc.say, r.stdout)
			}
			if len(deletes) > 0 || sum.Deleted != 0 {
				t.Errorf("second run reports deletions: %q, summary deleted %d", deletes, sum.Deleted)
			}
			if sum.NoDelete == "" {
				t.Errorf("the summary does not say deletions were withheld: %+v", sum)
			}
			t.Logf("second run's summary: %+v", sum)
		})
	}
}

// exitWant says which exit status a case wants.
func exitWant(code int) string {
	if code < 0 {
		return "a failure (not 0)"
	}
	return strconv.Itoa(code)
}

// localTree is what dir holds: each file by slash path with its content,
// each directory with a trailing "/" (the mirror's own lock left out).
func localTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case rel == "." || strings.HasPrefix(d.Name(), ".urlget-mirror"):
		case d.IsDir():
			out[rel+"/"] = ""
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// mirrorSummary is the part of urlget mirror's --json summary the cases
// look at.
type mirrorSummary struct {
	Deleted  int    `json:"deleted"`
	Errors   int    `json:"errors"`
	NoDelete string `json:"no_delete"`
}

// mirrorJSON reads urlget mirror's --json output: the summary, the paths
// of the delete events and the messages of the error events.
func mirrorJSON(t *testing.T, stdout string) (sum mirrorSummary, deletes, errs []string) {
	t.Helper()
	found := false
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var ev struct {
			Event string `json:"event"`
			Path  string `json:"path"`
			Error string `json:"error"`
		}
		if json.Unmarshal([]byte(line), &ev) != nil {
			t.Errorf("not a JSON line: %q", line)
			continue
		}
		switch ev.Event {
		case "delete":
			deletes = append(deletes, ev.Path)
		case "error":
			errs = append(errs, ev.Error)
		case "summary":
			found = json.Unmarshal([]byte(line), &sum) == nil
		}
	}
	if !found {
		t.Errorf("no summary in the --json output:\n%s", stdout)
	}
	return sum, deletes, errs
}
