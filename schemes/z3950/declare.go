package z3950

import (
	"slices"

	"github.com/urlget/urlget/schemes"
)

// DefaultPort is Z39.50's port (RFC 2056 §3: "defaults to 210").
const DefaultPort = 210

// declared are the schemes this package serves, with their ports: its
// Declaration's Names, and what Parse gives each URL as its default port
// (schemes.PortOf).
var declared = []schemes.Name{
	{Name: schemeSession, Port: DefaultPort},
	{Name: schemeRetrieval, Port: DefaultPort},
}

// Declaration declares z39.50s and z39.50r (RFC 2056, port 210). They have
// no options of their own: a search lists OptionMax records, else
// DefaultMax.
func Declaration() schemes.Declaration {
	return schemes.Declaration{
		Names: slices.Clone(declared),
		Uses:  []string{schemes.OptionMax},
		New: func(v schemes.Values) ([]schemes.Scheme, error) {
			return Schemes(&Handler{Max: v.Int(schemes.OptionMax), words: v.Words()}), nil
		},
	}
}
