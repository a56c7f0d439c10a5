package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// builtCommand builds urlget as a user does (go build) into a directory
// of the test's, which it returns to be put first on PATH.
func builtCommand(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the command")
	}
	dir := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", filepath.Join(dir, "urlget"), ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return dir
}

// inShell runs script with shell (bash -c SCRIPT, ...), with the built
// urlget first on PATH, and returns its stdout, stderr and exit status.
func inShell(t *testing.T, bin, shell, script string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(shell, append([]string{"-c", script, shell}, args...)...)
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return out.String(), errb.String(), ee.ExitCode()
	case err != nil:
		t.Fatalf("%s: %v", shell, err)
	}
	return out.String(), errb.String(), 0
}
