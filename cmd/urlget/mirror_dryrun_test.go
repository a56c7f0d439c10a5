package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestMirrorDryRunPrintsChanges: around 3 changes in a tree of 200
// unchanged files, a dry run prints the 3 (what it would fetch and
// delete, with why) and counts the unchanged in its summary, which -v
// lists one a line.
func TestMirrorDryRunPrintsChanges(t *testing.T) {
	src, dst := t.TempDir(), t.TempDir()
	for i := range 200 {
		p := filepath.Join(src, fmt.Sprintf("d%d", i%10), fmt.Sprintf("f%03d.txt", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("same\n"), 0o644)
	}
	url := "file://" + filepath.ToSlash(src) + "/"
	if code, _, stderr := runCmd("mirror", url, dst); code != 0 {
		t.Fatalf("first run: exit %d: %s", code, stderr)
	}
	os.WriteFile(filepath.Join(src, "d1", "new.txt"), []byte("new\n"), 0o644)
	changed := filepath.Join(src, "d2", "f002.txt")
	os.WriteFile(changed, []byte("changed\n"), 0o644)
	os.Chtimes(changed, time.Now().Add(time.Hour), time.Now().Add(time.Hour))
	os.Remove(filepath.Join(src, "d3", "f003.txt"))

	code, stdout, stderr := runCmd("mirror", "--dry-run", "--delete", url, dst)
	want := "would delete d3/f003.txt (not on the remote)\n" +
		"would fetch  d1/new.txt (new)\n" +
		"would fetch  d2/f002.txt (size differs (5 here, 8 there))\n"
	if got := sortedLines(stdout); code != 0 || got != want {
		t.Fatalf("dry run: exit %d\nstdout:\n%s\nwant:\n%s\nstderr %s", code, got, want, stderr)
	}
	if !strings.Contains(stderr, "dry run: would fetch 2 (12 B), 198 unchanged, 0 skipped, would delete 1,") ||
		!strings.Contains(stderr, "; -v lists the unchanged and skipped") {
		t.Errorf("summary: %q", stderr)
	}

	code, stdout, stderr = runCmd("mirror", "--dry-run", "--delete", "-v", url, dst)
	if n := strings.Count(stdout, " (unchanged)\n"); code != 0 || n != 198 || !strings.Contains(stdout, "would fetch  d1/new.txt (new)\n") ||
		strings.Contains(stderr, "-v lists") {
		t.Errorf("-v: exit %d, %d unchanged listed\n%s\nstderr %s", code, n, stdout, stderr)
	}
}

// sortedLines is s's lines sorted, each ending in "\n": the events of
// parallel listings come in any order.
func sortedLines(s string) string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	slices.Sort(lines)
	return strings.Join(lines, "")
}
