package finger

import "github.com/urlget/urlget/schemes"

// Schemes returns the scheme this package serves, finger (port 79),
// handled by h; a nil h means a Handler with default settings. It only
// retrieves: a reply is text with no links, and no server's redirect may
// lead to it (a query is a name on another service).
func Schemes(h *Handler) []schemes.Scheme {
	if h == nil {
		h = &Handler{}
	}
	return []schemes.Scheme{{Name: scheme, Parse: parseLocator, Handler: h, Caps: schemes.Retrieves}}
}

// parseLocator adapts Parse to schemes.Scheme.Parse, which wants a Locator
// (returning a nil *URL as a Locator would make a non-nil interface).
func parseLocator(u *schemes.URL) (schemes.Locator, error) {
	f, err := Parse(u)
	if err != nil {
		return nil, err
	}
	return f, nil
}
