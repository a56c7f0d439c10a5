package http

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/urlget/urlget/schemes"
)

// DefaultUserAgent is the User-Agent sent when Handler.UserAgent is empty.
const DefaultUserAgent = "urlget/0.1"

// Handler retrieves (Fetch) and describes (Stat) http and https URLs with
// net/http, dialing and starting TLS only through the request's Dialer. A
// large body on a plain connection is spliced from the socket by the
// body's WriteTo, past net/http's buffer (splice.go).
//
// It keeps one http.Transport per Dialer, TLS config, scheme and idle
// limits (those of the request's Conns, schemes.IdleLimiter), so the
// requests of a fetch run (which shares one Dialer) reuse connections, and
// as many stay idle per host as the run's Conns keeps sessions. That
// cache is its only state; the Handler is safe for concurrent use and must
// not be copied after first use. It never follows redirects: a 3xx comes
// back as Response.Redirect for the fetch client to follow.
type Handler struct {
	// UserAgent is the User-Agent header; "" means DefaultUserAgent.
	UserAgent string
	// Referer is the Referer header field (curl's -e); "" sends none.
	Referer string
	// Header holds the caller's own request header fields (curl's -H),
	// built with AddHeader: each replaces the field of that name the
	// handler would send (User-Agent, Referer, Accept-Encoding, Host),
	// and a name with no values removes it. Range and If-Range of a
	// resume and If-Modified-Since still win. Authorization and Cookie
	// fields are sent only to the origin of the URL the caller named
	// (Request.OtherOrigin), and Host only there.
	Header http.Header
	// Decode asks for a compressed body (Accept-Encoding: gzip, deflate,
	// br, zstd) and decodes it (curl's --compressed), so that the Body,
	// its size and the limits on it are those of the decoded bytes; see
	// decode.go. Without it the body is the bytes as served.
	Decode bool
	// FailWithBody hands over the error page of a status urlget fails
	// on (curl's --fail-with-body): the Response's Body is the page, and
	// reading it ends, instead of with io.EOF, with the error Fetch
	// would have returned (not retryable, its Err ErrBodyWritten). Not
	// when resuming or asking for a range: a page must not land after a
	// partial copy's bytes, nor stand for a part of the resource. It
	// wins over a request's ErrorPages for a status of 400 and up.
	FailWithBody bool
	// Fail refuses what a request's ErrorPages asks for on a status of
	// 400 and up (curl's -f): Fetch fails as without it, the page unread.
	// A 3xx that is no redirect still comes as data, as with curl. Stat
	// is not changed by it: a head is no page, and with ErrorPages it
	// hands over any status's head for the caller to decide (curl -fI
	// shows the head, then fails).
	Fail bool
	// Method is the method word of Fetch's requests (curl's -X): ""
	// sends POST with a Body, else GET. It must be a token (RFC 9110
	// §9.1), or Fetch fails with KindUsage. It is the word only: it
	// stays after a redirect (see Body), and Stat sends HEAD whatever
	// it says.
	Method string
	// Body, when set, is sent with Fetch's requests (curl's -d and -F):
	// as a POST, unless Method says otherwise, with Content-Type
	// Body.Type. A redirect keeps it as curl's does: 307 and 308 send
	// it again, to any host; 301 and 302 turn the POST into a GET
	// without it (unless KeepPost has the status), and 303 does so to
	// any request but a POST kept. Once it was sent, a failure is not
	// retried unless the method is idempotent or the failure a timeout
	// (the server may have acted on it). A Handler that sends a Body or
	// another Method than GET is for the URLs its caller names: its
	// schemes neither list, crawl nor resume (Schemes), and a request
	// with an Offset is sent whole.
	Body *Body
	// KeepPost are the redirect statuses among 301, 302 and 303 after
	// which a POST stays a POST with its body (curl's --post301,
	// --post302, --post303).
	KeepPost []int
	// Window is how many GETs may be outstanding on one connection when
	// the caller says which URLs it will ask for next (schemes.NextOf;
	// see pipeline.go): 0 means DefaultWindow, 1 sends each request
	// after the response before it (no pipelining), and the schemes then
	// do not claim schemes.Pipelines.
	Window int

	cache transports
	pipes pipes // pipelined connections with responses waiting
	// words name the options in messages as the caller does (the
	// declaration's Values): the compressed option in a decoding
	// failure, the method and post options in notes about redirects.
	words schemes.Words
}

var (
	_ schemes.Handler   = (*Handler)(nil)
	_ schemes.Explainer = (*Handler)(nil)
	_ schemes.Stater    = (*Handler)(nil)
)

// CloseIdleConnections closes the idle connections the Handler keeps for
// reuse, e.g. when a fetch run is over.
func (h *Handler) CloseIdleConnections() {
	h.cache.closeIdle()
	h.pipes.parked.CloseAll()
}

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
	if err := h.checkMethod(loc); err != nil {
		return nil, err
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

// Fetch sends GET for req.URL (or the Handler's Method and Body, see
// sendingFor) and returns the response, whose Body streams the resource.
// A 3xx comes back as Response.Redirect. A byte range (req.Ranged,
// Length) is asked for with Range as curl's -r sends it; when req.Offset
// > 0 continues a partial copy it asks a GET for the rest under the
// resume rule (see resumePlan); either way Response.Offset and Length
// report what the server actually sent. The time conditions are sent as
// If-Modified-Since and If-Unmodified-Since, and a 304 or 412 answering
// them is NotModified or Changed. req.Timeout, when set, bounds the wait
// for the response headers (connect and TLS included); ctx bounds
// everything, including reading the body. An error status fails
// (statusError), unless req.ErrorPages asks for its page
// (Response.Failure says what it would have failed with) or FailWithBody
// hands it over. Response.Head is the head as the server sent it, a
// redirect's too.
func (h *Handler) Fetch(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	return h.fetch(ctx, req, true)
}

// pageUse says what Fetch makes of the page of a status it fails on.
type pageUse int

const (
	pageRefused pageUse = iota // fail, the page unread
	pageData                   // the page is the resource (Request.ErrorPages)
	pageFailing                // the page, ending with the failure (FailWithBody)
)

// pageOf is what becomes of the page of status, which Fetch fails on,
// under the Handler's options (FailWithBody, Fail) and the request's
// ErrorPages (asked).
func (h *Handler) pageOf(status int, asked bool) pageUse {
	switch {
	case status >= 400 && h.FailWithBody:
		return pageFailing
	case status >= 400 && h.Fail:
		return pageRefused
	case asked && pageStatus(status):
		return pageData
	}
	return pageRefused
}

// pageStatus reports whether a response of status that Fetch fails on
// has a page to hand over: an error status, or a 3xx that is no redirect
// (300, 304 unasked, 305), whose body curl writes too.
func pageStatus(status int) bool { return status >= 300 && !isRedirect(status) }

// fetch is Fetch; pages says whether an error status's page may be
// handed over at all (not for a listing: a page is no index).
func (h *Handler) fetch(ctx context.Context, req *schemes.Request, pages bool) (*schemes.Response, error) {
	c, err := h.newCall(ctx, req)
	if err != nil {
		return nil, err
	}
	s := h.sendingFor(req, c.tr)
	if req.Offset > 0 && !s.plain() {
		// As curl: the answer to a POST is not a resource whose rest a
		// range could bring; the whole answer comes, written afresh.
		c.tr.Info(fmt.Sprintf("not continuing the partial copy: the answer to a %s is retrieved whole", s.method))
		whole := *req
		whole.Offset, whole.Partial = 0, schemes.Partial{}
		req, c.req = &whole, &whole
	}
	rs := planResume(req)
	hdr := conditions(req, rs.header())
	x, err := h.roundTrip(ctx, c, s, hdr)
	if err != nil {
		return nil, err
	}
	r, restart, err := h.response(c.loc, req, x, rs)
	if restart != "" {
		// The partial copy cannot be continued from what the server
		// sent: ask for everything, as if there were no partial copy.
		x.close()
		x.tr.Info(restart + "; retrieving the whole resource again")
		whole := req.Whole()
		if x, err = h.roundTrip(ctx, c, s, nil); err != nil {
			return nil, err
		}
		r, _, err = h.response(c.loc, whole, x, resumePlan{})
	}
	if r != nil {
		r.Head = x.head
	}
	use := pageRefused
	if err != nil && pages && req.Partial == (schemes.Partial{}) { // never a page after a partial copy's bytes
		use = h.pageOf(x.resp.StatusCode, req.ErrorPages)
		if use == pageFailing && rs.ranged() {
			// A page that ends with the failure would be cut as the
			// range's bytes: refused; one taken as data (Failure) is
			// written whole, as curl writes it.
			use = pageRefused
		}
	}
	switch use {
	case pageData:
		r, err = pageResponse(c.loc, x, err), nil
	case pageFailing:
		body, derr := h.decodedBody(ctx, c.loc, x)
		if derr != nil {
			x.close()
			return nil, err // the status says more than the page's coding
		}
		return &schemes.Response{Size: -1, Status: x.resp.StatusCode, Type: x.resp.Header.Get("Content-Type"),
			Head: x.head, Body: &failBody{ReadCloser: body, err: pageError(err)}}, nil
	}
	if err != nil || r.Redirect != "" || r.Body != nil {
		x.close()
		return r, err
	}
	if h.Decode && len(contentCodings(x.resp)) > 0 {
		if r.Offset > 0 {
			x.close()
			return nil, &schemes.Error{Scheme: c.loc.g.Scheme, Phase: "response", Kind: schemes.KindProtocol, Code: r.Status,
				Msg: fmt.Sprintf("the server sent the rest of the resource with Content-Encoding %q, asked for none: "+
					"coded bytes cannot continue decoded ones (start over without -C -)", x.resp.Header.Get("Content-Encoding"))}
		}
		// The server's size and digest are of the coded bytes.
		r.Size, r.SHA256 = -1, ""
	}
	if r.Body, err = h.decodedBody(ctx, c.loc, x); err != nil {
		x.close()
		return nil, err
	}
	return r, nil
}

// conditions adds req's time conditions to hdr (nil: none yet): not
// when continuing a partial copy, which the first request's answer
// already met.
func conditions(req *schemes.Request, hdr http.Header) http.Header {
	if req.Partial != (schemes.Partial{}) {
		return hdr
	}
	for field, t := range map[string]time.Time{"If-Modified-Since": req.IfModifiedSince, "If-Unmodified-Since": req.IfUnmodifiedSince} {
		if t.IsZero() {
			continue
		}
		if hdr == nil {
			hdr = http.Header{}
		}
		hdr.Set(field, t.UTC().Format(http.TimeFormat))
	}
	return hdr
}

// decodedBody is x's body, decoded when the Handler decodes and the
// response is coded.
func (h *Handler) decodedBody(ctx context.Context, loc *URL, x *exchange) (io.ReadCloser, error) {
	body := x.body(ctx, loc)
	if cs := contentCodings(x.resp); h.Decode && len(cs) > 0 {
		return decoded(loc, body, cs, h.words.Option("compressed"))
	}
	return body, nil
}

// Stat sends HEAD for req.URL and describes the resource from the
// response headers: Kind file, Size from Content-Length (-1 without one),
// ModTime from Last-Modified (to the second), Type, ETag and Name, and
// Head, the response head as the server sent it (over TLS too: the
// connection net/http reads is the decrypted one); a 3xx
// comes back as Response.Redirect, as from Fetch. Errors are those of
// Fetch (404 and 410 not found, 401 and 403 permission, 503 and 429 busy),
// or with req.ErrorPages the error status's head and Failure, as Fetch
// hands over its page. A server that refuses HEAD (405) fails like any
// other refusal: Stat never falls back to a GET that would start sending
// the body.
func (h *Handler) Stat(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	c, err := h.newCall(ctx, req)
	if err != nil {
		return nil, err
	}
	x, err := h.roundTrip(ctx, c, sending{method: http.MethodHead}, nil)
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
	case req.ErrorPages && pageStatus(status):
		return pageResponse(c.loc, x, statusError(c.loc, resp)), nil
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
	if err := h.checkMethod(loc); err != nil {
		return nil, err
	}
	s := h.sendingFor(req, schemes.NopTrace{})
	plan := []string{conn, s.method + " " + requestTarget(loc) + " HTTP/1.1"}
	rs := resumePlan{}
	if s.plain() {
		rs = planResume(req)
	}
	fields := h.fields(req, rs.ranged(), s.body)
	if _, ok := fields["Host"]; !ok {
		plan = append(plan, "Host: "+loc.HostHeader())
	}
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		for _, v := range fields[k] {
			if k == "User-Agent" && v == "" {
				continue // removed: net/http sends none for ""
			}
			if k == "Authorization" || k == "Cookie" {
				v = schemes.Redacted
			}
			plan = append(plan, k+": "+v)
		}
	}
	plan = append(plan, rs.lines()...)
	for _, k := range slices.Sorted(maps.Keys(conditions(req, nil))) {
		plan = append(plan, k+": "+conditions(req, nil).Get(k))
	}
	if _, _, auth := credentials(loc, req); auth {
		plan = append(plan, "Authorization: Basic "+schemes.Redacted)
	}
	if s.body != nil {
		// Its length, not its bytes: a body may hold a password.
		plan = append(plan, fmt.Sprintf("Content-Length: %d", s.body.Len()))
	}
	return plan, nil
}

// fields are the header fields every request for req carries, before
// those of a resume: User-Agent, Referer, Accept-Encoding (Decode, not
// when resuming: see decode.go), the body's Content-Type, then the
// caller's Header over them, without what it keeps for the origin when
// req is not there.
func (h *Handler) fields(req *schemes.Request, resuming bool, body *Body) http.Header {
	f := http.Header{"User-Agent": {h.userAgent()}}
	if h.Referer != "" {
		f.Set("Referer", h.Referer)
	}
	if h.Decode && !resuming {
		f.Set("Accept-Encoding", acceptEncoding)
	}
	if body != nil && body.Type != "" {
		f.Set("Content-Type", body.Type)
	}
	for k, v := range h.Header {
		k = http.CanonicalHeaderKey(k)
		if req.OtherOrigin && originOnly[k] {
			continue
		}
		if len(v) == 0 {
			delete(f, k)
			if k == "User-Agent" {
				f[k] = []string{""} // net/http sends its own for a missing one, none for ""
			}
			continue
		}
		f[k] = v
	}
	return f
}

// originOnly are the fields of Handler.Header sent only to the origin of
// the URL the caller named, as curl keeps them (Host: a name meant for
// the first server is no name for the one a redirect leads to).
var originOnly = map[string]bool{"Authorization": true, "Cookie": true, "Host": true}

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

// newRequest builds the request s says (GET, HEAD, or the Handler's
// method and body) with the extra header fields hdr. The target goes in
// URL.Opaque (and RawQuery), which net/http writes on the request line
// verbatim: the path and search reach the server exactly as escaped in
// the URL, never re-encoded. A request that a proxy forwards has the
// absolute form (RFC 7230 §5.3.2).
func (h *Handler) newRequest(c *call, s sending, hdr http.Header) *http.Request {
	loc := c.loc
	u := &url.URL{Scheme: loc.g.Scheme, Host: loc.HostHeader(), Opaque: "/" + loc.Path}
	if c.proxy != nil || strings.HasPrefix(loc.Path, "/") {
		u.Opaque = "//" + u.Host + "/" + loc.Path // RequestURI makes it scheme:Opaque
	}
	if loc.Search != nil {
		u.RawQuery, u.ForceQuery = *loc.Search, *loc.Search == ""
	}
	header := h.fields(c.req, hdr.Get("Range") != "", s.body)
	for k, v := range hdr {
		header[k] = v
	}
	r := &http.Request{Method: s.method, URL: u, Host: u.Host, Header: header,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}
	if s.body != nil {
		// Read afresh for each send: net/http sends a request again on
		// a new connection when a kept one was found closed before any
		// of it was written, which GetBody allows for a POST too.
		r.Body, r.ContentLength = s.body.reader(), s.body.Len()
		r.GetBody = func() (io.ReadCloser, error) { return s.body.reader(), nil }
		if s.body.Len() == 0 {
			r.Body = http.NoBody
		}
	}

	if host, ok := header["Host"]; ok {
		// net/http writes r.Host, never a Host field of the header.
		r.Host = host[0]
		delete(header, "Host")
	}
	if c.auth && header.Get("Authorization") == "" {
		r.SetBasicAuth(c.user, c.pass)
	}
	return r
}
