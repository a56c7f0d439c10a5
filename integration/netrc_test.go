//go:build integration

package integration

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/internal/await"
)

// TestNetrcFTP runs the built urlget with --netrc-file against each FTP
// server: alice's netrc entry logs in (the fetch Client hands it to the
// ftp handler, which reads no netrc itself), and without the flag the
// same URL is anonymous.
func TestNetrcFTP(t *testing.T) {
	for _, s := range ftpServers {
		t.Run(s.service, func(t *testing.T) {
			testbed.Require(t, s.service)
			dir := t.TempDir()
			netrc := filepath.Join(dir, "netrc")
			text := fmt.Sprintf("machine %s login %s password %s\n", testbed.Host, testbed.AliceUser, testbed.AlicePassword)
			if err := os.WriteFile(netrc, []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
			// alice's login directory is her home: the fixtures are at their
			// absolute path for her, at the root for anonymous logins.
			for _, tc := range []struct {
				args []string
				user string
			}{
				{[]string{"--netrc-file", netrc, "-o", "with.txt", "ftp://" + testbed.Addr(s.port) + "/%2Fsrv/fixtures/README.txt"}, "USER " + testbed.AliceUser},
				{[]string{"-o", "without.txt", base("ftp", "", s.port)("README.txt")}, "USER anonymous"},
			} {
				off := testbed.LogSize(s.service)
				r := runURLGet(t, dir, append([]string{"--interface", testbed.ClientIP.String()}, tc.args...)...) // its commands counted
				if r.code != 0 {
					t.Fatalf("%v: exit %d: %s", tc.args, r.code, r.stderr)
				}
				if b, _ := os.ReadFile(filepath.Join(dir, tc.args[len(tc.args)-2])); string(b) != fixtureText(t, "README.txt") {
					t.Errorf("%v: got %q", tc.args, b)
				}
				// The server logs on its own time: until the session's
				// QUIT, bounded (the check below says what is missing).
				var cmds []string
				await.Poll(func() bool {
					cmds = ftpCommands(t, s.service, off)
					return slices.Contains(cmds, "QUIT")
				})
				if !slices.Contains(cmds, tc.user) {
					t.Errorf("%v: %s logged %q, want %q", tc.args, s.service, cmds, tc.user)
				}
				if strings.Contains(r.stderr, testbed.AlicePassword) {
					t.Errorf("password on stderr: %s", r.stderr)
				}
			}
		})
	}
}
