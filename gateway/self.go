package gateway

import (
	"errors"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// errSelf is why a retrieval that leads back to the gateway stops.
var errSelf = errors.New("this leads back to the gateway itself")

// isSelf reports whether loc is one of the gateway's own addresses. The
// gateway reached through itself would hold a slot of MaxUpstream at each
// level while it waits for the next, so that an address (or a chain of
// redirects) nested that deep would stop every other request.
func (s *Server) isSelf(loc schemes.Locator) bool {
	g := loc.Generic()
	return g.Authority && s.hosts[strings.ToLower(g.HostPort())]
}

// refuseSelf is the gateway's redirect check: a redirect to the gateway's
// own address is refused (a server can send one as easily as a person can
// type it), and every other goes to next, the caller's own check.
func (s *Server) refuseSelf(next func(from, to schemes.Locator, hops int) error) func(from, to schemes.Locator, hops int) error {
	return func(from, to schemes.Locator, hops int) error {
		if s.isSelf(to) {
			return &schemes.Error{Scheme: to.Generic().Scheme, Phase: "redirect", Kind: schemes.KindSafety, Msg: "refused a redirect to " + to.Redacted(), Err: errSelf}
		}
		if next != nil {
			return next(from, to, hops)
		}
		return nil
	}
}
