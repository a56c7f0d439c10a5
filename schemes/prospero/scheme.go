package prospero

import "github.com/urlget/urlget/schemes"

// Schemes returns the scheme this package serves: prospero (RFC 1738
// §3.11, port 1525), handled by h; a nil h means a Handler with default
// settings. Fetch resolves (Response.Resolved), fetches PROSPERO-CONTENTS
// or lists a directory; List lists.
func Schemes(h *Handler) []schemes.Scheme {
	if h == nil {
		h = &Handler{}
	}
	return []schemes.Scheme{{Name: "prospero", Parse: parseLocator, Handler: h, Caps: schemes.Retrieves | schemes.Lists}}
}

// parseLocator adapts Parse to schemes.Scheme.Parse, which wants a Locator
// (returning a nil *URL as a Locator would make a non-nil interface).
func parseLocator(u *schemes.URL) (schemes.Locator, error) {
	p, err := Parse(u)
	if err != nil {
		return nil, err
	}
	return p, nil
}
