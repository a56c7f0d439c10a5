package mailto

import "github.com/urlget/urlget/schemes"

// Schemes returns the scheme this package serves: mailto (RFC 1738 §3.5,
// RFC 6068). There is no handler yet, so Handler is nil.
func Schemes() []schemes.Scheme {
	return []schemes.Scheme{{Name: "mailto", Parse: parseLocator}}
}

// parseLocator adapts Parse to schemes.Scheme.Parse, which wants a Locator
// (returning a nil *URL as a Locator would make a non-nil interface).
func parseLocator(u *schemes.URL) (schemes.Locator, error) {
	m, err := Parse(u)
	if err != nil {
		return nil, err
	}
	return m, nil
}
