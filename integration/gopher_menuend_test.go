//go:build integration

package integration

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlget/urlget/integration/testbed"
)

// TestMirrorCommandPygopherd is issue 31's regression: `urlget mirror` of
// pygopherd's top menu (its fixture tree left out: the menu, docs/ and
// binaries/) fetched every file and exited 6 with "3 failed", one for
// each menu, which pygopherd never ends with a "." line. Each is asked
// again the Gopher+ way and its `+-2` reply is whole at the server's
// close: exit 0, no failure, and with --delete a local file no menu names
// goes.
func TestMirrorCommandPygopherd(t *testing.T) {
	testbed.Require(t, testbed.Pygopherd)
	src := fmt.Sprintf("gopher://%s/", testbed.Addr(testbed.PygopherdPort))
	work := t.TempDir()
	dst := filepath.Join(work, "dst")
	mirrorSummary := func(args ...string) map[string]any {
		t.Helper()
		out, code := runURLGetOutput(t, work, append(append([]string{"mirror", "--json", "--exclude", "fixtures"}, args...), src, dst)...)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		var sum map[string]any
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil || sum["event"] != "summary" {
			t.Fatalf("exit %d, last line %q (%v)", code, lines[len(lines)-1], err)
		}
		if code != 0 || sum["errors"] != float64(0) || sum["listed"] != float64(3) {
			t.Errorf("urlget mirror %q: exit %d, summary %v; want exit 0, 3 menus listed, none failed\n%s", args, code, sum, out)
		}
		return sum
	}
	if sum := mirrorSummary(); sum["got"] == float64(0) {
		t.Errorf("nothing fetched: %v", sum)
	}
	stale := filepath.Join(dst, "docs", "stale.txt")
	if err := os.WriteFile(stale, []byte("local only\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if sum := mirrorSummary("--delete"); sum["deleted"] != float64(1) {
		t.Errorf("--delete: summary %v, want the one stale file deleted", sum)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("docs/stale.txt is still there: %v", err)
	}
}
