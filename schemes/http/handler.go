package http

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/urlget/urlget/schemes"
)

// DefaultUserAgent is the User-Agent sent when Handler.UserAgent is empty.
const DefaultUserAgent = "urlget/0.1"

// Handler retrieves http and https URLs with net/http, dialing only through
// the request's Dialer.
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
)

// CloseIdleConnections closes the idle connections the Handler keeps for
// reuse, e.g. when a fetch run is over.
func (h *Handler) CloseIdleConnections() { h.cache.closeIdle() }

// errHeaderTimeout is the cancellation cause when req.Timeout passes
// before the response headers arrive.
var errHeaderTimeout = errors.New("no response headers in time")

// Fetch sends GET for req.URL and returns the response, whose Body streams
// the resource. When req.Offset > 0 it asks for the rest with Range (and
// If-Range when req.ResumeModTime is known) and reports in Response.Offset
// what the server actually sent. req.Timeout, when set, bounds the wait for
// the response headers (connect and TLS included); ctx bounds everything,
// including reading the body.
func (h *Handler) Fetch(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	loc, err := locator(req)
	if err != nil {
		return nil, err
	}
	if req.Dialer == nil {
		return nil, &schemes.Error{Scheme: loc.g.Scheme, Phase: "request", Kind: schemes.KindOther, URL: loc.Redacted(),
			Msg: "no Dialer in the request"}
	}
	tr := req.Trace
	if tr == nil {
		tr = schemes.NopTrace{}
	}
	user, pass, auth := credentials(loc, req)
	if pass != "" {
		tr.Secret(pass)
	}
	if err := ctx.Err(); err != nil {
		return nil, ctxError(loc, "request", err)
	}

	proxy, err := forwardProxy(req.Dialer, loc)
	if err != nil {
		return nil, requestError(ctx, false, 0, loc, err)
	}
	hreq := h.newRequest(loc, req, user, pass, auth, proxy != nil)
	t, cached := h.cache.get(req.Dialer, req.TLS, loc.g.Scheme)
	done := func() {}
	if !cached {
		done = t.CloseIdleConnections
	}
	rctx, cancel := context.WithCancelCause(ctx)
	stop := func() bool { return true }
	if req.Timeout > 0 {
		stop = time.AfterFunc(req.Timeout, func() { cancel(errHeaderTimeout) }).Stop
	}
	if proxy != nil {
		rctx = context.WithValue(rctx, forwardKey{}, proxy)
	}
	hreq = hreq.WithContext(httptrace.WithClientTrace(rctx, clientTrace(tr, hreq)))
	client := &http.Client{
		Transport:     t,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	resp, err := client.Do(hreq)
	stop() // the timeout covers the wait for headers only, not the body
	if err != nil {
		timedOut := context.Cause(rctx) == errHeaderTimeout
		cancel(nil)
		done()
		return nil, requestError(ctx, timedOut, req.Timeout, loc, err)
	}
	traceResponse(tr, resp)
	r, err := h.response(loc, req, resp, tr)
	if err != nil || r.Body != nil {
		discard(resp.Body)
		cancel(nil)
		done()
		return r, err
	}
	r.Body = &body{rc: resp.Body, ctx: ctx, loc: loc, cancel: cancel, done: done}
	return r, nil
}

// Explain returns the plan: the connection, then the request line and
// headers Fetch would send, with credentials as "****".
func (h *Handler) Explain(req *schemes.Request) ([]string, error) {
	loc, err := locator(req)
	if err != nil {
		return nil, err
	}
	conn := "connect " + loc.g.HostPort()
	if loc.TLS() {
		conn += " (TLS)"
	}
	plan := []string{conn, "GET " + requestTarget(loc) + " HTTP/1.1", "Host: " + loc.HostHeader(),
		"User-Agent: " + h.userAgent()}
	if req.Offset > 0 {
		plan = append(plan, "Range: bytes="+strconv.FormatInt(req.Offset, 10)+"-")
		if !req.ResumeModTime.IsZero() {
			plan = append(plan, "If-Range: "+req.ResumeModTime.UTC().Format(http.TimeFormat))
		}
	}
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

func locator(req *schemes.Request) (*URL, error) {
	loc, ok := req.URL.(*URL)
	if !ok {
		return nil, &schemes.Error{Scheme: "http", Phase: "request", Kind: schemes.KindOther,
			Msg: fmt.Sprintf("http handler given a %T, want *http.URL", req.URL)}
	}
	return loc, nil
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

// newRequest builds the GET. The target goes in URL.Opaque (and RawQuery),
// which net/http writes on the request line verbatim: the path and search
// reach the server exactly as escaped in the URL, never re-encoded. A
// request that a proxy forwards has the absolute form (RFC 7230 §5.3.2).
func (h *Handler) newRequest(loc *URL, req *schemes.Request, user, pass string, auth, forwarded bool) *http.Request {
	u := &url.URL{Scheme: loc.g.Scheme, Host: loc.HostHeader(), Opaque: "/" + loc.Path}
	if forwarded || strings.HasPrefix(loc.Path, "/") {
		u.Opaque = "//" + u.Host + "/" + loc.Path // RequestURI makes it scheme:Opaque
	}
	if loc.Search != nil {
		u.RawQuery, u.ForceQuery = *loc.Search, *loc.Search == ""
	}
	hdr := http.Header{"User-Agent": {h.userAgent()}}
	if req.Offset > 0 {
		hdr.Set("Range", "bytes="+strconv.FormatInt(req.Offset, 10)+"-")
		if !req.ResumeModTime.IsZero() {
			hdr.Set("If-Range", req.ResumeModTime.UTC().Format(http.TimeFormat))
		}
	}
	r := &http.Request{Method: http.MethodGet, URL: u, Host: u.Host, Header: hdr,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}
	if auth {
		r.SetBasicAuth(user, pass)
	}
	return r
}

// clientTrace reports the exchange: the request line and each header as
// net/http writes it (Authorization and Proxy-Authorization redacted: their
// base64 would show the password), and notes about the connection. net/http
// may call these from its own goroutines; schemes.Trace implementations
// are safe for that.
func clientTrace(tr schemes.Trace, r *http.Request) *httptrace.ClientTrace {
	line := r.Method + " " + r.URL.RequestURI() + " " + r.Proto
	return &httptrace.ClientTrace{
		GotConn: func(ci httptrace.GotConnInfo) {
			// The Dialer reports new connections; only reuse is news here.
			if ci.Reused {
				tr.Info("reusing connection to " + ci.Conn.RemoteAddr().String())
			}
			tr.Sent(line)
		},
		TLSHandshakeDone: func(st tls.ConnectionState, err error) {
			if err == nil {
				tr.Info(fmt.Sprintf("TLS %s, %s", tls.VersionName(st.Version), tls.CipherSuiteName(st.CipherSuite)))
			}
		},
		WroteHeaderField: func(key string, values []string) {
			for _, v := range values {
				if strings.EqualFold(key, "Authorization") || strings.EqualFold(key, "Proxy-Authorization") {
					scheme, _, _ := strings.Cut(v, " ")
					v = scheme + " " + schemes.Redacted
				}
				tr.Sent(key + ": " + v)
			}
		},
	}
}

// traceResponse reports the status line and the headers, sorted by name.
func traceResponse(tr schemes.Trace, resp *http.Response) {
	tr.Received(resp.Proto + " " + resp.Status)
	keys := make([]string, 0, len(resp.Header))
	for k := range resp.Header {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range resp.Header[k] {
			tr.Received(k + ": " + v)
		}
	}
}

// discard closes a body that is not returned, after reading a little of it
// so that the connection can be reused.
func discard(b io.ReadCloser) {
	io.CopyN(io.Discard, b, 64<<10)
	b.Close()
}
