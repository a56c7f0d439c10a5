// Package fetch is urlget's public library: a Client that retrieves any URL
// of RFC 1738 by handing it to its scheme's handler, and applies the policy
// that handlers leave to their caller — following redirects and referrals,
// retrying what may succeed on a second try, resuming, and writing files so
// that nothing is left half-written on failure.
//
// The split follows net/http: handlers (like http.Transport) carry out one
// access algorithm on connections; the Client (like http.Client) decides
// what to do with the outcome.
package fetch

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// DefaultMaxRedirects is how many redirects or referrals a Client follows
// when MaxRedirects is zero.
const DefaultMaxRedirects = 10

// Client retrieves URLs. The zero value is usable: it parses with
// NewRegistry's schemes, dials with a transport.Dialer with default
// timeouts and proxies from the environment, follows up to 10 redirects and
// does not retry. A Client is safe for concurrent use.
type Client struct {
	// Registry parses URLs and supplies their handlers; nil means
	// NewRegistry(Config{}).
	Registry *schemes.Registry
	// Dialer opens every connection; nil means a transport.Dialer with
	// proxies from the environment.
	Dialer schemes.Dialer
	// Trace receives the protocol exchange; nil discards it.
	Trace schemes.Trace
	// TLS configures certificate checks for TLS schemes; nil means defaults.
	TLS *tls.Config
	// Credentials supplies a user and password when a URL has none.
	Credentials schemes.Credentials
	// Prompt asks at the terminal; nil means there is none.
	Prompt schemes.Prompter
	// MaxRedirects limits redirects and referrals; 0 means 10, negative
	// means none are followed (the redirect is returned as an error).
	MaxRedirects int
	// Retries is how many more times a retryable failure is tried.
	Retries int
	// RetryDelay is the first wait between tries; it doubles each time, up
	// to 10 minutes. 0 means one second.
	RetryDelay time.Duration
	// Notify receives notes a person should see (a redirect followed, a
	// file: URL fetched by ftp); nil discards them.
	Notify func(msg string)
}

// Response is a retrieved resource. Close its Body.
type Response struct {
	*schemes.Response
	// URL is the URL the resource came from, after redirects.
	URL schemes.Locator
}

func (c *Client) registry() *schemes.Registry {
	if c.Registry != nil {
		return c.Registry
	}
	return defaultRegistry()
}

func (c *Client) dialer() schemes.Dialer {
	if c.Dialer != nil {
		return c.Dialer
	}
	return defaultDialer
}

// defaultDialer is what a Client without a Dialer uses: the command's
// defaults, so the library never waits forever on a silent peer.
var defaultDialer = &transport.Dialer{
	ConnectTimeout: 30 * time.Second,
	IdleTimeout:    2 * time.Minute,
	Proxy:          transport.ProxyFromEnvironment,
}

func (c *Client) trace() schemes.Trace {
	if c.Trace != nil {
		return c.Trace
	}
	return schemes.NopTrace{}
}

func (c *Client) notify(format string, args ...any) {
	if c.Notify != nil {
		c.Notify(fmt.Sprintf(format, args...))
	}
}

// Parse reads raw with the Client's registry.
func (c *Client) Parse(raw string) (schemes.Locator, error) { return c.registry().Parse(raw) }

// Get retrieves raw and returns the response with its body streaming from
// the server. Failures before the body starts are retried as the Client
// says; failures while reading the body are the caller's to handle (Download
// handles them).
func (c *Client) Get(ctx context.Context, raw string) (*Response, error) {
	loc, err := c.Parse(raw)
	if err != nil {
		return nil, err
	}
	return c.GetLocator(ctx, loc, Resume{})
}

// Resume asks for a resource from a byte offset, for data already held.
type Resume struct {
	Offset  int64     // bytes already held
	ModTime time.Time // when the held data was last modified, zero if unknown
}

// GetLocator retrieves an already parsed URL, optionally resuming.
func (c *Client) GetLocator(ctx context.Context, loc schemes.Locator, from Resume) (*Response, error) {
	var resp *Response
	err := c.retry(ctx, func() error {
		r, err := c.follow(ctx, loc, from)
		resp = r
		return err
	})
	return resp, err
}

// Explain returns the plan raw's handler would carry out, without I/O.
func (c *Client) Explain(raw string) ([]string, error) {
	loc, err := c.Parse(raw)
	if err != nil {
		return nil, err
	}
	h, err := c.handler(loc)
	if err != nil {
		return nil, err
	}
	return h.(schemes.Explainer).Explain(c.request(loc, Resume{}))
}

func (c *Client) handler(loc schemes.Locator) (schemes.Handler, error) {
	g := loc.Generic()
	s, ok := c.registry().Lookup(g.Scheme)
	if !ok || s.Handler == nil {
		return nil, &schemes.Error{Scheme: g.Scheme, Phase: "fetch", Kind: schemes.KindUnsupported,
			URL: loc.Redacted(), Part: "scheme", Msg: fmt.Sprintf("retrieving %s: URLs is not supported yet", g.Scheme)}
	}
	return s.Handler, nil
}

func (c *Client) request(loc schemes.Locator, from Resume) *schemes.Request {
	return &schemes.Request{
		URL: loc, Dialer: c.dialer(), Trace: c.trace(), TLS: c.TLS,
		Offset: from.Offset, ResumeModTime: from.ModTime,
		Credentials: c.Credentials, Prompt: c.Prompt,
	}
}

// follow fetches loc and follows redirects within the Client's limit.
func (c *Client) follow(ctx context.Context, loc schemes.Locator, from Resume) (*Response, error) {
	limit := c.MaxRedirects
	if limit == 0 {
		limit = DefaultMaxRedirects
	}
	for hops := 0; ; hops++ {
		h, err := c.handler(loc)
		if err != nil {
			return nil, err
		}
		r, err := h.Fetch(ctx, c.request(loc, from))
		if err != nil {
			return nil, withURL(err, loc)
		}
		if r.Redirect == "" {
			return &Response{Response: r, URL: loc}, nil
		}
		drain(r.Body)
		if hops >= limit {
			return nil, &schemes.Error{Scheme: loc.Generic().Scheme, Phase: "redirect", Kind: schemes.KindProtocol,
				URL: loc.Redacted(), Code: r.Status, Msg: fmt.Sprintf("too many redirects (limit %d)", max(limit, 0))}
		}
		next, err := c.Parse(r.Redirect)
		if err != nil {
			return nil, &schemes.Error{Scheme: loc.Generic().Scheme, Phase: "redirect", Kind: schemes.KindProtocol,
				URL: loc.Redacted(), Code: r.Status, Msg: "server sent an unusable redirect", Err: err}
		}
		if err := checkRedirect(loc, next); err != nil {
			return nil, err
		}
		c.notify("%s: redirected to %s", loc.Redacted(), next.Redacted())
		loc = next
	}
}

// checkRedirect refuses a referral from a server to a local file: a remote
// server must never make urlget read this machine's files (the reverse,
// file: to ftp: for another host, is RFC 1738's own rule and allowed).
func checkRedirect(from, to schemes.Locator) error {
	if to.Generic().Scheme == "file" && from.Generic().Scheme != "file" {
		return &schemes.Error{Scheme: from.Generic().Scheme, Phase: "redirect", Kind: schemes.KindSafety,
			URL: from.Redacted(), Part: "location",
			Msg: fmt.Sprintf("refusing the server's redirect to local file %s", to.Redacted())}
	}
	return nil
}

// withURL names the URL in errors that lack it: the dialer, for one, never
// sees the URL it dials for.
func withURL(err error, loc schemes.Locator) error {
	var se *schemes.Error
	if errors.As(err, &se) && se.URL == "" {
		se.URL = loc.Redacted()
		if se.Scheme == "" {
			se.Scheme = loc.Generic().Scheme
		}
	}
	return err
}

func drain(b io.ReadCloser) {
	if b != nil {
		b.Close()
	}
}

// CloseIdleConnections closes the connections handlers keep for reuse (HTTP
// keep-alive, FTP control connections), so a caller that is done with the
// Client leaves nothing open.
func (c *Client) CloseIdleConnections() {
	r := c.registry()
	for _, name := range r.Names() {
		s, _ := r.Lookup(name)
		if h, ok := s.Handler.(interface{ CloseIdleConnections() }); ok {
			h.CloseIdleConnections()
		}
	}
}
