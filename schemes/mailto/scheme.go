package mailto

import "github.com/urlget/urlget/schemes"

// Schemes returns the scheme this package serves: mailto (RFC 1738 §3.5,
// RFC 6068), handled by h; a nil h means a Handler with defaults (server
// from $URLGET_SMTP, body from stdin). It Sends: a mailto URL names a
// mailbox, not something to retrieve, and no server's redirect may lead
// to it; and it speaks TLS (SMTP STARTTLS, required when
// Request.RequireTLS says so).
func Schemes(h *Handler) []schemes.Scheme {
	if h == nil {
		h = &Handler{}
	}
	return []schemes.Scheme{{Name: "mailto", Parse: parseLocator, Handler: h, Caps: schemes.Sends | schemes.TLS}}
}

// parseLocator adapts Parse to schemes.Scheme.Parse, which wants a Locator
// (returning a nil *URL as a Locator would make a non-nil interface).
func parseLocator(u *schemes.URL) (schemes.Locator, error) {
	m, err := Parse(u)
	if err != nil {
		return nil, err
	}
	return m, nil
}
