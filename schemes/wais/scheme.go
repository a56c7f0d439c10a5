package wais

import "github.com/urlget/urlget/schemes"

// Schemes returns the one scheme this package serves, wais (port 210),
// handled by h; a nil h means a Handler with default settings. It
// retrieves documents and lists searches.
func Schemes(h *Handler) []schemes.Scheme {
	if h == nil {
		h = &Handler{}
	}
	return []schemes.Scheme{{Name: "wais", Parse: parseLocator, Handler: h, Caps: schemes.Retrieves | schemes.Lists | schemes.Ranges}}
}

// parseLocator adapts Parse to schemes.Scheme.Parse, which wants a Locator.
func parseLocator(u *schemes.URL) (schemes.Locator, error) {
	w, err := Parse(u)
	if err != nil {
		return nil, err
	}
	return w, nil
}
