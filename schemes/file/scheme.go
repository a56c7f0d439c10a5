package file

import "github.com/urlget/urlget/schemes"

// caps is what the file handler can do. Local keeps every server's
// redirect away from it.
const caps = schemes.Retrieves | schemes.Lists | schemes.Stats | schemes.Resumes | schemes.Local | schemes.Ranges

// Schemes returns the file scheme. With h nil the scheme only parses.
func Schemes(h *Handler) []schemes.Scheme {
	s := schemes.Scheme{Name: "file", Parse: parseLocator}
	if h != nil {
		s.Handler = h // only when non-nil: a nil *Handler would be a non-nil interface
		s.Caps = caps
	}
	return []schemes.Scheme{s}
}

func parseLocator(u *schemes.URL) (schemes.Locator, error) { return Parse(u) }
