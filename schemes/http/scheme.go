package http

import "github.com/urlget/urlget/schemes"

// caps is what the http and https handler can do: retrieve, list (an HTML
// index page's links, see List, which a mirror crawls, keeping each page:
// Pages), describe (HEAD),
// resume (Range, If-Range) and ask only for a changed resource
// (If-Modified-Since). A server's redirect may lead here by default
// (RedirectTarget): a request is a method and a URL, which no server can
// shape into another protocol's commands.
const caps = schemes.Retrieves | schemes.Lists | schemes.Stats | schemes.Resumes | schemes.Conditional | schemes.Crawls | schemes.RedirectTarget | schemes.Pages

// Schemes returns the http and https schemes, both served by h. With h nil
// they only parse. https is TLS from the start; http has no upgrade, so a
// Client that requires TLS refuses it.
func Schemes(h *Handler) []schemes.Scheme {
	out := []schemes.Scheme{{Name: "http", Parse: parseLocator}, {Name: "https", Parse: parseLocator}}
	if h != nil {
		for i := range out {
			out[i].Handler = h // only when non-nil: a nil *Handler would be a non-nil interface
			out[i].Caps = caps
		}
		out[1].Caps |= schemes.TLS
	}
	return out
}

func parseLocator(u *schemes.URL) (schemes.Locator, error) { return Parse(u) }
