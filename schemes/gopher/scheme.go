package gopher

import "github.com/urlget/urlget/schemes"

// Schemes returns the schemes this package serves: gopher (port 70) and
// gophers, gopher over TLS (its default port is its Declaration's),
// both handled by h; a nil h means a Handler with default settings. Both
// retrieve and list (menus, search results, Gopher+ attributes); a menu's
// items may point anywhere, so a mirror crawls them. gophers is TLS from
// the start; gopher has no upgrade.
func Schemes(h *Handler) []schemes.Scheme {
	if h == nil {
		h = &Handler{}
	}
	caps := schemes.Retrieves | schemes.Lists | schemes.Crawls
	return []schemes.Scheme{
		{Name: "gopher", Parse: parseLocator, Handler: h, Caps: caps},
		{Name: "gophers", Parse: parseLocator, Handler: h, Caps: caps | schemes.TLS},
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
