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
       urlget parse URL | canon URL | same A B | resolve BASE REF | extract [FILE|-]
`

// shortUsage is what a bare `urlget` prints: the forms and where the
// flags are, not the screens of every flag (as curl, which says "try
// 'curl --help'").
func shortUsage(w io.Writer) {
	fmt.Fprint(w, usageLines+"Try 'urlget --help' for the flags, 'urlget mirror --help' for the mirror's.\n")
}

// usage is --help: every flag of a retrieval; for `urlget mirror --help`
// (m set) the mirror's own flags first, then the retrieval flags a mirror
// takes too (connections, logins, timeouts), without those it refuses.
func usage(w io.Writer, fs *pflag.FlagSet, m *mirrorFlags) {
	if m == nil {
		fmt.Fprint(w, usageLines+"\n")
		fs.PrintDefaults()
		return
	}
	own := pflag.NewFlagSet("mirror", pflag.ContinueOnError)
	(&mirrorFlags{}).add(own)
	shared := pflag.NewFlagSet("shared", pflag.ContinueOnError)
	fs.VisitAll(func(f *pflag.Flag) {
		if own.Lookup(f.Name) == nil && !slices.Contains(retrievalOnly, f.Name) {
			shared.AddFlag(f)
		}
	})
	fmt.Fprint(w, "Usage: urlget mirror [flags] URL DIR\n\nMirror flags:\n")
	fmt.Fprint(w, own.FlagUsages())
	fmt.Fprint(w, "\nFlags of a retrieval that apply to a mirror's listings and transfers:\n")
	fmt.Fprint(w, shared.FlagUsages())
}
