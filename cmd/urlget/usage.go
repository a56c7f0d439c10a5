package main

import (
	"fmt"
	"io"
	"slices"

	"github.com/spf13/pflag"
)

// usageLines are the command's forms, the head of every usage text.
const usageLines = `Usage: urlget [flags] URL...
       urlget ls [-l] [--json] [flags] URL...
       urlget mirror [flags] URL DIR
       urlget serve [--listen ADDR] [--allow-file] [flags]
       urlget parse URL | canon URL | same A B | resolve BASE REF | extract [FILE|-]
`

// shortUsage is what a bare `urlget` prints: the forms and where the
// flags are, not the screens of every flag (as curl, which says "try
// 'curl --help'").
func shortUsage(w io.Writer) {
	fmt.Fprint(w, usageLines+"Try 'urlget --help' for the flags, 'urlget mirror --help' and 'urlget serve --help' for theirs.\n")
}

// usage is --help: every flag of a retrieval, the general ones first,
// then a section for each scheme's declared options; for a subcommand's
// --help (m set) the subcommand's own.
func usage(w io.Writer, fs *pflag.FlagSet, s *schemeFlags, m subcommandFlags) {
	if m == nil {
		fmt.Fprint(w, usageLines+"\n")
		general := pflag.NewFlagSet("general", pflag.ContinueOnError)
		fs.VisitAll(func(f *pflag.Flag) {
			if !s.declared(f.Name) {
				general.AddFlag(f)
			}
		})
		fmt.Fprint(w, general.FlagUsages())
		s.usage(w)
		return
	}
	m.usage(w, fs)
}

// subcommandUsage writes the help of a subcommand whose own flags own
// adds: the form, its own flags first, then, under sharedTitle, the
// retrieval flags it takes too (connections, logins, timeouts), without
// those it refuses (retrievalOnly).
func subcommandUsage(w io.Writer, fs *pflag.FlagSet, form, ownTitle, sharedTitle string, own func(*pflag.FlagSet)) {
	ownFS := pflag.NewFlagSet("own", pflag.ContinueOnError)
	own(ownFS)
	shared := pflag.NewFlagSet("shared", pflag.ContinueOnError)
	fs.VisitAll(func(f *pflag.Flag) {
		if ownFS.Lookup(f.Name) == nil && !slices.Contains(retrievalOnly, f.Name) {
			shared.AddFlag(f)
		}
	})
	fmt.Fprintf(w, "Usage: %s\n\n%s:\n", form, ownTitle)
	fmt.Fprint(w, ownFS.FlagUsages())
	fmt.Fprintf(w, "\n%s:\n", sharedTitle)
	fmt.Fprint(w, shared.FlagUsages())
}
