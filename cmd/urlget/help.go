package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/pflag"
	"github.com/urlget/urlget/schemes"
)

// helpShown is what a command line asks to see instead of a run: --help
// (fs and schemes: the flag set the command parses) or --version. The
// parser returns it as its error, and the command's caller writes it to
// stdout and exits 0 (flagsFailed), as curl, wget and lftp do: `urlget
// --help | grep proxy` finds the flag.
type helpShown struct {
	fs      *pflag.FlagSet
	schemes *schemeFlags
	version bool
}

func (*helpShown) Error() string { return "help requested" }

// flagsFailed ends a command whose flags did not parse into a run: the
// help or version asked for, on stdout (exit 0), else the error on
// stderr (exit 2). args are the command's, for a topic after --help
// (`urlget --help gopher`).
func flagsFailed(err error, c *command, args []string, stdout, stderr io.Writer) int {
	var h *helpShown
	switch {
	case !errors.As(err, &h):
		fmt.Fprintf(stderr, "urlget: %s\n", forPeople(err.Error()))
		return 2
	case h.version:
		fmt.Fprintln(stdout, "urlget", version)
		return 0
	}
	if topic, ok := topicAfterHelp(args); ok {
		return showTopic(topic, stdout, stderr)
	}
	c.writeHelp(stdout, h.fs, h.schemes)
	return 0
}

// topicAfterHelp is the word after the --help (or -h) of args that names
// a subcommand or a scheme, or a bare word meant to (a typo is told, not
// answered with every flag); after a URL (`urlget --help http://h/`) the
// command's own help is shown.
func topicAfterHelp(args []string) (string, bool) {
	for i, a := range args {
		if a == "--" {
			break
		}
		if (a == "--help" || a == "-h") && i+1 < len(args) {
			next := args[i+1]
			return next, isTopic(next) || (!strings.HasPrefix(next, "-") && !strings.ContainsAny(next, ":/."))
		}
	}
	return "", false
}

// asksHelp reports whether a subcommand's arguments hold -h or --help
// before a "--".
func asksHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "--help":
			return true
		}
	}
	return false
}

// writeHelp is the command's --help: its usage, what it does, and its
// flags by section (commands.go); the retrieval's starts with every
// form of the command and ends saying where the rest is.
func (c *command) writeHelp(w io.Writer, fs *pflag.FlagSet, s *schemeFlags) {
	if c.name == "" {
		fmt.Fprint(w, usageLines())
	} else {
		fmt.Fprintf(w, "Usage: %s\n", c.form())
	}
	fmt.Fprintf(w, "\n%s\n", c.about)
	writeSections(w, c.sections(fs, s))
	if c.name == "" {
		fmt.Fprint(w, "\n'urlget SUBCOMMAND --help' shows a subcommand's flags, 'urlget --help SCHEME' one scheme's.\n")
	}
}

// writeSections writes each section's title and its flags, as pflag
// lays them out.
func writeSections(w io.Writer, secs []section) {
	for _, sec := range secs {
		fmt.Fprintf(w, "\n%s:\n%s", sec.title, sec.flags.FlagUsages())
	}
}

// helpTopics are the words `urlget help` and --help take: the
// subcommands, then the schemes.
func helpTopics() []string {
	return append(subcommandNames(), urlRegistry().Names()...)
}

func isTopic(word string) bool { return slices.Contains(helpTopics(), word) }

// showTopic writes the help of a subcommand, or of a scheme's options.
func showTopic(topic string, stdout, stderr io.Writer) int {
	if c, ok := commandNamed(topic); ok && topic != "" {
		fs, s := c.flagSet()
		c.writeHelp(stdout, fs, s)
		return 0
	}
	if _, ok := urlRegistry().Lookup(topic); ok {
		writeSchemeHelp(stdout, topic)
		return 0
	}
	fmt.Fprintf(stderr, "urlget: help %s: no subcommand or scheme of that name (subcommands: %s; schemes: %s)\n",
		topic, strings.Join(subcommandNames(), ", "), strings.Join(urlRegistry().Names(), ", "))
	return 2
}

// writeSchemeHelp is `urlget --help SCHEME`: the options its declaration
// declares, and the retrieval's flags it reads as well (--max for news
// groups), from the retrieval's flag set.
func writeSchemeHelp(w io.Writer, scheme string) {
	retrieval, _ := commandNamed("")
	fs, s := retrieval.flagSet()
	var secs []section
	own := false
	if i := slices.IndexFunc(s.decls, func(d schemes.Declaration) bool { return d.Has(scheme) }); i >= 0 {
		d := s.decls[i]
		var sec section
		if sec, own = s.section(d, func(schemes.Caps, schemes.Option) bool { return true }); own {
			secs = append(secs, sec)
		}
		uses := newSection()
		for _, name := range d.Uses {
			if f := fs.Lookup(name); f != nil {
				uses.AddFlag(f)
			}
		}
		if uses.HasFlags() {
			secs = append(secs, section{"Flags of a retrieval that " + scheme + " URLs read too", uses})
		}
	}
	if !own {
		fmt.Fprintf(w, "%s URLs have no flags of their own.\n", scheme)
	}
	var b strings.Builder
	writeSections(&b, secs)
	text := b.String()
	if own {
		text = strings.TrimPrefix(text, "\n")
	}
	fmt.Fprint(w, text+"\n'urlget --help' lists every flag.\n")
}

// runHelp is `urlget help [SUBCOMMAND|SCHEME]`: --help, as a subcommand.
func runHelp(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	switch len(args) {
	case 0:
		retrieval, _ := commandNamed("")
		fs, s := retrieval.flagSet()
		retrieval.writeHelp(stdout, fs, s)
		return 0
	case 1:
		return showTopic(args[0], stdout, stderr)
	}
	return usageError(stderr, "help [SUBCOMMAND|SCHEME]")
}

// docCommands are the subcommands about urlget itself.
var docCommands = map[string]func(args []string, stdin io.Reader, stdout, stderr io.Writer) int{
	"help":       runHelp,
	"completion": runCompletion,
	"man":        runMan,
}

// plainSubcommand is the subcommand name that takes no flags: a URL
// tool (subcommands) or one about urlget (docCommands).
func plainSubcommand(name string) (func(args []string, stdin io.Reader, stdout, stderr io.Writer) int, bool) {
	if sub, ok := subcommands[name]; ok {
		return sub, true
	}
	sub, ok := docCommands[name]
	return sub, ok
}
