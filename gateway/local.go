package gateway

import (
	"context"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// withoutLocal returns a registry with r's schemes (nil: the zero
// Client's, fetch.NewRegistry's defaults) in which every scheme whose
// Caps are Local keeps its parser and Caps but has a handler that
// refuses. A gateway without AllowFile retrieves with it, so that
// nothing reads this machine's files, whichever way a retrieval comes to
// one: a URL asked for (serveURL refuses that first, with its own page),
// a redirect the caller's policy lets reach such a scheme, or a
// resolution that leads to one (an access method that names a path on
// this host, which a resolving scheme's handler may be allowed to use).
func withoutLocal(r *schemes.Registry) *schemes.Registry {
	if r == nil {
		r = fetch.DefaultRegistry()
	}
	return r.Map(func(s schemes.Scheme) schemes.Scheme {
		if s.Caps.Has(schemes.Local) && s.Handler != nil {
			s.Handler = refuseLocal{}
		}
		return s
	})
}

// refuseLocal is the handler of a Local scheme on a gateway that reads no
// local file: every call fails as KindSafety (403) before anything is
// opened. It implements every interface a Local scheme's Caps may claim.
type refuseLocal struct{}

var (
	_ schemes.Lister    = refuseLocal{}
	_ schemes.Stater    = refuseLocal{}
	_ schemes.Explainer = refuseLocal{}
)

func (refuseLocal) err(req *schemes.Request) error {
	return &schemes.Error{Scheme: req.URL.Generic().Scheme, Phase: "policy", Kind: schemes.KindSafety, Part: "scheme",
		Msg: "this gateway reads no file of the machine it runs on (it was not started allowing it)"}
}

func (h refuseLocal) Fetch(_ context.Context, req *schemes.Request) (*schemes.Response, error) {
	return nil, h.err(req)
}

func (h refuseLocal) List(_ context.Context, req *schemes.Request) (*schemes.Response, error) {
	return nil, h.err(req)
}

func (h refuseLocal) Stat(_ context.Context, req *schemes.Request) (*schemes.Response, error) {
	return nil, h.err(req)
}

func (h refuseLocal) Explain(req *schemes.Request) ([]string, error) { return nil, h.err(req) }
