package prospero

import (
	"slices"

	"github.com/urlget/urlget/schemes"
)

// declared are the schemes this package serves, with their ports: its
// Declaration's Names, and what Parse gives each URL as its default port
// (schemes.PortOf).
var declared = []schemes.Name{{Name: "prospero", Port: 1525}}

// Declaration declares prospero (port 1525) and its one option.
func Declaration() schemes.Declaration {
	return schemes.Declaration{
		Names: slices.Clone(declared),
		Options: []schemes.Option{
			{Name: "prospero-local", Kind: schemes.Bool, Schemes: []string{"prospero"},
				Help: "prospero: use the LOCAL access method (a file: URL) when the server is this host"},
		},
		New: func(v schemes.Values) ([]schemes.Scheme, error) {
			return Schemes(&Handler{Local: v.Bool("prospero-local"), words: v.Words()}), nil
		},
	}
}
