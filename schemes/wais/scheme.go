package wais

import "github.com/urlget/urlget/schemes"

// Schemes returns the one scheme this package serves, wais (port 210).
// There is no handler yet, so Handler is nil.
func Schemes() []schemes.Scheme {
	return []schemes.Scheme{{Name: "wais", Parse: parseLocator}}
}

// parseLocator adapts Parse to schemes.Scheme.Parse, which wants a Locator.
func parseLocator(u *schemes.URL) (schemes.Locator, error) {
	w, err := Parse(u)
	if err != nil {
		return nil, err
	}
	return w, nil
}
