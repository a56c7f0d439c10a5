package mailto

import "github.com/urlget/urlget/schemes"

// Declaration declares mailto (RFC 6068: mailto:addr, no "//"). Its
// submission ports (25, 465, 587) are SMTP's, which the port policy lets
// it use. The body comes from body= or the process's stdin.
func Declaration() schemes.Declaration {
	return schemes.Declaration{
		Names: []schemes.Name{{Name: "mailto", OwnPorts: []int{25, 465, 587}, Opaque: true}},
		Options: []schemes.Option{
			{Name: "smtp-server", Kind: schemes.String, Schemes: []string{"mailto"},
				Help: "mailto: submit mail through `HOST[:PORT]` (port 587; default: $URLGET_SMTP)"},
			{Name: "from", Kind: schemes.String, Schemes: []string{"mailto"},
				Help: "mailto: sender `ADDRESS` (default: $URLGET_EMAIL, $EMAIL, else user@host)"},
			{Name: "dry-run", Kind: schemes.Bool, Schemes: []string{"mailto"},
				Help: "mailto: print the message instead of sending it; mirror: print what would be fetched and deleted and count the rest (-v lists it), and change nothing"},
		},
		New: func(v schemes.Values) ([]schemes.Scheme, error) {
			return Schemes(&Handler{Server: v.String("smtp-server"), From: v.String("from"), DryRun: v.Bool("dry-run"),
				words: v.Words()}), nil
		},
	}
}
