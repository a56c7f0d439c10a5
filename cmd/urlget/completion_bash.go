package main

import (
	"fmt"
	"io"
	"strings"
)

// bashHead is the bash script's fixed part: it finds the subcommand
// (urlget's first word, when it is one), then completes a flag's value,
// a flag, or an operand from the lists _urlget_lists sets for it.
const bashHead = `# bash completion for urlget, generated from its flags by: urlget completion bash
# Load it in this shell:  source <(urlget completion bash)
# or in every new one:    urlget completion bash > ~/.local/share/bash-completion/completions/urlget

_urlget() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=
    (( COMP_CWORD > 0 )) && prev=${COMP_WORDS[COMP_CWORD-1]}
    # --flag=VALUE: bash splits the word at "=".
    if [[ $cur == = ]]; then
        cur=
    elif [[ $prev == = ]] && (( COMP_CWORD > 1 )); then
        prev=${COMP_WORDS[COMP_CWORD-2]}
    fi
    local sub=
    if (( COMP_CWORD > 1 )) && [[ " %[1]s " == *" ${COMP_WORDS[1]} "* ]]; then
        sub=${COMP_WORDS[1]}
    fi
    if (( COMP_CWORD == 1 )) && [[ $cur != -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "%[1]s" -- "$cur")
        return
    fi
    local flags= files= dirs= valued= operands= operandfiles= operanddirs= topics=
    _urlget_lists "$sub"
    if [[ -n $topics && ( $prev == --help || $prev == -h ) && $cur != -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$topics" -- "$cur")
    elif [[ " $files " == *" $prev "* ]] && [[ -n $prev ]]; then
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    elif [[ " $dirs " == *" $prev "* ]] && [[ -n $prev ]]; then
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -d -- "$cur")
    elif [[ " $valued " == *" $prev "* ]] && [[ -n $prev ]]; then
        COMPREPLY=()
    elif [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$flags" -- "$cur")
    elif [[ -n $operands ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$operands" -- "$cur")
    elif [[ -n $operandfiles ]]; then
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    elif [[ -n $operanddirs ]]; then
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -d -- "$cur")
    else
        COMPREPLY=()
    fi
}

# _urlget_lists sets, for the subcommand $1 ("" for a retrieval), its
# flags, those whose value is a file, a directory or anything else, and
# what its operands complete to.
_urlget_lists() {
    case $1 in
`

// bashTail registers the function.
const bashTail = `    esac
}

complete -F _urlget urlget
`

// writeBash writes the bash completion script: bashHead, a case arm of
// lists per command, bashTail.
func writeBash(w io.Writer, cmds []completed) {
	fmt.Fprintf(w, bashHead, subcommandWords())
	for _, c := range cmds {
		fmt.Fprintf(w, "    %s)\n", shellQuote(c.c.name))
		lists := []struct{ name, words string }{
			{"flags", strings.TrimSpace(c.words(-1) + " " + strings.Join(helpFlag.spellings(), " "))},
			{"files", c.words(fileValue)},
			{"dirs", c.words(dirValue)},
			{"valued", c.valued()},
			{"operands", strings.Join(c.operandWords(), " ")},
		}
		if c.topicsAfterHelp() {
			lists = append(lists, struct{ name, words string }{"topics", sortedTopics()})
		}
		if c.c.operands.files {
			lists = append(lists, struct{ name, words string }{"operandfiles", "1"})
		}
		if c.c.operands.dirs {
			lists = append(lists, struct{ name, words string }{"operanddirs", "1"})
		}
		for _, l := range lists {
			if l.words != "" {
				fmt.Fprintf(w, "        %s=%s\n", l.name, shellQuote(l.words))
			}
		}
		fmt.Fprint(w, "        ;;\n")
	}
	fmt.Fprint(w, bashTail)
}
