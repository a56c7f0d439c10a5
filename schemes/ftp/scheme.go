package ftp

import "github.com/urlget/urlget/schemes"

// Schemes returns the schemes this package serves: ftp (port 21) and ftps,
// FTP over implicit TLS (port 990, see schemes.DefaultPort). Both parse the
// same url-path. There is no handler yet, so Handler is nil.
func Schemes() []schemes.Scheme {
	return []schemes.Scheme{
		{Name: "ftp", Parse: parseLocator},
		{Name: "ftps", Parse: parseLocator},
	}
}

// parseLocator adapts Parse to schemes.Scheme.Parse, which wants a Locator.
func parseLocator(u *schemes.URL) (schemes.Locator, error) {
	f, err := Parse(u)
	if err != nil {
		return nil, err
	}
	return f, nil
}
