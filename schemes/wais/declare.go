package wais

import "github.com/urlget/urlget/schemes"

// Declaration declares wais (port 210). It has no options of its own: a
// search asks for OptionMax hits, else DefaultMax.
func Declaration() schemes.Declaration {
	return schemes.Declaration{
		Names: []schemes.Name{{Name: "wais", Port: 210}},
		Uses:  []string{schemes.OptionMax},
		New: func(v schemes.Values) ([]schemes.Scheme, error) {
			return Schemes(&Handler{Max: v.Int(schemes.OptionMax), words: v.Words()}), nil
		},
	}
}
