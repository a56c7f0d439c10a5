package telnet

import (
	"fmt"
	"slices"

	"github.com/urlget/urlget/schemes"
)

// declared are the schemes this package serves, with their ports: its
// Declaration's Names, and what Parse gives each URL as its default port
// (schemes.PortOf).
var declared = []schemes.Name{
	{Name: "telnet", Port: 23},
	{Name: "rlogin", Of: "telnet", Port: 513},
	{Name: "tn3270", Of: "telnet", Port: 23},
}

// Declaration declares telnet (port 23) and, from the 1994 URI draft,
// rlogin (513) and tn3270 (23), which share its URLs' shape. A session
// runs on the process's standard streams, interactive when
// OptionTerminal says a person is there and stdin is a terminal.
func Declaration() schemes.Declaration {
	return schemes.Declaration{
		Names: slices.Clone(declared),
		Options: []schemes.Option{
			{Name: "login", Kind: schemes.Bool, Schemes: []string{"telnet"},
				Help: "telnet: type the URL's user and password (or -u's) at the login prompts"},
			{Name: "telnet-idle", Kind: schemes.Duration, Default: DefaultIdle, Schemes: []string{"telnet"},
				Help: "telnet: when stdin is not a terminal, end the session once stdin has ended and the server was silent for `SECONDS`"},
			{Name: "telnet-pace", Kind: schemes.Duration, Schemes: []string{"telnet"},
				Help: "telnet: send stdin a line at a time, each once the server has answered and paused for `SECONDS` (for login prompts that discard typed-ahead input; 0: stream)"},
		},
		Uses: []string{schemes.OptionTerminal},
		New:  newSchemes,
	}
}

// newSchemes builds the handler from the option values.
func newSchemes(v schemes.Values) ([]schemes.Scheme, error) {
	idle, pace := v.Duration("telnet-idle"), v.Duration("telnet-pace")
	if idle <= 0 {
		return nil, v.UsageError("telnet-idle", fmt.Sprintf("%s %v: want a positive number of seconds", v.Name("telnet-idle"), idle.Seconds()), nil)
	}
	if pace < 0 {
		return nil, v.UsageError("telnet-pace", fmt.Sprintf("%s %v: want 0 or a positive number of seconds", v.Name("telnet-pace"), pace.Seconds()), nil)
	}
	return Schemes(&Handler{Terminal: v.Bool(schemes.OptionTerminal), Login: v.Bool("login"), Idle: idle, Pace: pace,
		words: v.Words()}), nil
}
