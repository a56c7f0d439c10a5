package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// netrcFlags say whether logins come from a netrc file, with curl's
// meaning: --netrc reads ~/.netrc and fails when it cannot, --netrc-optional
// reads it when it is there, --netrc-file names another file (read as
// --netrc does, or as --netrc-optional with it). Without them no netrc is
// read, for any scheme.
type netrcFlags struct {
	use      bool
	optional bool
	file     string
}

func (f *netrcFlags) add(fs *pflag.FlagSet) {
	fs.BoolVarP(&f.use, "netrc", "n", false,
		"take logins for URLs that carry none from ~/.netrc (ftp, http, nntp, smtp), for the URL's own host only, as -u; an unreadable file is an error")
	fs.BoolVar(&f.optional, "netrc-optional", false, "like --netrc, but a missing or unreadable netrc is skipped")
	fs.StringVar(&f.file, "netrc-file", "", "like --netrc, reading `FILE` instead of ~/.netrc")
}

// load reads the netrc the flags ask for: nil when none is asked for, or
// when --netrc-optional's file cannot be read (note says why, unless it
// is missing, which is what optional means).
func (f *netrcFlags) load(note func(string)) (*fetch.Netrc, error) {
	if f.use && f.optional {
		return nil, &schemes.Error{Phase: "flags", Kind: schemes.KindUsage, Part: "netrc",
			Msg: "--netrc and --netrc-optional: give one of them"}
	}
	if !f.use && !f.optional && f.file == "" {
		return nil, nil
	}
	flag, name := "--netrc", f.file
	if f.optional {
		flag = "--netrc-optional"
	}
	if name == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			if f.optional {
				return nil, nil
			}
			return nil, &schemes.Error{Phase: "flags", Kind: schemes.KindUsage, Part: "netrc",
				Msg: flag + ": no home directory to find .netrc in", Err: err}
		}
		name = filepath.Join(home, ".netrc")
	} else {
		flag = "--netrc-file"
	}
	n, err := fetch.ReadNetrc(name)
	switch {
	case err == nil:
		return n, nil
	case f.optional && errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case f.optional:
		note("--netrc-optional: " + err.Error() + "; logins are not taken from it")
		return nil, nil
	}
	return nil, &schemes.Error{Phase: "flags", Kind: schemes.KindUsage, Part: "netrc", Msg: flag, Err: err}
}

// credentials gives c the user's logins for URLs that carry none: -u's,
// then the netrc's. The Client's policy decides where they go: only to the
// scheme, host and port of the URL given, unless --location-trusted.
func (o *options) credentials(c *fetch.Client) error {
	if o.user != "" {
		user, pass, _ := strings.Cut(o.user, ":")
		if c.Trace != nil && pass != "" {
			c.Trace.Secret(pass)
		}
		c.Credentials = func(string, string, int) (string, string, bool) { return user, pass, true }
	}
	note := func(string) {}
	if c.Notify != nil {
		note = c.Notify
	}
	n, err := o.netrc.load(note)
	if err != nil {
		return err
	}
	c.Netrc = n
	return nil
}
