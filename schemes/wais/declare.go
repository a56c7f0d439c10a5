package wais

import (
	"slices"

	"github.com/urlget/urlget/schemes"
)

// declared are the schemes this package serves, with their ports: its
// Declaration's Names, and what Parse gives each URL as its default port
// (schemes.PortOf).
var declared = []schemes.Name{{Name: "wais", Port: 210}}

// Declaration declares wais (port 210). It has no options of its own: a
// search asks for OptionMax hits, else DefaultMax.
func Declaration() schemes.Declaration {
	return schemes.Declaration{
		Names: slices.Clone(declared),
		Uses:  []string{schemes.OptionMax},
		New: func(v schemes.Values) ([]schemes.Scheme, error) {
			return Schemes(&Handler{Max: v.Int(schemes.OptionMax), words: v.Words()}), nil
		},
	}
}
