package main

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// TestHelpOnStdout: help and version go to stdout and exit 0, whichever
// way they are asked for; a subcommand's help lists the flags it takes
// and not those it does not; a scheme's help its options; flag errors
// stay on stderr, exit 2.
func TestHelpOnStdout(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		code     int
		has, not []string // on stdout
		stderr   string   // in stderr; "" wants it empty
	}{
		{args: []string{"--help"}, has: []string{"Usage: urlget [flags] URL...\n", "--proxy", "--segments", "Flags of gopher, gophers URLs:", "Flags of gopher, gophers, gemini URLs:\n      --search WORDS", "urlget --help SCHEME"}},
		{args: []string{"-h"}, has: []string{"--proxy"}},
		{args: []string{"help"}, has: []string{"--proxy"}},
		{args: []string{"-s", "--help"}, has: []string{"--proxy"}},
		{args: []string{"--version"}, has: []string{"urlget " + version + "\n"}, not: []string{"--proxy"}},
		{args: []string{"-V"}, has: []string{"urlget " + version + "\n"}},
		{args: []string{"ls", "--help"}, has: []string{"Usage: urlget ls [-l] [--json] [flags] URL...\n", "-l, --long", "--json", "--max N", "--search", "--nntp-server"},
			not: []string{"--smtp-server", "--login", "--output ", "--remote-name", "-I, --head", "--segments", "--ascii", "--body", "--delete"}},
		{args: []string{"mirror", "--help"}, has: []string{"--delete", "--dry-run", "--include", "--user", "--ascii", "--header"},
			not: []string{"--form-json", "--form ", "--login", "--search", "--smtp-server", "--telnet-idle", "--views", "--output ", "--segments", "--fsync"}},
		{args: []string{"serve", "--help"}, has: []string{"--listen", "--allow-send", "--smtp-server", "--user"},
			not: []string{"--login", "--telnet-idle", "--search", "--views", "--json", "--delete", "--output "}},
		{args: []string{"help", "mirror"}, has: []string{"Usage: urlget mirror [flags] URL DIR\n", "--delete"}},
		{args: []string{"--help", "mirror"}, has: []string{"Usage: urlget mirror [flags] URL DIR\n"}},
		{args: []string{"--help", "gopher"}, has: []string{"Flags of gopher, gophers URLs:", "--search", "--form-json"}, not: []string{"--proxy", "--delete"}},
		{args: []string{"--help", "gemini"}, has: []string{"--cert", "--search WORDS", "gopher: search", "gemini: the input"}, not: []string{"--gemini-input"}},
		{args: []string{"help", "news"}, has: []string{"--nntp-server", "--body", "--max N", "-I, --head"}, not: []string{"--search"}},
		{args: []string{"help", "https"}, has: []string{"-H, --header"}},
		{args: []string{"help", "wais"}, has: []string{"wais URLs have no flags of their own.", "--max N"}},
		{args: []string{"--help", "https://example.org/"}, has: []string{"Usage: urlget [flags] URL...\n"}},
		{args: []string{"parse", "--help"}, has: []string{"Usage: urlget parse URL\n"}},
		{args: []string{"same", "-h"}, has: []string{"Usage: urlget same A B\n"}},
		{args: []string{"extract", "--help"}, has: []string{"Usage: urlget extract [FILE|-]\n"}},
		{args: []string{"completion", "--help"}, has: []string{"Usage: urlget completion bash|zsh|fish\n"}},
		{args: []string{"man", "--help"}, has: []string{"Usage: urlget man\n"}},
		{args: []string{"help", "zork"}, code: 2, stderr: "urlget: help zork: no subcommand or scheme of that name"},
		{args: []string{"--help", "gophr"}, code: 2, stderr: "schemes: file, "},
		{args: []string{"--no-such-flag"}, code: 2, stderr: "unknown flag --no-such-flag"},
		{args: []string{"mirror", "--delete=maybe"}, code: 2, stderr: "--delete"},
		{args: []string{"completion"}, code: 2, stderr: "usage: urlget completion bash|zsh|fish"},
		{args: []string{"completion", "tcsh"}, code: 2, stderr: "want bash, zsh, fish"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			stdout, stderr, code := urlget(t, "", tc.args...)
			if code != tc.code || (tc.stderr == "" && stderr != "") || !strings.Contains(stderr, tc.stderr) {
				t.Fatalf("exit %d (want %d), stderr %q (want %q)", code, tc.code, stderr, tc.stderr)
			}
			if tc.code != 0 && stdout != "" {
				t.Errorf("a failure wrote stdout: %q", stdout)
			}
			hasAndNot(t, stdout, func(s string) bool { return strings.Contains(stdout, s) }, tc.has, tc.not)
		})
	}
}

// hasAndNot fails t for each of has that is not in got, and each of not
// that is; in says whether one is.
func hasAndNot(t *testing.T, got any, in func(string) bool, has, not []string) {
	t.Helper()
	for _, s := range has {
		if !in(s) {
			t.Errorf("lacks %q:\n%v", s, got)
		}
	}
	for _, s := range not {
		if in(s) {
			t.Errorf("has %q:\n%v", s, got)
		}
	}
}

// TestHelpListsWhatEachCommandTakes: a command's help shows each flag its
// parser accepts once, unless the command skips it (refuses it, or never
// reads it) or it is a scheme's option the command does not take; every
// name in skips, reads and aliases is a flag of its set, so that a renamed
// flag cannot leave a stale name behind.
func TestHelpListsWhatEachCommandTakes(t *testing.T) {
	for _, c := range commands() {
		fs, s := c.flagSet()
		if fs == nil {
			if c.parses {
				t.Errorf("%s: parses flags, and has no flag set", c.form())
			}
			continue
		}
		shown := map[string]int{}
		for _, sec := range c.sections(fs, s) {
			sec.flags.VisitAll(func(f *pflag.Flag) { shown[f.Name]++ })
		}
		fs.VisitAll(func(f *pflag.Flag) {
			switch {
			case shown[f.Name] > 1:
				t.Errorf("%s: --%s shown %d times", c.form(), f.Name, shown[f.Name])
			case shown[f.Name] == 0 && !slices.Contains(c.skips, f.Name) && !s.declared(f.Name):
				t.Errorf("%s: --%s neither shown nor skipped", c.form(), f.Name)
			}
		})
		for _, name := range slices.Concat(c.skips, c.reads, slices.Collect(maps.Keys(c.aliases))) {
			if fs.Lookup(name) == nil {
				t.Errorf("%s: names --%s, which it does not parse", c.form(), name)
			}
		}
		for _, name := range c.reads {
			if shown[name] != 1 {
				t.Errorf("%s: reads --%s and does not show it", c.form(), name)
			}
		}
	}
}

// TestLsSkipsWhatItRefuses: the flags ls's help leaves out as refused are
// refused by ls (checkLs), each with a message naming it.
func TestLsSkipsWhatItRefuses(t *testing.T) {
	ls, _ := commandNamed("ls")
	fs, _ := ls.flagSet()
	for _, name := range lsRefuses {
		args := []string{"ls", "--" + name}
		if fs.Lookup(name).Value.Type() != "bool" {
			args = append(args, "-")
		}
		_, stderr, code := urlget(t, "", append(args, "file:///")...)
		if code != 2 || !strings.Contains(stderr, "--"+name+" is not an ls flag") {
			t.Errorf("%v: exit %d, %q", args, code, stderr)
		}
	}
}

// TestUsageLinesNameEveryCommand: the usage lines, made from the command
// table, show every subcommand, and `urlget help`'s topics are the
// subcommands and the schemes.
func TestUsageLinesNameEveryCommand(t *testing.T) {
	lines := usageLines()
	for _, name := range subcommandNames() {
		if !strings.Contains(lines, " "+name) {
			t.Errorf("usage lines lack %s:\n%s", name, lines)
		}
	}
	for _, topic := range []string{"mirror", "completion", "gopher", "news", "https"} {
		if !isTopic(topic) {
			t.Errorf("%s is no help topic", topic)
		}
	}
}
