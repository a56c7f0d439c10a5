package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCmd(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// TestMirrorUsage: flags a mirror cannot use, a missing argument and
// --max-delete without --delete are usage errors (exit 2), before
// anything is read or written.
func TestMirrorUsage(t *testing.T) {
	dst := filepath.Join(t.TempDir(), "dst")
	for _, args := range [][]string{
		{"mirror", "-o", "x", "file:///tmp/", dst},
		{"mirror", "--long", "file:///tmp/", dst},
		{"mirror", "file:///tmp/"},
		{"mirror", "--max-delete", "3", "file:///tmp/", dst},
		{"mirror", "-P", "0", "file:///tmp/", dst},
		{"mirror", "--include", "[", "file:///tmp/", dst},
	} {
		code, _, stderr := runCmd(args...)
		if code != 2 || stderr == "" {
			t.Errorf("%v: exit %d, stderr %q; want a usage error", args, code, stderr)
		}
	}
	if _, err := os.Stat(dst); err == nil {
		t.Error("a refused mirror made its directory")
	}
}

// TestMirrorOutput: a file: tree mirrored with --json gives one object
// per event and a summary; without it, one summary line on stderr; with
// --dry-run, the plan on stdout.
func TestMirrorOutput(t *testing.T) {
	src := t.TempDir()
	os.MkdirAll(filepath.Join(src, "d"), 0o755)
	os.WriteFile(filepath.Join(src, "a.txt"), []byte("a\n"), 0o644)
	os.WriteFile(filepath.Join(src, "d", "b.txt"), []byte("bb\n"), 0o644)
	url := "file://" + filepath.ToSlash(src) + "/"
	dst := filepath.Join(t.TempDir(), "dst")

	code, stdout, stderr := runCmd("mirror", "--dry-run", url, dst)
	if code != 0 || !strings.Contains(stdout, "get    d/b.txt (new)") || !strings.Contains(stderr, "dry run: 2 fetched") {
		t.Fatalf("dry run: exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(dst, "a.txt")); err == nil {
		t.Fatal("a dry run fetched")
	}
	code, stdout, _ = runCmd("mirror", "--json", url, dst)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var events []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("not JSON: %q", l)
		}
		events = append(events, m)
	}
	last := events[len(events)-1]
	if last["event"] != "summary" || last["got"] != float64(2) || last["bytes"] != float64(5) {
		t.Fatalf("summary %v", last)
	}
	code, stdout, stderr = runCmd("mirror", url, dst)
	if code != 0 || stdout != "" || !strings.Contains(stderr, "mirrored: 0 fetched (0 B), 2 unchanged") {
		t.Fatalf("second run: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
