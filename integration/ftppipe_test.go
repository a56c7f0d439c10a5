//go:build integration

package integration

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/internal/await"
	"github.com/urlget/urlget/internal/schemestest"
)

// TestFTPPipelined: on every real server, a fresh session's commands after
// the login go in batches (issue 36): PWD with the CWDs and SYST, then
// TYPE, SIZE and EPSV once SYST has answered; the -v trace shows each
// batch's commands written before the first of its replies, the server's
// own log shows every command taken in order, the file is byte-exact, and
// the waits fall from eleven or twelve round trips to four or five.
// --no-pipeline sends each command after the reply to the one before.
func TestFTPPipelined(t *testing.T) {
	const name = "nested/level1/level2/level3/deep.txt"
	want, ok := testbed.FixtureFiles[name]
	if !ok {
		t.Fatalf("no fixture %s", name)
	}
	for _, s := range ftpServers {
		t.Run(s.service, func(t *testing.T) {
			testbed.Require(t, s.service)
			url := fmt.Sprintf("ftp://%s/%s", testbed.Addr(s.port), name)
			trips := map[bool]int{}
			for _, noPipe := range []bool{false, true} {
				dir := t.TempDir()
				args := []string{"--interface", testbed.ClientIP.String(), "-v", "-o", "deep.txt", url} // its commands counted
				if noPipe {
					args = append([]string{"--no-pipeline"}, args...)
				}
				off := testbed.LogSize(s.service)
				r := runURLGet(t, dir, args...)
				if r.code != 0 {
					t.Fatalf("urlget %q: exit %d\n%s", args, r.code, r.stderr)
				}
				if b, err := os.ReadFile(filepath.Join(dir, "deep.txt")); err != nil || string(b) != want {
					t.Fatalf("deep.txt %q, %v; want %q", b, err, want)
				}
				var cmds []string
				await.Poll(func() bool {
					cmds = ftpCommands(t, s.service, off)
					return len(cmds) > 0 && cmds[len(cmds)-1] == "QUIT"
				})
				wantCmds := seq(anonLogin(s.service), []string{"CWD nested", "CWD level1", "CWD level2", "CWD level3",
					"SYST", "TYPE I", "SIZE deep.txt", "EPSV", "RETR deep.txt", "QUIT"})
				if !slices.Equal(cmds, wantCmds) {
					t.Errorf("%s logged (no pipeline %v)\n  %q\nwant\n  %q", s.service, noPipe, cmds, wantCmds)
				}
				together := schemestest.SentTogether(r.stderr, "PWD", "CWD nested", "CWD level1", "CWD level2", "CWD level3", "SYST") &&
					schemestest.SentTogether(r.stderr, "TYPE I", "SIZE deep.txt", "EPSV")
				if together == noPipe {
					t.Errorf("no pipeline %v, yet commands together %v:\n%s", noPipe, together, r.stderr)
				}
				trips[noPipe] = schemestest.RoundTrips(r.stderr)
				t.Logf("%s, no pipeline %v: %d round trips, %v", s.service, noPipe, trips[noPipe], r.took)
			}
			if trips[false] > 5 || trips[true] < trips[false]+6 {
				t.Errorf("round trips: %d pipelined, %d in turn; want at most 5, and 6 fewer than in turn", trips[false], trips[true])
			}
		})
	}
}
