package telnet

import "github.com/urlget/urlget/schemes"

// Schemes returns the schemes this package serves: telnet (RFC 1738 §3.8,
// port 23) and, from the 1994 URI draft, rlogin (port 513) and tn3270
// (port 23). All three parse the same way. There is no handler yet, so
// Handler is nil; a later handler will only advise the user (rlogin and
// tn3270 with a hint that they are unsupported).
func Schemes() []schemes.Scheme {
	return []schemes.Scheme{
		{Name: "telnet", Parse: parseLocator},
		{Name: "rlogin", Parse: parseLocator},
		{Name: "tn3270", Parse: parseLocator},
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
