//go:build integration

package integration

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlget/urlget/integration/testbed"
)

// TestParallelManyFiles: `urlget -Z --parallel-max 8 -O -i LIST` fetches
// the first 200 files of the fixture tree's many/ from vsftpd and from
// nginx: every file's SHA-256 is its fixture's, the --json reports come in
// the list's order, and the run's protocol trace (-v) shows at most 8 FTP
// logins (the pool hands each back to the next URL) and at most 16 HTTP
// connections opened (keep-alive; 8 to 11 seen), for 200 files.
func TestParallelManyFiles(t *testing.T) {
	const files, n = 200, 8
	for _, tc := range []struct {
		name, base string
		opened     string // a trace line of a session opened to the server
		most       int    // sessions opened at the most
	}{
		{"vsftpd", "ftp://" + testbed.Addr(testbed.VsftpdPort) + "/", "> USER ", n},
		// net/http dials a connection for a request that comes before the
		// previous one's connection is back in its pool (on loopback, a
		// few of 200), and keeps both: a few more than n.
		{"nginx", "http://" + testbed.Addr(testbed.HTTPPort) + "/", "* Connecting to " + testbed.Addr(testbed.HTTPPort), 2 * n},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var list strings.Builder
			for i := 1; i <= files; i++ {
				fmt.Fprintf(&list, "%s%s\n", tc.base, testbed.ManyFileName(i))
			}
			listFile := filepath.Join(dir, "urls.txt")
			if err := os.WriteFile(listFile, []byte(list.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "out")
			cmd := exec.Command(urlgetBinary(t), "-v", "-Z", "--parallel-max", fmt.Sprint(n), "--json", "-O", "--output-dir", out, "-i", listFile)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("%v: %s", err, tail(stderr.String()))
			}
			for i := 1; i <= files; i++ {
				name := testbed.ManyFileName(i)
				b, err := os.ReadFile(filepath.Join(out, path.Base(name)))
				if err != nil {
					t.Fatal(err)
				}
				if got, want := sha256.Sum256(b), sha256.Sum256([]byte(testbed.ManyFileContent(i))); got != want {
					t.Fatalf("%s: SHA-256 %x, want %x", name, got, want)
				}
			}
			dec := json.NewDecoder(&stdout)
			for i := 1; i <= files; i++ {
				var rep struct {
					Input string
					Error any
				}
				if err := dec.Decode(&rep); err != nil {
					t.Fatalf("report %d: %v", i, err)
				}
				if want := tc.base + testbed.ManyFileName(i); rep.Input != want || rep.Error != nil {
					t.Fatalf("report %d: input %q (want %q), error %v", i, rep.Input, want, rep.Error)
				}
			}
			opened := strings.Count(stderr.String(), tc.opened)
			t.Logf("%d files, %d at once: %d sessions opened (%q)", files, n, opened, tc.opened)
			if opened < 1 || opened > tc.most {
				t.Errorf("%d sessions opened for %d files, %d at once: want 1 to %d", opened, files, n, tc.most)
			}
		})
	}
}
