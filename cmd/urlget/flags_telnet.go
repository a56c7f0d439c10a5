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
	pace  float64
}

func (f *telnetFlags) add(fs *pflag.FlagSet) {
	fs.BoolVar(&f.login, "login", false, "telnet: type the URL's user and password (or -u's) at the login prompts")
	fs.Float64Var(&f.idle, "telnet-idle", telnet.DefaultIdle.Seconds(),
		"telnet: when stdin is not a terminal, end the session once stdin has ended and the server was silent for `SECONDS`")
	fs.Float64Var(&f.pace, "telnet-pace", 0,
		"telnet: send stdin a line at a time, each once the server has answered and paused for `SECONDS` (for login prompts that discard typed-ahead input; 0: stream)")
}

func (f *telnetFlags) apply(cfg *fetch.Config) error {
	if f.idle <= 0 {
		return &schemes.Error{Phase: "flags", Kind: schemes.KindUsage, Part: "telnet-idle",
			Msg: fmt.Sprintf("--telnet-idle %v: want a positive number of seconds", f.idle)}
	}
	if f.pace < 0 {
		return &schemes.Error{Phase: "flags", Kind: schemes.KindUsage, Part: "telnet-pace",
			Msg: fmt.Sprintf("--telnet-pace %v: want 0 or a positive number of seconds", f.pace)}
	}
	cfg.Telnet = &telnet.Handler{
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		Terminal: true, // interactive when stdin is a terminal; the handler checks
		Login:    f.login,
		Idle:     seconds(f.idle),
		Pace:     seconds(f.pace),
	}
	return nil
}
