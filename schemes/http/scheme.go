package http

import (
	"net/http"

	"github.com/urlget/urlget/schemes"
)

// caps is what the http and https handler can do: retrieve, list (an HTML
// index page's links, see List, which a mirror crawls, keeping each page:
// Pages), describe (HEAD),
// resume (Range, If-Range) and ask only for a changed resource
// (If-Modified-Since). A server's redirect may lead here by default
// (RedirectTarget): a request is a method and a URL, which no server can
// shape into another protocol's commands. Its exchanges go through
// net/http's Transport, whose reader and writer goroutines a sequential
// run serves best on one processor (OneProcessor). GETs of the URLs a
// caller will ask for next go ahead on the connection (Pipelines, see
// pipeline.go), unless the Handler's Window is 1.
const caps = schemes.Retrieves | schemes.Lists | schemes.Stats | schemes.Resumes | schemes.Conditional | schemes.Crawls | schemes.RedirectTarget | schemes.Pages |
	schemes.Ranges | schemes.MultiRanges | schemes.OneProcessor

// submitting is what a handler that sends a body or another method than
// GET cannot do: its requests are for the URLs its caller names, so it
// neither lists nor crawls (a mirror or a gateway following a page's
// links would send them there; Pages goes with Lists), and the answer to
// a POST is no resource whose rest or part a range could bring; nor is
// a request that is not a GET sent ahead (Pipelines).
const submitting = schemes.Lists | schemes.Crawls | schemes.Pages | schemes.Resumes | schemes.Ranges | schemes.MultiRanges | schemes.Pipelines

// Schemes returns the http and https schemes, both served by h. With h nil
// they only parse. https is TLS from the start; http has no upgrade, so a
// Client that requires TLS refuses it. A Handler with a Body, or a
// Method other than GET, does not list, crawl or resume (submitting).
func Schemes(h *Handler) []schemes.Scheme {
	out := []schemes.Scheme{{Name: "http", Parse: parseLocator}, {Name: "https", Parse: parseLocator}}
	if h != nil {
		c := caps
		if h.window() > 1 {
			c |= schemes.Pipelines
		}
		if h.submits() {
			c &^= submitting
		}
		for i := range out {
			out[i].Handler = h // only when non-nil: a nil *Handler would be a non-nil interface
			out[i].Caps = c
		}
		out[1].Caps |= schemes.TLS
	}
	return out
}

// submits reports whether h sends a body or another method than GET.
func (h *Handler) submits() bool {
	return h.Body != nil || h.Method != "" && h.Method != http.MethodGet
}

func parseLocator(u *schemes.URL) (schemes.Locator, error) { return Parse(u) }
