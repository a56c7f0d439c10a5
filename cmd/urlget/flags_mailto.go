package main

import (
	"os"

	"github.com/spf13/pflag"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes/mailto"
)

// mailtoFlags configure the mailto handler, which sends the message a
// mailto URL describes (body from body= or stdin). The SMTP AUTH login
// (-u, --netrc) and STARTTLS required (--ssl-reqd) come through the
// fetch Client's policy, as for every scheme.
type mailtoFlags struct {
	server string
	from   string
	dryRun bool
}

func (f *mailtoFlags) add(fs *pflag.FlagSet) {
	fs.StringVar(&f.server, "smtp-server", "", "mailto: submit mail through `HOST[:PORT]` (port 587; default: $URLGET_SMTP)")
	fs.StringVar(&f.from, "from", "", "mailto: sender `ADDRESS` (default: $URLGET_EMAIL, $EMAIL, else user@host)")
	fs.BoolVar(&f.dryRun, "dry-run", false, "mailto: print the message instead of sending it; mirror: print what would be fetched, skipped and deleted, and change nothing")
}

func (f *mailtoFlags) apply(cfg *fetch.Config) error {
	cfg.Mailto = &mailto.Handler{Server: f.server, From: f.from, DryRun: f.dryRun, Stdin: os.Stdin}
	return nil
}
