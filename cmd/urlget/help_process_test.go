package main

import (
	"strings"
	"testing"
)

// TestHelpAsAUserRunsIt runs the built command in bash as a user does:
// help goes through a pipe to grep (on stdout, exit 0), a subcommand's
// help holds its own flags only, a scheme's its options, and a flag
// error stays on stderr with exit 2.
func TestHelpAsAUserRunsIt(t *testing.T) {
	bin := builtCommand(t)
	for _, tc := range []struct {
		script   string
		code     int
		has, not []string // on stdout
		stderr   string
	}{
		{script: "set -o pipefail; urlget --help | grep -- --proxy", has: []string{"--proxy URL"}},
		{script: "urlget -h | grep -c -- --segments", has: []string{"1\n"}},
		{script: "urlget help | head -1", has: []string{"Usage: urlget [flags] URL...\n"}},
		{script: "urlget --version", has: []string{"urlget " + version + "\n"}},
		{script: "urlget ls --help", has: []string{"-l, --long", "--json", "--nntp-server"}, not: []string{"--smtp-server", "--login"}},
		{script: "urlget mirror --help", has: []string{"--delete", "--max-delete", "--include"}, not: []string{"--form-json", "--login", "--views"}},
		{script: "urlget --help gopher", has: []string{"--search WORDS", "--views"}, not: []string{"--proxy"}},
		{script: "urlget --no-such-flag http://h/ 2>&1 >/dev/null", code: 2, has: []string{"unknown flag --no-such-flag"}},
		{script: "urlget --no-such-flag http://h/ 2>/dev/null", code: 2},
	} {
		t.Run(tc.script, func(t *testing.T) {
			stdout, stderr, code := inShell(t, bin, "bash", tc.script)
			if code != tc.code || !strings.Contains(stderr, tc.stderr) {
				t.Fatalf("exit %d (want %d), stderr %q", code, tc.code, stderr)
			}
			if tc.has == nil && stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			hasAndNot(t, stdout, func(s string) bool { return strings.Contains(stdout, s) }, tc.has, tc.not)
		})
	}
}
