package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/pflag"
)

// completionShells are the shells `urlget completion` writes a script
// for, each by a generator of its own (completion_*.go).
func completionShells() []string { return []string{"bash", "zsh", "fish"} }

// runCompletion is `urlget completion bash|zsh|fish`: the shell's
// completion script, generated from the flags each command parses (the
// flags its --help lists), so that it never offers a flag the command
// refuses nor misses one added later.
func runCompletion(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		return usageError(stderr, "completion bash|zsh|fish")
	}
	write := map[string]func(io.Writer, []completed){"bash": writeBash, "zsh": writeZsh, "fish": writeFish}[args[0]]
	if write == nil {
		fmt.Fprintf(stderr, "urlget: completion %s: no script for that shell (want %s)\n", args[0], strings.Join(completionShells(), ", "))
		return 2
	}
	write(stdout, completionModel())
	return 0
}

// valueKind is what a flag's value is, for completing it.
type valueKind int

const (
	noValue   valueKind = iota // a switch
	anyValue                   // a value no shell can suggest (N, SECONDS, a URL)
	fileValue                  // a local file
	dirValue                   // a local directory
)

// completedFlag is a flag as the shells complete it.
type completedFlag struct {
	long, short string
	// about is the first clause of its help.
	about   string
	value   valueKind
	repeats bool
}

// completed is a command as the shells complete it.
type completed struct {
	c     *command
	flags []completedFlag
}

// completionModel is every command with the flags its help lists.
func completionModel() []completed {
	var out []completed
	for _, c := range commands() {
		cc := completed{c: c}
		for _, f := range c.flags() {
			cc.flags = append(cc.flags, completedFlagOf(f, c.name))
		}
		out = append(out, cc)
	}
	return out
}

// completedFlagOf is f as the command cmd's: its value's kind read from
// the name its help gives the value, "FILE" a file (-o, -i, --cacert,
// --form-json), "DIR" a directory (--output-dir).
func completedFlagOf(f *pflag.Flag, cmd string) completedFlag {
	name, help := pflag.UnquoteUsage(f)
	cf := completedFlag{long: f.Name, short: f.Shorthand, about: clauseFor(help, cmd), value: anyValue}
	typ := f.Value.Type()
	switch {
	case typ == "bool":
		cf.value = noValue
	case name == "FILE":
		cf.value = fileValue
	case name == "DIR":
		cf.value = dirValue
	}
	cf.repeats = strings.HasSuffix(typ, "Array") || strings.HasSuffix(typ, "Slice")
	return cf
}

// clauseFor is the clause of help ("; " apart) for a line beside a
// completion of the command cmd: the one that names it ("mirror: ..." of
// --dry-run, which mailto reads too), else the first.
func clauseFor(help, cmd string) string {
	clauses := strings.Split(help, "; ")
	if i := slices.IndexFunc(clauses, func(c string) bool { return cmd != "" && strings.HasPrefix(c, cmd+": ") }); i >= 0 {
		return clauses[i]
	}
	return clauses[0]
}

// spellings are the flag's spellings on a command line: "-o", "--output".
func (f completedFlag) spellings() []string {
	if f.short == "" {
		return []string{"--" + f.long}
	}
	return []string{"-" + f.short, "--" + f.long}
}

// words are the spellings of the flags (those of kind, or all for -1),
// space-separated, for a shell's word list.
func (c completed) words(kind valueKind) string {
	var w []string
	for _, f := range c.flags {
		if kind < 0 || f.value == kind {
			w = append(w, f.spellings()...)
		}
	}
	return strings.Join(w, " ")
}

// valued are the spellings of the flags that take a value.
func (c completed) valued() string {
	var w []string
	for _, f := range c.flags {
		if f.value != noValue {
			w = append(w, f.spellings()...)
		}
	}
	return strings.Join(w, " ")
}

// helpFlag is --help, which every command takes (pflag's, or
// asksHelp); the retrieval's takes a topic after it.
var helpFlag = completedFlag{long: "help", short: "h", about: "show the usage and flags"}

// topicsAfterHelp says whether a topic completes after the command's
// --help: only the retrieval's (urlget --help gopher).
func (c completed) topicsAfterHelp() bool { return c.c.name == "" }

// operandWords are the words an operand of c completes to.
func (c completed) operandWords() []string {
	if c.c.operands.words == nil {
		return nil
	}
	return c.c.operands.words()
}

// subcommandWords are the subcommand names, space-separated.
func subcommandWords() string { return strings.Join(subcommandNames(), " ") }

// sortedTopics are the help topics, as one space-separated word list.
func sortedTopics() string {
	t := slices.Clone(helpTopics())
	slices.Sort(t)
	return strings.Join(slices.Compact(t), " ")
}
