package fetch

import (
	"fmt"

	"github.com/urlget/urlget/schemes"
)

// hopOf is where r refers the client instead of carrying the resource:
// a server's redirect (Redirect) or a resolving scheme's resolution
// (Resolved.URL); "" when r carries it.
func hopOf(r *schemes.Response) string {
	if r.Redirect != "" {
		return r.Redirect
	}
	if r.Resolved != nil {
		return r.Resolved.URL
	}
	return ""
}

// kept returns r, which refers the client elsewhere (hopOf), to a caller
// that follows redirects itself (keepRedirects: the RoundTripper, whose
// http.Client decides), once the Client's redirect policy allows the hop
// (RedirectProtocols, Protocols, CheckRedirect): a server cannot use the
// caller's own following to reach what the Client would refuse, a local
// file among them. A resolution is held to the same rule, since the
// caller follows it as a redirect.
func (c *Client) kept(loc schemes.Locator, r *schemes.Response, hops int) (*Response, error) {
	next, err := c.Parse(hopOf(r))
	if err != nil {
		r.Close()
		return nil, &schemes.Error{Scheme: loc.Generic().Scheme, Phase: "redirect", Kind: schemes.KindProtocol,
			URL: loc.Redacted(), Code: r.Status, Msg: "server sent an unusable redirect", Err: err}
	}
	if err := c.checkRedirect(loc, next, hops); err != nil {
		r.Close()
		return nil, err
	}
	c.trace().Info(fmt.Sprintf("%s: refers to %s (returned, not followed)", loc.Redacted(), next.Redacted()))
	return &Response{Response: r, URL: loc}, nil
}
