package gateway

import (
	"strings"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// startView is what the start page says of the schemes: those the
// gateway retrieves, and those whose URLs it only shows as links (a
// session, a message to send).
type startView struct {
	Retrieves, Links []string
}

// startSchemes reads the start page's lists from r's declared base
// schemes (a TLS or draft variant goes with its base: https with http)
// and their capabilities, so that a scheme added to the list shows up
// here with no word of the gateway changed. A Local scheme is listed
// only when the gateway may read local files.
func startSchemes(r *schemes.Registry, allowFile bool) startView {
	if r == nil {
		r = fetch.DefaultRegistry()
	}
	var v startView
	for _, name := range r.Names() {
		n, ok := r.Declared(name)
		s, _ := r.Lookup(name)
		switch {
		case !ok || n.Of != "" || s.Handler == nil:
		case s.Caps&(schemes.Interactive|schemes.Sends) != 0:
			v.Links = append(v.Links, name)
		case s.Caps.Has(schemes.Retrieves) && (allowFile || !s.Caps.Has(schemes.Local)):
			v.Retrieves = append(v.Retrieves, name)
		}
	}
	return v
}

// joinNames lists names as a sentence does: "a, b and c".
func joinNames(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
