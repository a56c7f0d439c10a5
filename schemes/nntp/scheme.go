package nntp

import "github.com/urlget/urlget/schemes"

// Schemes returns the schemes this package serves: news (RFC 1738 §3.6),
// nntp (§3.7, port 119) and nntps (NNTP over TLS, port 563), all served by
// h; with h nil, by a Handler with default settings (news: then needs
// NNTPSERVER). Each retrieves articles and lists groups, over TLS when
// asked (nntps from the start, news and nntp with STARTTLS when
// Request.RequireTLS says so).
func Schemes(h *Handler) []schemes.Scheme {
	out := []schemes.Scheme{
		{Name: "news", Parse: parseNewsLocator},
		{Name: "nntp", Parse: parseLocator},
		{Name: "nntps", Parse: parseLocator},
	}
	if h == nil {
		h = &Handler{}
	}
	caps := schemes.Retrieves | schemes.Lists | schemes.TLS
	if h.window() > 1 {
		caps |= schemes.Pipelines
	}
	for i := range out {
		out[i].Handler, out[i].Caps = h, caps
	}
	return out
}

// parseLocator adapts Parse to schemes.Scheme.Parse, which wants a Locator
// (returning a nil *URL as a Locator would make a non-nil interface).
func parseLocator(u *schemes.URL) (schemes.Locator, error) {
	n, err := Parse(u)
	if err != nil {
		return nil, err
	}
	return n, nil
}

// parseNewsLocator adapts ParseNews the same way.
func parseNewsLocator(u *schemes.URL) (schemes.Locator, error) {
	n, err := ParseNews(u)
	if err != nil {
		return nil, err
	}
	return n, nil
}
