package main

import (
	"fmt"
	"io"
	"strings"
)

// usageLines are the command's forms, the head of the retrieval's help
// and of a bare `urlget`.
func usageLines() string {
	var b strings.Builder
	for i, c := range commands() {
		switch {
		case c.joins:
			b.WriteString(" | " + strings.TrimSpace(c.name+" "+c.args))
			continue
		case i == 0:
			b.WriteString("Usage: ")
		default:
			b.WriteString("\n       ")
		}
		b.WriteString(c.form())
	}
	return b.String() + "\n"
}

// shortUsage is what a bare `urlget` prints: the forms and where the
// flags are, not the screens of every flag (as curl, which says "try
// 'curl --help'").
func shortUsage(w io.Writer) {
	fmt.Fprint(w, usageLines()+"Try 'urlget --help' for the flags, 'urlget SUBCOMMAND --help' for a subcommand's, 'urlget --help SCHEME' for a scheme's.\n")
}
