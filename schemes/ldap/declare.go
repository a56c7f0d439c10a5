package ldap

import (
	"slices"

	"github.com/urlget/urlget/schemes"
)

// The schemes this package serves.
const (
	schemeLDAP  = "ldap"
	schemeLDAPS = "ldaps"
)

// declared are the schemes this package serves, with their ports: its
// Declaration's Names, and what Parse gives each URL as its default port
// (schemes.PortOf). Ports 389 and 636 are on the transport's restricted
// list ("ldap", "ldaps"): declaring them as the schemes' own ports is
// what lets LDAP URLs reach them, and only them.
var declared = []schemes.Name{
	{Name: schemeLDAP, Port: 389, HostPrefixes: []string{"ldap."}},
	{Name: schemeLDAPS, Of: schemeLDAP, TLS: true, Port: 636},
}

// Declaration declares ldap (RFC 4516, port 389) and ldaps (LDAP over
// TLS from the start, port 636). They have no options of their own: the
// URL says what to search, -u or netrc the password to bind with.
func Declaration() schemes.Declaration {
	return schemes.Declaration{
		Names: slices.Clone(declared),
		New:   newSchemes,
	}
}

// newSchemes builds the handler.
func newSchemes(v schemes.Values) ([]schemes.Scheme, error) {
	return Schemes(&Handler{words: v.Words()}), nil
}

// caps: a search's entries are retrieved (as LDIF) and listed (each entry
// a URL of its own DN); the connection is TLS from the start (ldaps) or
// upgraded by StartTLS (RFC 4511 §4.14) when the caller requires TLS.
// No RedirectTarget: a search may bind with the caller's password, which
// a server's referral must not lead to another host unless the caller
// allows redirects to LDAP.
const caps = schemes.Retrieves | schemes.Lists | schemes.TLS

// Schemes returns ldap and ldaps served by h; nil h means default
// settings.
func Schemes(h *Handler) []schemes.Scheme {
	if h == nil {
		h = &Handler{}
	}
	return []schemes.Scheme{
		{Name: schemeLDAP, Parse: parseLocator, Handler: h, Caps: caps},
		{Name: schemeLDAPS, Parse: parseLocator, Handler: h, Caps: caps},
	}
}

// parseLocator adapts Parse to schemes.Scheme.Parse.
func parseLocator(u *schemes.URL) (schemes.Locator, error) {
	l, err := Parse(u)
	if err != nil {
		return nil, err
	}
	return l, nil
}
