package main

import (
	"fmt"
	"os"

	"github.com/spf13/pflag"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/schemes/telnet"
)

// telnetFlags configure the telnet handler. A telnet URL names a session,
// not a data object, so the handler gets the process's own streams: it
// reads what the user types from stdin and writes the session to stdout.
type telnetFlags struct {
	login bool
	idle  float64
}

func (f *telnetFlags) add(fs *pflag.FlagSet) {
	fs.BoolVar(&f.login, "login", false, "telnet: type the URL's user and password (or -u's) at the login prompts")
	fs.Float64Var(&f.idle, "telnet-idle", telnet.DefaultIdle.Seconds(),
		"telnet: when stdin is not a terminal, end the session once stdin has ended and the server was silent for `SECONDS`")
}

func (f *telnetFlags) apply(cfg *fetch.Config) error {
	if f.idle <= 0 {
		return &schemes.Error{Phase: "flags", Kind: schemes.KindUsage, Part: "telnet-idle",
			Msg: fmt.Sprintf("--telnet-idle %v: want a positive number of seconds", f.idle)}
	}
	cfg.Telnet = &telnet.Handler{
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		Terminal: true, // interactive when stdin is a terminal; the handler checks
		Login:    f.login,
		Idle:     seconds(f.idle),
	}
	return nil
}
