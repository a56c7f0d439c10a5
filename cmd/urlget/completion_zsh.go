package main

import (
	"fmt"
	"io"
	"strings"
)

// zshHead is the zsh script's fixed part: the subcommands to choose
// from at urlget's first word, then, past a subcommand, _arguments with
// that command's specs (zshSpecs).
const zshHead = `#compdef urlget
# zsh completion for urlget, generated from its flags by: urlget completion zsh
# Install: urlget completion zsh > ~/.zfunc/_urlget, with ~/.zfunc on $fpath
# before compinit runs (fpath=(~/.zfunc $fpath) in ~/.zshrc).

_urlget() {
    local -a subcommands
    subcommands=(
%s    )
    local sub=
    if (( CURRENT > 2 )) && (( ${subcommands[(I)${(b)words[2]}:*]} )); then
        sub=${words[2]}
        shift words
        (( CURRENT-- ))
    elif (( CURRENT == 2 )) && [[ $PREFIX != -* ]]; then
        _describe -t commands 'urlget subcommand' subcommands
        return
    fi
    case $sub in
`

// zshTail ends the function, and runs it when zsh autoloads the file
// from $fpath, or registers it when the file is sourced.
const zshTail = `    esac
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
    _urlget "$@"
else
    compdef _urlget urlget
fi
`

// writeZsh writes the zsh completion script.
func writeZsh(w io.Writer, cmds []completed) {
	var subs strings.Builder
	for _, c := range cmds[1:] {
		fmt.Fprintf(&subs, "        %s\n", shellQuote(c.c.name+":"+zshEscape(c.c.about, ":")))
	}
	fmt.Fprintf(w, zshHead, subs.String())
	for _, c := range cmds {
		fmt.Fprintf(w, "    (%s)\n        _arguments -s -S :", shellQuote(c.c.name))
		for _, spec := range zshSpecs(c) {
			fmt.Fprintf(w, " \\\n            %s", shellQuote(spec))
		}
		fmt.Fprint(w, "\n        ;;\n")
	}
	fmt.Fprint(w, zshTail)
}

// zshSpecs are c's _arguments specs: a flag's spellings exclude each
// other, unless it repeats ("*"); its value completes files, directories
// or nothing; then its operands.
func zshSpecs(c completed) []string {
	var specs []string
	for _, f := range append(c.flags, helpFlag) {
		about := "[" + zshEscape(f.about, "[]") + "]"
		arg := ""
		switch f.value {
		case fileValue:
			arg = ":" + f.long + ":_files"
		case dirValue:
			arg = ":" + f.long + ":_files -/"
		case anyValue:
			arg = ":" + f.long + ": "
		}
		if f.long == helpFlag.long && c.topicsAfterHelp() {
			arg = "::topic:(" + sortedTopics() + ")"
		}
		exclude := "(" + strings.Join(f.spellings(), " ") + ")"
		if f.repeats {
			exclude = "*"
		}
		for _, sp := range f.spellings() {
			if f.value != noValue && strings.HasPrefix(sp, "--") {
				sp += "=" // --flag=VALUE or --flag VALUE
			}
			specs = append(specs, exclude+sp+about+arg)
		}
	}
	switch {
	case c.operandWords() != nil:
		specs = append(specs, "1:"+c.c.args+":("+strings.Join(c.operandWords(), " ")+")")
	case c.c.operands.files:
		specs = append(specs, "*:file:_files")
	case c.c.operands.urls && c.c.operands.dirs:
		specs = append(specs, "1:URL: ", "2:directory:_files -/")
	case c.c.operands.urls:
		specs = append(specs, "*:URL: ")
	}
	return specs
}

// zshEscape backslashes the characters of special in s, and backslashes
// themselves.
func zshEscape(s, special string) string {
	var b strings.Builder
	for _, r := range s {
		if r == '\\' || strings.ContainsRune(special, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// shellQuote is s as one single-quoted word of a POSIX-like shell (bash,
// zsh).
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
