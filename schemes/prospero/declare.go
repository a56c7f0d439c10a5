package prospero

import "github.com/urlget/urlget/schemes"

// Declaration declares prospero (port 1525) and its one option.
func Declaration() schemes.Declaration {
	return schemes.Declaration{
		Names: []schemes.Name{{Name: "prospero", Port: 1525}},
		Options: []schemes.Option{
			{Name: "prospero-local", Kind: schemes.Bool, Schemes: []string{"prospero"},
				Help: "prospero: use the LOCAL access method (a file: URL) when the server is this host"},
		},
		New: func(v schemes.Values) ([]schemes.Scheme, error) {
			return Schemes(&Handler{Local: v.Bool("prospero-local"), words: v.Words()}), nil
		},
	}
}
