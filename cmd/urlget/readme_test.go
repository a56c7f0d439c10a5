package main

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestREADMEDocumentsEveryFlag keeps the README's promise: every flag that
// `urlget --help` (or a subcommand's) lists is named there, by its long
// or its short form.
func TestREADMEDocumentsEveryFlag(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	// pflag's defaults: "  -o, --output FILE   ..." or "      --json   ...".
	flagLine := regexp.MustCompile(`(?m)^\s+(?:-([a-zA-Z]), )?--([a-z0-9-]+)`)
	var found [][]string
	for _, args := range [][]string{{"--help"}, {"ls", "--help"}, {"mirror", "--help"}, {"serve", "--help"}} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr); code != 0 {
			t.Fatalf("%v exit %d: %s", args, code, stderr.String())
		}
		more := flagLine.FindAllStringSubmatch(stdout.String(), -1)
		if len(more) < 30 {
			t.Fatalf("only %d flags in %v:\n%s", len(more), args, stdout.String())
		}
		found = append(found, more...)
	}
	for _, m := range found {
		short, long := m[1], m[2]
		if strings.Contains(string(readme), "`--"+long) || (short != "" && strings.Contains(string(readme), "`-"+short)) {
			continue
		}
		t.Errorf("README.md does not document --%s", long)
	}
}
