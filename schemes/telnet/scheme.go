package telnet

import "github.com/urlget/urlget/schemes"

// Schemes returns the schemes this package serves: telnet (RFC 1738 §3.8,
// port 23) and, from the 1994 URI draft, rlogin (port 513) and tn3270
// (port 23). All three parse the same way; h runs telnet sessions and
// refuses rlogin and tn3270 with a hint (exit 8). A nil h means a Handler
// with defaults (the process's standard streams, scripted mode). All
// three are Interactive, rlogin and tn3270 too: what their URLs name is a
// session, so no server's redirect may lead to them, whatever urlget can
// do with them today.
func Schemes(h *Handler) []schemes.Scheme {
	if h == nil {
		h = &Handler{}
	}
	return []schemes.Scheme{
		{Name: "telnet", Parse: parseLocator, Handler: h, Caps: schemes.Interactive},
		{Name: "rlogin", Parse: parseLocator, Handler: h, Caps: schemes.Interactive},
		{Name: "tn3270", Parse: parseLocator, Handler: h, Caps: schemes.Interactive},
	}
}

// parseLocator adapts Parse to schemes.Scheme.Parse, which wants a Locator
// (returning a nil *URL as a Locator would make a non-nil interface).
func parseLocator(u *schemes.URL) (schemes.Locator, error) {
	t, err := Parse(u)
	if err != nil {
		return nil, err
	}
	return t, nil
}
