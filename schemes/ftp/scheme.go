package ftp

import "github.com/urlget/urlget/schemes"

// caps is what the Handler does for both schemes: it retrieves files and
// listings, lists any URL as a directory, describes a file without
// retrieving it (Stat), resumes binary transfers with REST, and protects
// its connections with TLS (ftps from the start, ftp with AUTH TLS when
// Request.RequireTLS or ExplicitTLS asks). A server's redirect may lead
// here by default (RedirectTarget, as curl allows): every command is one
// line whose parts were checked for line breaks.
const caps = schemes.Retrieves | schemes.Lists | schemes.Stats | schemes.Resumes | schemes.TLS | schemes.RedirectTarget | schemes.Ranges

// Schemes returns the schemes this package serves, both through h: ftp
// (port 21) and ftps, FTP over implicit TLS (port 990, see
// Declaration). A nil h means a Handler with default settings, so
// that ftp: URLs work with no configuration.
func Schemes(h *Handler) []schemes.Scheme {
	if h == nil {
		h = &Handler{}
	}
	c := caps
	if !h.NoPipeline {
		c |= schemes.Pipelines // the next file's EPSV goes with RETR
	}
	return []schemes.Scheme{
		{Name: "ftp", Parse: parseLocator, Handler: h, Caps: c},
		{Name: "ftps", Parse: parseLocator, Handler: h, Caps: c},
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
