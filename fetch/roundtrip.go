package fetch

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/urlget/urlget/internal/httprange"
	"github.com/urlget/urlget/schemes"
)

// RoundTripper returns an http.RoundTripper that retrieves requests' URLs
// with c, for net/http's Transport.RegisterProtocol, so that a program
// built on an *http.Client retrieves every scheme c's registry does:
//
//	t := http.DefaultTransport.(*http.Transport).Clone()
//	rt := c.RoundTripper()
//	for _, s := range []string{"ftp", "ftps", "gopher", "gophers", "news", "nntp", "wais", "prospero", "file"} {
//		t.RegisterProtocol(s, rt)
//	}
//	resp, err := (&http.Client{Transport: t}).Get("gopher://host/0/README")
//
// It works on a clone of c (Clone: c's settings at the call, c's idle
// sessions shared), which returns the redirects it finds instead of
// following them. Requests map to the contract so:
//
//   - GET is Do with MethodGet. A document's bytes stream from the server with
//     Content-Type (MediaType: the gopher item type, Gopher+ view or WAIS
//     type, else by name), Content-Length and Last-Modified where known,
//     and Accept-Ranges where the scheme Resumes. A container (directory,
//     menu, group, search) is 200 of ListingMediaType: JSON lines, each
//     entry as `urlget --json` writes it, made as the listing streams.
//   - HEAD is Do with MethodStat where the scheme Stats; elsewhere a GET whose
//     transfer is stopped unread once the head is known.
//   - Range "bytes=N-" or "bytes=N-M" is a byte range (Request.Offset
//     and Length) where the scheme Resumes: 206 with Content-Range where
//     the size is known, else 200 with the whole resource, as RFC 9110
//     allows; 416 when N is at or past the end. A request with If-Range,
//     and any other Range form, is answered whole.
//   - If-Modified-Since is 304 Not Modified where the scheme can tell: a
//     Conditional scheme asks its server; one that Stats is stat'ed
//     first, and fetched only when changed; any other is fetched with its
//     time asked for, and the transfer stopped when the time says
//     unchanged. A time known only to a minute or a day is unchanged only
//     when all of that minute or day is not after the date.
//   - Any other method is 405 with Allow: GET, HEAD.
//   - A failure is a response of the status HTTPStatus gives its kind,
//     with the error's text (redacted) as a text/plain body: 404, 403,
//     401 with a Basic challenge, 502, 504, 503 with Retry-After (the
//     server's time, else DefaultRetryAfter), 400, 501. A failure that
//     is the caller's own — the request's context canceled or past its
//     deadline — is RoundTrip's error, as net/http's is.
//   - A redirect a scheme finds (a gopher "h URL:" item, a Gopher+
//     "moved", HTTP's 3xx) or a resolution (Prospero) is a redirect
//     response with Location, so that http.Client's own policy decides:
//     the server's code where its protocol has 3xx codes, else 302 Found.
//     c's redirect policy (RedirectProtocols, Protocols, CheckRedirect)
//     still applies to the hop first, and a hop it refuses is 403: a
//     server cannot lead an http.Client to a local file.
//   - Credentials: a request's Basic Authorization (Request.SetBasicAuth)
//     is the login of a URL that names none, under c's credential policy
//     like one written in the URL.
//   - Schemes that start a session or send (Caps Interactive, Sends:
//     telnet, mailto) are refused with 501: a GET must be safe.
//
// A response's Body streams from the server; Close stops the transfer
// and releases its connection (to the pool, where the protocol lets a
// stopped transfer's session be kept), as does canceling the request's
// context. CloseIdleConnections on the returned value closes c's idle
// sessions (http.Transport's does not reach registered protocols).
//
// http and https go through c's http handler like any other scheme, and
// are answered by the same rules: the server's failure by its kind (a 500
// is 502) and no request header passed on but those above. Register the
// RoundTripper for the other schemes and leave http and https to
// net/http's own Transport.
func (c *Client) RoundTripper() http.RoundTripper {
	rc := c.Clone()
	rc.keepRedirects = true
	return &roundTripper{c: rc}
}

// roundTripper is what Client.RoundTripper returns.
type roundTripper struct{ c *Client }

var _ http.RoundTripper = (*roundTripper)(nil)

// CloseIdleConnections closes the idle sessions of the Client's pool.
func (rt *roundTripper) CloseIdleConnections() { rt.c.CloseIdleConnections() }

// RoundTrip answers req as RoundTripper describes.
func (rt *roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		req.Body.Close() // a retrieval sends no body; RoundTrip must close it
	}
	if req.URL == nil {
		return nil, errors.New("fetch: RoundTrip: the request has no URL")
	}
	x := &exchange{c: rt.c, req: req, head: req.Method == http.MethodHead}
	if m := req.Method; m != "" && m != http.MethodGet && m != http.MethodHead {
		resp := x.text(http.StatusMethodNotAllowed, m+" is not supported: a retrieval is GET or HEAD")
		resp.Header.Set("Allow", "GET, HEAD")
		return resp, nil
	}
	loc, err := rt.c.Parse(rawURL(req))
	if err != nil {
		return x.failed(err)
	}
	x.loc, x.caps = loc, rt.c.Caps(loc)
	if x.caps&(schemes.Interactive|schemes.Sends) != 0 {
		g := loc.Generic()
		return x.failed(&schemes.Error{Scheme: g.Scheme, Phase: "fetch", Kind: schemes.KindUnsupported, URL: loc.Redacted(),
			Part: "scheme", Msg: g.Scheme + " URLs are not retrieved through net/http: they start a session or send (" + x.caps.String() + "), which a GET must not"})
	}
	var cancel context.CancelFunc
	x.ctx, cancel = context.WithCancel(req.Context())
	resp, err := x.answer()
	if resp != nil {
		if s, ok := resp.Body.(*stream); ok {
			s.cancel = cancel // the body streams under x.ctx: its Close ends it
			return resp, nil
		}
	}
	cancel()
	return resp, err
}

// rawURL is req's URL, with the login of its Basic Authorization when
// the URL has an authority and no user of its own.
func rawURL(req *http.Request) string {
	u := req.URL
	if u.User == nil && u.Host != "" {
		if user, pass, ok := req.BasicAuth(); ok {
			v := *u
			v.User = url.UserPassword(user, pass)
			u = &v
		}
	}
	return u.String()
}

// exchange is one request being answered.
type exchange struct {
	c    *Client
	req  *http.Request
	loc  schemes.Locator
	caps schemes.Caps
	ctx  context.Context
	head bool
}

// answer carries out the request (RoundTripper).
func (x *exchange) answer() (*http.Response, error) {
	ims := ifModifiedSince(x.req)
	if x.caps.Has(schemes.Stats) && (x.head || !ims.IsZero() && !x.caps.Has(schemes.Conditional)) {
		st, err := x.c.Do(x.ctx, &Request{Method: MethodStat, URL: x.loc})
		switch {
		case err != nil:
			return x.failed(err)
		case hopOf(st.Response) != "":
			return x.redirect(st.Response)
		case notModifiedSince(st.ModTime, st.Precision, ims):
			return x.notModified(st.Response)
		case x.head:
			return x.described(st.Response, http.StatusOK), nil
		}
		ims = time.Time{} // changed: the GET need not ask again
	}
	from := Request{URL: x.loc}
	if !ims.IsZero() {
		from.WantModTime = true
		if x.caps.Has(schemes.Conditional) {
			from.IfModifiedSince = ims
		}
	}
	start, end, ranged := httprange.Parse(x.req.Header.Get("Range"))
	if x.head || x.req.Header.Get("If-Range") != "" {
		ranged = false // If-Range: answered whole, never a part of another version
	}
	if ranged && x.caps.Has(schemes.Resumes) {
		from.Offset, from.Length = start, httprange.Length(start, end) // the server is asked for these bytes only
	}
	r, err := x.c.Do(x.ctx, &from)
	if reply, ok := httprange.Unsatisfiable(err); ok && ranged {
		resp := x.reply(reply.Status) // past the end: the scheme said so, as a server's 416 would
		resp.ContentLength = 0
		resp.Header.Set("Content-Range", reply.ContentRange)
		return resp, nil
	}
	if err != nil {
		return x.failed(err)
	}
	switch {
	case hopOf(r.Response) != "":
		r.Close()
		return x.redirect(r.Response)
	case r.NotModified || notModifiedSince(r.ModTime, r.Precision, ims):
		r.Close()
		return x.notModified(r.Response)
	case x.head:
		r.Close() // the head is known: the transfer stops here
		return x.described(r.Response, http.StatusOK), nil
	case r.Listing != nil:
		resp := x.described(r.Response, http.StatusOK)
		resp.Body = &stream{r: &lines{l: r.Listing}, resp: r}
		return resp, nil
	}
	reply, err := httprange.Answer(r.Response, ranged, start, end)
	if err != nil {
		r.Close()
		return x.failed(withURL(err, r.URL))
	}
	resp := x.described(r.Response, reply.Status)
	resp.ContentLength = reply.Length
	setLength(resp.Header, reply.Length)
	if reply.ContentRange != "" {
		resp.Header.Set("Content-Range", reply.ContentRange)
	}
	if reply.Status == http.StatusRequestedRangeNotSatisfiable {
		r.Close()
		resp.Body, resp.ContentLength = http.NoBody, 0
		setLength(resp.Header, 0)
		return resp, nil
	}
	body := &stream{r: r.Body, resp: r}
	if reply.Status == http.StatusPartialContent {
		body.r = io.LimitReader(r.Body, reply.Length)
	}
	resp.Body = body
	return resp, nil
}

// ifModifiedSince is req's If-Modified-Since, zero when it has none
// that parses (RFC 9110 §13.1.3: an invalid date is ignored).
func ifModifiedSince(req *http.Request) time.Time {
	t, err := http.ParseTime(req.Header.Get("If-Modified-Since"))
	if err != nil {
		return time.Time{}
	}
	return t
}

// described is a response of status with the head r tells: its media
// type, length, time and whether it resumes. Its Body is none yet.
func (x *exchange) described(r *schemes.Response, status int) *http.Response {
	resp := x.reply(status)
	h := resp.Header
	if r.Listing != nil || r.Kind == schemes.EntryDir {
		h.Set("Content-Type", ListingMediaType)
	} else {
		h.Set("Content-Type", MediaType(r))
		resp.ContentLength = r.Size
		setLength(h, r.Size)
		if x.caps.Has(schemes.Resumes) {
			h.Set("Accept-Ranges", "bytes")
		}
	}
	if !r.ModTime.IsZero() {
		h.Set("Last-Modified", r.ModTime.UTC().Format(http.TimeFormat))
	}
	return resp
}

// notModified is 304 for r, with its time.
func (x *exchange) notModified(r *schemes.Response) (*http.Response, error) {
	resp := x.reply(http.StatusNotModified)
	resp.ContentLength = 0
	if !r.ModTime.IsZero() {
		resp.Header.Set("Last-Modified", r.ModTime.UTC().Format(http.TimeFormat))
	}
	return resp, nil
}

// redirect is the redirect response for r, which refers elsewhere
// (hopOf): the server's own 3xx where it sent one, else 302.
func (x *exchange) redirect(r *schemes.Response) (*http.Response, error) {
	status := http.StatusFound
	if r.Status >= 300 && r.Status < 400 && r.Status != http.StatusNotModified {
		status = r.Status
	}
	resp := x.reply(status)
	resp.ContentLength = 0
	resp.Header.Set("Location", hopOf(r))
	return resp, nil
}

// failed answers err: the caller's own failure as RoundTrip's error,
// any other as a response of its status (HTTPStatus).
func (x *exchange) failed(err error) (*http.Response, error) {
	if x.req.Context().Err() != nil || schemes.KindOf(err) == schemes.KindCanceled {
		return nil, err
	}
	status := HTTPStatus(err)
	resp := x.text(status, err.Error())
	switch status {
	case http.StatusServiceUnavailable:
		resp.Header.Set("Retry-After", retryAfter(err))
	case http.StatusUnauthorized:
		// The login a Basic Authorization gives is used (rawURL).
		realm := "urlget"
		if x.loc != nil && x.loc.Generic().Authority {
			realm = x.loc.Generic().Scheme + "://" + x.loc.Generic().HostPort()
		}
		resp.Header.Set("WWW-Authenticate", `Basic realm=`+strconv.Quote(realm)+`, charset="UTF-8"`)
	}
	return resp, nil
}

// text is a response of status whose body is msg, a line of text.
func (x *exchange) text(status int, msg string) *http.Response {
	resp := x.reply(status)
	body := msg + "\n"
	resp.Header.Set("Content-Type", "text/plain; charset=utf-8")
	resp.Header.Set("X-Content-Type-Options", "nosniff")
	resp.ContentLength = int64(len(body))
	setLength(resp.Header, resp.ContentLength)
	resp.Body = &stream{r: strings.NewReader(body)}
	if x.head {
		resp.Body = http.NoBody
	}
	return resp
}

// reply is a bodiless response of status to x's request.
func (x *exchange) reply(status int) *http.Response {
	return &http.Response{
		Status:     strconv.Itoa(status) + " " + http.StatusText(status),
		StatusCode: status,
		Proto:      "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:        http.Header{},
		Body:          http.NoBody,
		ContentLength: -1,
		Request:       x.req,
	}
}

// setLength sets Content-Length to n, or removes it when n is unknown.
func setLength(h http.Header, n int64) {
	if n < 0 {
		h.Del("Content-Length")
		return
	}
	h.Set("Content-Length", strconv.FormatInt(n, 10))
}
