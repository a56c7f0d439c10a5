package gopher

import "github.com/urlget/urlget/schemes"

// Schemes returns the schemes this package serves: gopher (port 70) and
// gophers, gopher over TLS (its default port is schemes.DefaultPort's).
// Both parse the same gopher-path. There is no handler yet: Handler is nil.
func Schemes() []schemes.Scheme {
	return []schemes.Scheme{
		{Name: "gopher", Parse: parseLocator},
		{Name: "gophers", Parse: parseLocator},
	}
}

// parseLocator adapts Parse to schemes.Scheme.Parse, which wants a Locator.
func parseLocator(u *schemes.URL) (schemes.Locator, error) {
	g, err := Parse(u)
	if err != nil {
		return nil, err
	}
	return g, nil
}
