package main

import (
	"fmt"
	"io"
	"strings"
)

// fishHead is the fish script's fixed part: files are offered only where
// a flag or operand takes one, and __urlget_is tells which command the
// line is (its first word when that is a subcommand, else a retrieval).
const fishHead = `# fish completion for urlget, generated from its flags by: urlget completion fish
# Install: urlget completion fish > ~/.config/fish/completions/urlget.fish

complete -c urlget -f

function __urlget_is -a want -d 'is the command line urlget WANT (a subcommand, or "" for a retrieval)?'
    set -l words (commandline -opc)
    set -l sub ''
    if set -q words[2]; and contains -- $words[2] %s
        set sub $words[2]
    end
    test "$sub" = "$want"
end

function __urlget_after_help -d 'does the word before the cursor ask for help?'
    set -l words (commandline -opc)
    contains -- $words[-1] --help -h
end

`

// writeFish writes the fish completion script: a complete line per
// subcommand, flag and operand, each under the condition of its command.
func writeFish(w io.Writer, cmds []completed) {
	fmt.Fprintf(w, fishHead, subcommandWords())
	for _, c := range cmds[1:] {
		fmt.Fprintf(w, "complete -c urlget -n 'test (count (commandline -opc)) -eq 1' -a %s -d %s\n",
			fishQuote(c.c.name), fishQuote(c.c.about))
	}
	for _, c := range cmds {
		is := fishQuote("__urlget_is " + fishQuote(c.c.name))
		fmt.Fprintf(w, "\n# urlget %s\n", strings.TrimSpace(c.c.name+" "+c.c.args))
		for _, f := range append(c.flags, helpFlag) {
			line := "complete -c urlget -n " + is
			if f.short != "" {
				line += " -s " + fishQuote(f.short)
			}
			line += " -l " + f.long
			switch f.value {
			case fileValue:
				line += " -r -F"
			case dirValue:
				line += " -x -a '(__fish_complete_directories)'"
			case anyValue:
				line += " -x"
			}
			fmt.Fprintf(w, "%s -d %s\n", line, fishQuote(f.about))
		}
		if c.topicsAfterHelp() {
			fmt.Fprintf(w, "complete -c urlget -n %s -a %s\n",
				fishQuote("__urlget_is "+fishQuote(c.c.name)+"; and __urlget_after_help"), fishQuote(sortedTopics()))
		}
		switch {
		case c.operandWords() != nil:
			fmt.Fprintf(w, "complete -c urlget -n %s -a %s\n", is, fishQuote(strings.Join(c.operandWords(), " ")))
		case c.c.operands.files:
			fmt.Fprintf(w, "complete -c urlget -n %s -F\n", is)
		case c.c.operands.dirs:
			fmt.Fprintf(w, "complete -c urlget -n %s -a '(__fish_complete_directories)'\n", is)
		}
	}
}

// fishQuote is s as one single-quoted fish word (fish escapes only \
// and ' there).
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}
