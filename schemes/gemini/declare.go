package gemini

import (
	"crypto/tls"
	"fmt"
	"slices"

	"github.com/urlget/urlget/schemes"
)

// declared is the scheme this package serves, with its port (the Gemini
// specification's default, 1965): its Declaration's Names, and what Parse
// gives each URL as its default port (schemes.PortOf). Gemini is TLS from
// the start; there is no clear variant.
var declared = []schemes.Name{
	{Name: "gemini", TLS: true, Port: 1965, HostPrefixes: []string{"gemini."}},
}

// Declaration declares gemini with its options: the input a status 1x
// asks for (the option "search", which gopher declares too: one setting
// gives the words whichever of them asks), a client certificate to
// offer, and the known-hosts file that remembers servers' certificates.
func Declaration() schemes.Declaration {
	own := []string{"gemini"}
	return schemes.Declaration{
		Names: slices.Clone(declared),
		Options: []schemes.Option{
			{Name: "search", Kind: schemes.String, Schemes: own, OnlyNamed: true,
				Help: "gemini: the input sent as the query when the server asks for it (status 10/11) and the URL has none"},
			{Name: "cert", Short: "E", Kind: schemes.String, Schemes: own, OnlyNamed: true,
				Help: "gemini: offer the client certificate in PEM `FILE` (certificate and key) when the server asks for one (status 6x)"},
			{Name: "gemini-known-hosts", Kind: schemes.String, Schemes: own,
				Help: "gemini: remember servers' certificates (trust on first use) in `FILE`; default $XDG_CONFIG_HOME/urlget/gemini_known_hosts"},
		},
		New: newSchemes,
	}
}

// newSchemes builds the handler from the option values.
func newSchemes(v schemes.Values) ([]schemes.Scheme, error) {
	h := &Handler{KnownHosts: v.String("gemini-known-hosts"), words: v.Words()}
	if name := v.String("cert"); name != "" {
		cert, err := tls.LoadX509KeyPair(name, name)
		if err != nil {
			return nil, v.UsageError("cert", fmt.Sprintf("%s %s: want a PEM file with a certificate and its key: %v", v.Name("cert"), name, err), nil)
		}
		h.Cert = &cert
	}
	if v.Has("search") {
		s := v.String("search")
		h.Input = &s
	}
	return Schemes(h), nil
}

// Schemes returns gemini handled by h (nil: default settings). It
// retrieves and lists (text/gemini links), and its documents' links may
// lead anywhere on the server and back, so a mirror crawls them. A
// redirect may reach it: its request is the URL alone, over TLS from the
// first byte — but no other scheme's redirect reaches it by default (the
// house's rule, curl's: http, https, ftp and ftps): only its own 3x, to
// another gemini URL, which the fetch Client allows by default.
func Schemes(h *Handler) []schemes.Scheme {
	if h == nil {
		h = &Handler{}
	}
	caps := schemes.Retrieves | schemes.Lists | schemes.Crawls | schemes.TLS | schemes.RedirectsWithin
	return []schemes.Scheme{{Name: "gemini", Parse: parseLocator, Handler: h, Caps: caps}}
}

// parseLocator adapts Parse to schemes.Scheme.Parse.
func parseLocator(u *schemes.URL) (schemes.Locator, error) {
	g, err := Parse(u)
	if err != nil {
		return nil, err
	}
	return g, nil
}
