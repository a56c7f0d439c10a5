package main

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestManPage: `urlget man` is roff with a .TH header and the man(7)
// sections, every flag of every command in it with its help (a
// subcommand's own flags described under it), and, where groff is
// installed, it renders without a warning and shows the flags as typed.
func TestManPage(t *testing.T) {
	page, stderr, code := urlget(t, "", "man")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !regexp.MustCompile(`(?m)^\.TH URLGET 1 "" "urlget [^"]+" "User Commands"$`).MatchString(page) {
		t.Errorf("no .TH header:\n%.300s", page)
	}
	for _, sh := range []string{".SH NAME\nurlget \\- ", ".SH SYNOPSIS\n", ".SH OPTIONS\n", ".SH COMMANDS\n", `.SH "EXIT STATUS"`, `.SH "SEE ALSO"`} {
		if !strings.Contains(page, sh) {
			t.Errorf("no %q", sh)
		}
	}
	for _, c := range commands() {
		if !strings.Contains(page, roff(c.form())) || !strings.Contains(page, roff(c.about)) {
			t.Errorf("%s: no form or description", c.form())
		}
		for _, f := range c.flags() {
			_, help := flagUsage(f)
			if !strings.Contains(page, roffBold("--"+f.Name)) || !strings.Contains(page, "\n"+roff(help)+"\n") {
				t.Errorf("%s: --%s or its help %q missing", c.form(), f.Name, help)
			}
		}
	}
	for _, line := range strings.Split(page, "\n") {
		if strings.HasPrefix(line, "'") || (strings.HasPrefix(line, ".") && !regexp.MustCompile(`^\.(\\"|[A-Za-z]{1,2}\b)`).MatchString(line)) {
			t.Errorf("a text line read as a request: %q", line)
		}
	}
	groff, err := exec.LookPath("groff")
	if err != nil {
		t.Log("groff is not installed: the page is not rendered")
		return
	}
	cmd := exec.Command(groff, "-man", "-Tutf8", "-ww")
	cmd.Stdin = strings.NewReader(page)
	var warnings strings.Builder
	cmd.Stderr = &warnings
	text, err := cmd.Output()
	if err != nil || warnings.Len() > 0 {
		t.Fatalf("groff: %v\n%s", err, warnings.String())
	}
	plain := regexp.MustCompile(".\b").ReplaceAllString(string(text), "") // overstrikes: bold, underline
	for _, want := range []string{"URLGET(1)", "-o, --output FILE", "--segments N", "urlget mirror [flags] URL DIR", "--delete", "--search WORDS", "EXIT STATUS"} {
		if !strings.Contains(plain, want) {
			t.Errorf("rendered page lacks %q", want)
		}
	}
}
