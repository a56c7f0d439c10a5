package z3950

import "github.com/urlget/urlget/schemes"

// Schemes returns the two schemes this package serves, z39.50s (a
// session: its search's records listed) and z39.50r (one record
// retrieved), both on port 210, handled by h; a nil h means a Handler with
// default settings.
func Schemes(h *Handler) []schemes.Scheme {
	if h == nil {
		h = &Handler{}
	}
	return []schemes.Scheme{
		{Name: schemeSession, Parse: parseLocator, Handler: h, Caps: schemes.Retrieves | schemes.Lists},
		{Name: schemeRetrieval, Parse: parseLocator, Handler: h, Caps: schemes.Retrieves},
	}
}

// parseLocator adapts Parse to schemes.Scheme.Parse, which wants a Locator.
func parseLocator(u *schemes.URL) (schemes.Locator, error) {
	z, err := Parse(u)
	if err != nil {
		return nil, err
	}
	return z, nil
}
