package http

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// DefaultUserAgent is the User-Agent sent when Handler.UserAgent is empty.
const DefaultUserAgent = "urlget/0.1"

// Handler retrieves (Fetch) and describes (Stat) http and https URLs with
// net/http, dialing and starting TLS only through the request's Dialer. A
// large body on a plain connection is spliced from the socket by the
// body's WriteTo, past net/http's buffer (splice.go).
//
// It keeps one http.Transport per Dialer, TLS config and scheme, so the
// requests of a fetch run (which shares one Dialer) reuse connections. That
// cache is its only state; the Handler is safe for concurrent use and must
// not be copied after first use. It never follows redirects: a 3xx comes
// back as Response.Redirect for the fetch client to follow.
type Handler struct {
	// UserAgent is the User-Agent header; "" means DefaultUserAgent.
	UserAgent string

	cache transports
}

var (
	_ schemes.Handler   = (*Handler)(nil)
	_ schemes.Explainer = (*Handler)(nil)
	_ schemes.Stater    = (*Handler)(nil)
)

// CloseIdleConnections closes the idle connections the Handler keeps for
// reuse, e.g. when a fetch run is over.
func (h *Handler) CloseIdleConnections() { h.cache.closeIdle() }

// errHeaderTimeout is the cancellation cause when req.Timeout passes
// before the response headers arrive.
var errHeaderTimeout = errors.New("no response headers in time")

// call is what the requests of one Fetch or Stat share.
type call struct {
	loc        *URL
	req        *schemes.Request
	tr         schemes.Trace // the request's Trace, never nil
	user, pass string
	auth       bool     // send user and pass as Basic credentials
	proxy      *url.URL // the proxy that forwards the requests, nil for none
}

// newCall checks req and gathers what its requests need.
func (h *Handler) newCall(ctx context.Context, req *schemes.Request) (*call, error) {
	loc, err := schemes.LocatorOf[*URL](req)
	if err != nil {
		return nil, err
	}
	if req.Dialer == nil {
		return nil, &schemes.Error{Scheme: loc.g.Scheme, Phase: "request", Kind: schemes.KindOther,
			Msg: "no Dialer in the request"}
	}
	c := &call{loc: loc, req: req, tr: req.Trace}
	if c.tr == nil {
		c.tr = schemes.NopTrace{}
	}
	c.user, c.pass, c.auth = credentials(loc, req)
	if c.pass != "" {
		c.tr.Secret(c.pass)
	}
	if err := ctx.Err(); err != nil {
		return nil, schemes.IOError(loc.g.Scheme, "request", err)
	}
	if c.proxy, err = forwardProxy(req.Dialer, loc); err != nil {
		return nil, requestError(ctx, false, 0, loc, err, false)
	}
	return c, nil
}

// Fetch sends GET for req.URL and returns the response, whose Body streams
// the resource. A 3xx comes back as Response.Redirect. When req.Offset > 0
// it asks for the rest under the resume rule (see resumePlan) and reports
// in Response.Offset what the server actually sent. req.Timeout, when
// set, bounds the wait for the response headers (connect and TLS
// included); ctx bounds everything, including reading the body.
func (h *Handler) Fetch(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	c, err := h.newCall(ctx, req)
	if err != nil {
		return nil, err
	}
	rs := planResume(req)
	hdr := rs.header()
	if !req.IfModifiedSince.IsZero() && req.Offset == 0 {
		if hdr == nil {
			hdr = http.Header{}
		}
		hdr.Set("If-Modified-Since", req.IfModifiedSince.UTC().Format(http.TimeFormat))
	}
	x, err := h.roundTrip(ctx, c, http.MethodGet, hdr)
	if err != nil {
		return nil, err
	}
	r, restart, err := h.response(c.loc, req, x, rs)
	if restart != "" {
		// The partial copy cannot be continued from what the server
		// sent: ask for everything, as if there were no partial copy.
		x.close()
		x.tr.Info(restart + "; retrieving the whole resource again")
		whole := *req
		whole.Offset, whole.Partial = 0, schemes.Partial{}
		if x, err = h.roundTrip(ctx, c, http.MethodGet, nil); err != nil {
			return nil, err
		}
		r, _, err = h.response(c.loc, &whole, x, resumePlan{})
	}
	if err != nil || r.Redirect != "" || r.Body != nil {
		x.close()
		return r, err
	}
	r.Body = x.body(ctx, c.loc)
	return r, nil
}

// Stat sends HEAD for req.URL and describes the resource from the
// response headers: Kind file, Size from Content-Length (-1 without one),
// ModTime from Last-Modified (to the second), Type, ETag and Name, and
// Head, the response head as the server sent it (rebuilt from the fields
// over TLS, where the connection below net/http sees only records); a 3xx
// comes back as Response.Redirect, as from Fetch. Errors are those of
// Fetch (404 and 410 not found, 401 and 403 permission, 503 and 429 busy).
// A server that refuses HEAD (405) fails like any other refusal: Stat
// never falls back to a GET that would start sending the body.
func (h *Handler) Stat(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	c, err := h.newCall(ctx, req)
	if err != nil {
		return nil, err
	}
	x, err := h.roundTrip(ctx, c, http.MethodHead, nil)
	if err != nil {
		return nil, err
	}
	defer x.close()
	resp := x.resp
	switch status := resp.StatusCode; {
	case isRedirect(status):
		r, err := redirectResponse(c.loc, resp, x.tr)
		if r != nil {
			r.Head = x.head
		}
		return r, err
	case status >= 200 && status < 300:
		r := describe(c.loc, resp)
		r.Size = resp.ContentLength // HEAD: the Content-Length header, -1 without one
		r.Head = x.head
		return r, nil
	}
	return nil, statusError(c.loc, resp)
}

// Explain returns the plan: the connection, then the request line and
// headers Fetch would send (Range and If-Range when resuming), with
// credentials as "****".
func (h *Handler) Explain(req *schemes.Request) ([]string, error) {
	loc, err := schemes.LocatorOf[*URL](req)
	if err != nil {
		return nil, err
	}
	conn := "connect " + loc.g.HostPort()
	if loc.TLS() {
		conn += " (TLS)"
	}
	plan := []string{conn, "GET " + requestTarget(loc) + " HTTP/1.1", "Host: " + loc.HostHeader(),
		"User-Agent: " + h.userAgent()}
	plan = append(plan, planResume(req).lines()...)
	if _, _, auth := credentials(loc, req); auth {
		plan = append(plan, "Authorization: Basic "+schemes.Redacted)
	}
	return plan, nil
}

func (h *Handler) userAgent() string {
	if h.UserAgent != "" {
		return h.UserAgent
	}
	return DefaultUserAgent
}

// credentials are the URL's user and password, else what req.Credentials
// knows for the host. auth is false when there are none to send.
func credentials(loc *URL, req *schemes.Request) (user, pass string, auth bool) {
	if loc.g.User != nil {
		user = *loc.g.User
		if loc.g.Password != nil {
			pass = *loc.g.Password
		}
		return user, pass, user != "" || pass != ""
	}
	if req.Credentials != nil {
		if u, p, ok := req.Credentials(loc.g.Scheme, loc.g.Host, loc.g.EffectivePort()); ok {
			return u, p, u != "" || p != ""
		}
	}
	return "", "", false
}

// requestTarget is what the request line carries. It is the URL's
// RequestTarget, except that a path starting with "//" would read as an
// authority there, so it is sent in absolute form (RFC 9112 §3.2.2, which
// servers must accept).
func requestTarget(loc *URL) string {
	if strings.HasPrefix(loc.Path, "/") {
		return loc.g.Scheme + "://" + loc.HostHeader() + loc.RequestTarget()
	}
	return loc.RequestTarget()
}

// newRequest builds a request of method (GET or HEAD) with the extra
// header fields hdr. The target goes in URL.Opaque (and RawQuery),
// which net/http writes on the request line verbatim: the path and search
// reach the server exactly as escaped in the URL, never re-encoded. A
// request that a proxy forwards has the absolute form (RFC 7230 §5.3.2).
func (h *Handler) newRequest(c *call, method string, hdr http.Header) *http.Request {
	loc := c.loc
	u := &url.URL{Scheme: loc.g.Scheme, Host: loc.HostHeader(), Opaque: "/" + loc.Path}
	if c.proxy != nil || strings.HasPrefix(loc.Path, "/") {
		u.Opaque = "//" + u.Host + "/" + loc.Path // RequestURI makes it scheme:Opaque
	}
	if loc.Search != nil {
		u.RawQuery, u.ForceQuery = *loc.Search, *loc.Search == ""
	}
	header := http.Header{"User-Agent": {h.userAgent()}}
	for k, v := range hdr {
		header[k] = v
	}
	r := &http.Request{Method: method, URL: u, Host: u.Host, Header: header,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}
	if c.auth {
		r.SetBasicAuth(c.user, c.pass)
	}
	return r
}
