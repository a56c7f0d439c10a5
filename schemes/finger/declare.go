package finger

import (
	"fmt"
	"slices"

	"github.com/urlget/urlget/schemes"
)

// scheme is the one scheme this package serves.
const scheme = "finger"

// declared are the schemes this package serves, with their ports: its
// Declaration's Names, and what Parse gives each URL as its default port
// (schemes.PortOf). Port 79 is on the browsers' restricted list; declaring
// it lets finger, and only finger, use it.
var declared = []schemes.Name{
	{Name: scheme, Port: DefaultPort, HostPrefixes: []string{"finger."}},
}

// Option names of the declaration.
const (
	optForward = "finger-forward"
	optMax     = "finger-max"
)

// Declaration declares finger (RFC 1288, port 79) with its options: the
// forwarding a query may ask for ("user@host2"), refused unless the person
// asks for it, and the most bytes a reply may have.
func Declaration() schemes.Declaration {
	return schemes.Declaration{
		Names: slices.Clone(declared),
		Options: []schemes.Option{
			// OnlyNamed: forwarding is for the URLs a person names; a
			// finger URL found in a page or menu (the gateway, a mirror)
			// never makes a server connect elsewhere.
			{Name: optForward, Kind: schemes.Bool, Schemes: []string{scheme}, OnlyNamed: true,
				Help: "finger: send a query that asks the server to pass it on (user@host2, RFC 1288 §2.5.1), which is refused otherwise"},
			{Name: optMax, Kind: schemes.Int, Default: DefaultMax, Schemes: []string{scheme},
				Help: "finger: fail a reply longer than `BYTES`"},
		},
		New: newSchemes,
	}
}

// newSchemes builds the handler from the option values.
func newSchemes(v schemes.Values) ([]schemes.Scheme, error) {
	n := v.Int(optMax)
	if n <= 0 {
		return nil, v.UsageError(optMax, fmt.Sprintf("%s %d: want a positive number of bytes", v.Name(optMax), n), nil)
	}
	return Schemes(&Handler{Forward: v.Bool(optForward), Max: int64(n), words: v.Words()}), nil
}
