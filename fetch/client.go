// Package fetch is urlget's public library. A caller starts with a Client
// (the zero value is ready) and a URL of any scheme:
//
//	var c fetch.Client
//	resp, err := c.Get(ctx, "gopher://gopher.example/0/about.txt")
//	if err != nil {
//		return err // a *schemes.Error; its Kind says what failed
//	}
//	defer resp.Close()
//	_, err = io.Copy(os.Stdout, resp.Body)
//
// Likewise c.Download(ctx, url, file, fetch.DownloadOptions{}) writes a
// file safely, c.List(ctx, url) streams the entries of a directory, menu,
// group or search, and c.Stat(ctx, url) describes a resource without
// retrieving it. Each is a thin wrapper over one request type: a Request
// (a parsed URL, an Entry's Locator, and what to ask of it: a Method, a
// byte to start at, a listing's word on it) carried out by Client.Do, or
// into a file by Client.DownloadRequest. The examples run each of them on
// a file: URL.
//
// A Client retrieves any URL of RFC 1738 by handing it to its scheme's
// handler, and applies the policy that handlers leave to their caller —
// following redirects and referrals, retrying what may succeed on a second
// try, resuming, limits, and writing files safely.
//
// The split follows net/http: handlers (like http.Transport) carry out one
// access algorithm on connections; the Client (like http.Client) decides
// what to do with the outcome.
//
// Files (Client.Download has the details): a regular file NAME is written
// through NAME.part beside it, held under an exclusive lock, and renamed
// to NAME only when complete and checked, so an existing NAME is
// never harmed by a download that fails; a failure keeps NAME.part for
// Resume to continue. NAME and NAME.part are never written through a
// symbolic link. A destination that is not a regular file (a device, a
// FIFO, a terminal, /dev/stdout) is written in place and never replaced.
//
// Bodies are copied in passes of at most 1 MiB that keep the kernel's
// splice(2), sendfile(2) and copy_file_range(2) where the source and
// destination allow them; between passes the copy reports progress (at
// least every 250 ms while data flows) and applies LimitRate and
// MaxFileSize. Client.CopyBody gives a body copied anywhere else (standard
// output) the same checks and limits.
package fetch

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// DefaultMaxRedirects is how many redirects or referrals a Client follows
// when MaxRedirects is zero.
const DefaultMaxRedirects = 10

// Client retrieves URLs. The zero value is usable: it parses with
// NewRegistry's schemes, dials with a transport.Dialer with default
// timeouts and proxies from the environment, follows up to 10 redirects to
// retrieval schemes only, and does not retry. A Client is safe for
// concurrent use.
//
// Policy lives here and nowhere else: which schemes a URL and a redirect
// may use (Protocols, RedirectProtocols, CheckRedirect), which hosts get
// the user's credentials (Credentials, LocationTrusted), retries and
// resuming. Handlers carry out one access algorithm and report what the
// server said.
type Client struct {
	// Registry parses URLs and supplies their handlers; nil means
	// NewRegistry(Config{}).
	Registry *schemes.Registry
	// Dialer opens every connection; nil means a transport.Dialer with
	// proxies from the environment. A Dialer holds the TLS settings of the
	// connections it makes (transport.Dialer.TLS), unless TLS below is set.
	// A *transport.Dialer without Ports dials with the Registry's (in a
	// copy the Client makes once), so that the port policy lets each
	// scheme use the restricted ports its declaration owns.
	Dialer schemes.Dialer
	// Conns keeps idle protocol sessions (FTP control connections, NNTP,
	// WAIS) between requests, each under a key of its dialer, TLS
	// settings, server and login; nil means a transport.Pool of the
	// Client's own with the default limits (MaxIdleConnsPerHost raises
	// them). Clients may share one.
	Conns schemes.Conns
	// MaxIdleConnsPerHost bounds the idle connections the Client's own
	// pool (the one used when Conns is nil) keeps per server and login:
	// FTP, NNTP and WAIS sessions, and HTTP keep-alive connections per
	// host, which the http handler keeps by the same limits. 0 means
	// transport.DefaultMaxIdlePerKey (16). A caller that runs N requests
	// to one server at once, N above that, sets it to N, so that every
	// connection they give back is kept for the next request rather than
	// closed (and, for FTP, logged in again). The idle connections of all
	// servers together are bounded by the larger of it and
	// transport.DefaultMaxIdle. It is read when the pool is first used;
	// a Conns of the caller's has its own limits (transport.Pool's
	// MaxIdlePerKey), which the http handler follows likewise.
	MaxIdleConnsPerHost int
	// Trace receives the protocol exchange; nil discards it.
	Trace schemes.Trace
	// TLS, if set, is the TLS configuration of every connection the
	// Client makes — TLS schemes, upgrades (FTP AUTH TLS and its data
	// connections, NNTP and SMTP STARTTLS) and the handshake with an https
	// proxy — as net/http's Transport.TLSClientConfig is: verification,
	// trusted roots, client certificate, versions. The Client dials with a
	// copy of its Dialer (a *transport.Dialer, or the default one) whose
	// TLS is this; with a Dialer of another type, which must hold its TLS
	// settings itself, every connection fails with KindUsage rather than
	// be checked otherwise than asked. nil leaves the Dialer's settings
	// (by default the system's roots, verified, TLS 1.2 at least). It must
	// not be modified after use; the Client never modifies it.
	TLS *tls.Config
	// Credentials supplies a user and password when a URL has none (-u,
	// netrc). They are given only to the scheme, host and port of the URL
	// the caller named, never to a host a redirect leads to, unless
	// LocationTrusted is set.
	Credentials schemes.Credentials
	// LocationTrusted sends Credentials to every host a redirect leads to
	// (curl's --location-trusted).
	LocationTrusted bool
	// Netrc supplies logins by host when neither the URL nor Credentials
	// has one (curl's --netrc, --netrc-file), under the same rule as
	// Credentials: only at the URL the caller named, unless
	// LocationTrusted. nil reads no netrc.
	Netrc *Netrc
	// RequireTLS refuses clear text (curl's --ssl-reqd): a scheme whose
	// Caps lack TLS fails before it dials, as KindSafety, unless it opens
	// no connection (Local) or its connections are always encrypted by
	// other means (Encrypted: sftp over SSH); the others get
	// Request.RequireTLS, and upgrade (FTP AUTH TLS, NNTP and SMTP
	// STARTTLS) or fail.
	RequireTLS bool
	// Prompt asks at the terminal; nil means there is none.
	Prompt schemes.Prompter
	// NoAmbientCredentials keeps handlers from logging in with what the
	// user's environment holds without naming it for a request — the SSH
	// agent's keys, the default identity files — as a gateway that
	// retrieves the URLs others name must (Request.NoAmbientCredentials).
	// Credentials given (Credentials, Netrc, a scheme's key option) are
	// not affected: their own policy applies.
	NoAmbientCredentials bool
	// Protocols are the schemes the caller's URLs may use (curl's --proto);
	// nil allows every registered scheme.
	Protocols Protocols
	// RedirectProtocols are the schemes a redirect may lead to (curl's
	// --proto-redir); nil allows the schemes whose Caps are Redirectable
	// (DefaultRedirectProtocols: curl's http, https, ftp and ftps), and
	// a scheme's redirect within itself where its Caps say
	// RedirectsWithin (gemini to gemini).
	RedirectProtocols Protocols
	// CheckRedirect, if set, is asked about every redirect the other rules
	// allow, like net/http's: from is the URL that answered with a
	// redirect to to, after hops earlier redirects. It is asked about a
	// resolution too (Prospero's: from resolved to to, after hops
	// resolutions), which RedirectProtocols do not limit. An error stops the
	// retrieval with that error.
	CheckRedirect func(from, to schemes.Locator, hops int) error
	// MaxRedirects limits redirects and referrals; 0 means 10, negative
	// means none are followed (the redirect is returned as an error).
	MaxRedirects int
	// Retries is how many more times a retryable failure is tried.
	Retries int
	// RetryDelay is the first wait between tries; it doubles each time, up
	// to 10 minutes. 0 means one second. A server's Retry-After, when
	// longer, is honoured instead (up to the same 10 minutes).
	RetryDelay time.Duration
	// MaxTime bounds each attempt (curl's -m, --max-time): one try of the
	// request and its transfer — for Download and Stream the copy of the
	// body, for Get and List the reading of the Body or Listing until the
	// Response is closed. An attempt it cuts short fails as KindTimeout,
	// retryable, with a *MaxTimeExpired in its chain. 0 means no bound.
	MaxTime time.Duration
	// RetryMaxTime bounds retrying (curl's --retry-max-time): no try
	// starts once this long has passed since the first began, nor when
	// the wait before it would pass it. A try already running is not cut
	// short (MaxTime bounds it). 0 means no bound.
	RetryMaxTime time.Duration
	// SettingName spells the Client's settings (the Setting constants:
	// SettingMaxTime, SettingRetryMaxTime) in the caller's words, in the
	// messages the Client makes itself (MaxTimeExpired, a retry's note):
	// a command gives its flags ("--max-time"). nil, or "" for a setting,
	// spells it as its constant ("fetch.MaxTime"). Errors name the setting
	// that decided them in schemes.Error.Setting as well, for a caller to
	// word.
	SettingName func(setting string) string
	// Notify receives notes a person should see (a retry, a partial copy
	// started over); nil discards them. Redirects followed go to Trace.
	Notify func(msg string)
	// LimitRate caps the average rate at which bodies are copied, in
	// bytes per second (curl's --limit-rate), by Download and CopyBody: the
	// copy sleeps (a quarter second at most at a time, and not past ctx)
	// whenever it is ahead of the average since it began. A caller reading
	// a Get's Response.Body itself reads at the server's pace. 0 means no
	// cap.
	LimitRate int64
	// MaxFileSize refuses a resource larger than this many bytes (curl's
	// --max-filesize), in Download and CopyBody, as KindSafety (exit 7):
	// before anything is written when the server announces the size, else
	// as soon as one byte more than the limit arrives — no byte past the
	// limit is written, and Download removes what it wrote. 0 means no
	// limit.
	MaxFileSize int64

	pool transport.Pool // Conns when nil
	// sizePool gives pool its limits (MaxIdleConnsPerHost) before its
	// first use: a Pool's fields must not change once it is in use.
	sizePool sync.Once
	// dialers keeps the copy of the Dialer that carries TLS and port
	// facts (dialer).
	dialers dialerCopies
	// keepRedirects returns a redirect or resolution a handler found,
	// once the redirect policy allows it, instead of following it: set
	// on the RoundTripper's clone only, so that http.Client's policy
	// decides (kept).
	keepRedirects bool
}

// Response is a retrieved resource. Close it (Close), which also ends the
// attempt's MaxTime.
type Response struct {
	*schemes.Response
	// URL is the URL the resource came from, after redirects.
	URL schemes.Locator
	// Redirects is how many redirects were followed to reach URL (curl's
	// num_redirects); a resolution (prospero) is not one.
	Redirects int
	// RedirectHeads are the heads of the redirects followed, in order,
	// where the handler kept them (schemes.Response.Head: HTTP's Stat),
	// for a caller that shows every hop as curl -IL does.
	RedirectHeads []string

	release func() // ends the attempt that is reading the Response (MaxTime)
	closed  bool
	// first is the first byte of the byte range the Request asked for
	// (0 for the whole resource): where CopyBody counts the bytes of the
	// range from, for progress, MaxFileSize and the size check.
	first int64
}

func (c *Client) registry() *schemes.Registry {
	if c.Registry != nil {
		return c.Registry
	}
	return defaultRegistry()
}

func (c *Client) conns() schemes.Conns {
	if c.Conns != nil {
		return c.Conns
	}
	c.sizePool.Do(func() {
		if n := c.MaxIdleConnsPerHost; n > 0 {
			c.pool.MaxIdlePerKey, c.pool.MaxIdle = n, max(n, transport.DefaultMaxIdle)
		}
	})
	return &c.pool
}

func (c *Client) trace() schemes.Trace {
	if c.Trace != nil {
		return c.Trace
	}
	return schemes.NopTrace{}
}

// word is setting in the caller's words (SettingName).
func (c *Client) word(setting string) string {
	if c.SettingName != nil {
		if w := c.SettingName(setting); w != "" {
			return w
		}
	}
	return setting
}

func (c *Client) notify(format string, args ...any) {
	if c.Notify != nil {
		c.Notify(fmt.Sprintf(format, args...))
	}
}

// Parse reads raw with the Client's registry.
func (c *Client) Parse(raw string) (schemes.Locator, error) { return c.registry().Parse(raw) }

// Explain returns the plan raw's handler would carry out, without I/O.
func (c *Client) Explain(raw string) ([]string, error) {
	req, err := c.NewRequest(MethodGet, raw)
	if err != nil {
		return nil, err
	}
	return c.ExplainRequest(req)
}

// ExplainRequest returns the plan req's handler would carry out (with its
// byte range and time conditions), without I/O.
func (c *Client) ExplainRequest(req *Request) ([]string, error) {
	r := *req
	if err := checkRange(&r); err != nil {
		return nil, err
	}
	loc := r.URL
	if err := c.allowed(loc); err != nil {
		return nil, err
	}
	s, err := c.scheme(loc, r.method())
	if err == nil {
		err = rangeCaps(s, loc, &r)
	}
	if err != nil {
		return nil, err
	}
	// The plan names the login the policy would give the handler (-u,
	// netrc); its password is never shown.
	return s.Handler.(schemes.Explainer).Explain(c.request(r, c.credentialsFor(&chain{first: loc}, loc)))
}

// Caps returns what the scheme of loc can do (0 for a scheme urlget only
// parses).
func (c *Client) Caps(loc schemes.Locator) schemes.Caps {
	s, _ := c.registry().Lookup(loc.Generic().Scheme)
	return s.Caps
}

// scheme returns the registered scheme of loc if it can do m.
func (c *Client) scheme(loc schemes.Locator, m Method) (schemes.Scheme, error) {
	g := loc.Generic()
	s, ok := c.registry().Lookup(g.Scheme)
	need, what := schemes.Retrieves, "retrieving"
	switch m {
	case MethodList:
		need, what = schemes.Lists, "listing"
	case MethodStat:
		need, what = schemes.Stats, "describing (stat)"
	}
	if !ok || s.Handler == nil || (m != MethodGet && !s.Caps.Has(need)) {
		msg := fmt.Sprintf("%s %s: URLs is not supported", what, g.Scheme)
		if ok && s.Handler == nil {
			msg += " yet"
		}
		return s, &schemes.Error{Scheme: g.Scheme, Phase: "fetch", Kind: schemes.KindUnsupported,
			URL: loc.Redacted(), Part: "scheme", Msg: msg}
	}
	return s, c.requireTLS(s, loc)
}

// request is the handler's request for r at r.URL (a hop of a redirect
// chain, which follow sets), with creds, what the policy gives it there.
func (c *Client) request(r Request, creds schemes.Credentials) *schemes.Request {
	return &schemes.Request{
		URL: r.URL, Dialer: c.dialer(), Conns: c.conns(), Trace: c.trace(),
		Offset: r.Offset, Partial: r.Partial, Length: r.Length, Suffix: r.Suffix, Ranges: r.Ranges,
		WantModTime: r.WantModTime, Listed: r.Listed, Exact: r.Exact,
		IfModifiedSince: r.IfModifiedSince, IfUnmodifiedSince: r.IfUnmodifiedSince, ErrorPages: r.ErrorPages,
		Credentials: creds, Prompt: c.Prompt, RequireTLS: c.RequireTLS, Notify: c.Notify, Page: r.Page,
		Browse:               r.Browse && r.Method != MethodList,
		NoAmbientCredentials: c.NoAmbientCredentials,
	}
}

// do carries out r with retries, following redirects under the Client's
// policy, and scrubs every password it handled from the error.
func (c *Client) do(ctx context.Context, r Request) (*Response, error) {
	var resp *Response
	rs := c.newRetries()
	err := c.retryUnder(ctx, rs, func(ctx context.Context, hold func(*Response)) error {
		got, err := c.once(ctx, r)
		if err == nil {
			r.answered(got)
			err = rs.page(got)
		}
		if err == nil {
			hold(got) // the caller reads it after this attempt returns
		}
		resp = got
		return err
	}, nil)
	if err != nil {
		return nil, err
	}
	return resp, nil
}

// once is one attempt of do, without retries: for a caller that retries
// itself (Download, which continues what it holds between attempts), so
// that retries are made in one layer and --retry N means N+1 attempts.
func (c *Client) once(ctx context.Context, req Request) (*Response, error) {
	if err := c.allowed(req.URL); err != nil {
		return nil, err
	}
	if err := checkRange(&req); err != nil {
		return nil, err
	}
	ch := &chain{first: req.URL}
	r, err := c.follow(ctx, req, ch)
	// Handlers name no URL: the errors of r's Body and Listing name
	// r.URL, as follow names loc in the request's own (withURL).
	named(r)
	if err == nil {
		if err = c.shape(&req, r); err != nil {
			r.Close()
			r = nil
		}
	}
	return r, ch.scrub(err) // before a retry's note shows it
}

// chain is what one call learns while it follows redirects: the URL the
// caller named, and every password handed to a handler (to scrub errors).
type chain struct {
	first schemes.Locator

	mu      sync.Mutex
	secrets []string
}

// scrub hides every password of the chain in err's text.
func (ch *chain) scrub(err error) error {
	if err == nil {
		return nil
	}
	ch.mu.Lock()
	defer ch.mu.Unlock()
	return schemes.ScrubSecrets(err, ch.secrets...)
}

func (ch *chain) secret(s string) {
	if s == "" {
		return
	}
	ch.mu.Lock()
	ch.secrets = append(ch.secrets, s)
	ch.mu.Unlock()
}

// follow does req and follows redirects within the Client's limit.
func (c *Client) follow(ctx context.Context, req Request, ch *chain) (*Response, error) {
	loc, m := req.URL, req.method()
	limit := c.MaxRedirects
	if limit == 0 {
		limit = DefaultMaxRedirects
	}
	var resolution []string // the steps of a resolution that led here
	var heads []string      // of the redirects followed (RedirectHeads)
	var statuses []int      // of the redirects followed (schemes.Request.Redirects)
	resolutions := 0
	for hops := 0; ; hops++ {
		s, err := c.scheme(loc, m)
		if err == nil {
			err = rangeCaps(s, loc, &req)
		}
		if err != nil {
			return nil, err
		}
		if p := loc.Generic().Password; p != nil {
			ch.secret(*p)
		}
		req.URL = loc
		hreq := c.request(req, c.credentialsFor(ch, loc))
		hreq.OtherOrigin = originOf(loc) != originOf(ch.first) && !c.LocationTrusted
		hreq.Redirects = statuses
		var r *schemes.Response
		switch m {
		case MethodList:
			r, err = s.Handler.(schemes.Lister).List(ctx, hreq)
		case MethodStat:
			r, err = s.Handler.(schemes.Stater).Stat(ctx, hreq)
		default:
			r, err = s.Handler.Fetch(ctx, hreq)
		}
		if err != nil {
			return nil, withURL(err, loc)
		}
		if c.keepRedirects && hopOf(r) != "" {
			return c.kept(loc, r, hops)
		}
		if res := r.Resolved; res != nil && res.URL != "" {
			next, err := c.resolved(loc, r, resolutions)
			if err != nil || next == nil {
				return &Response{Response: r, URL: loc}, err
			}
			resolution = append(resolution, res.Chain...)
			resolutions++
			hops-- // a resolution is no redirect
			loc = next
			continue
		}
		if r.Redirect == "" {
			if resolution != nil && r.Resolved == nil {
				r.Resolved = &schemes.Resolution{Chain: resolution}
			}
			if r.Failure != nil { // named as a failure of loc is
				r.Failure = ch.scrub(withURL(r.Failure, loc))
			}
			return &Response{Response: r, URL: loc, Redirects: hops, RedirectHeads: heads}, nil
		}
		r.Close()
		if r.Head != "" {
			heads = append(heads, r.Head)
		}
		if hops >= limit {
			return nil, &schemes.Error{Scheme: loc.Generic().Scheme, Phase: "redirect", Kind: schemes.KindProtocol,
				URL: loc.Redacted(), Code: r.Status, Msg: fmt.Sprintf("too many redirects (limit %d)", max(limit, 0))}
		}
		next, err := c.Parse(r.Redirect)
		if err != nil {
			return nil, &schemes.Error{Scheme: loc.Generic().Scheme, Phase: "redirect", Kind: schemes.KindProtocol,
				URL: loc.Redacted(), Code: r.Status, Msg: "server sent an unusable redirect", Err: err}
		}
		if err := c.checkRedirect(loc, next, hops); err != nil {
			return nil, err
		}
		// A redirect is part of the exchange, not news: -v shows it.
		c.trace().Info(fmt.Sprintf("%s: redirected to %s", loc.Redacted(), next.Redacted()))
		statuses = append(slices.Clip(statuses), r.Status) // the request given before keeps its own
		loc = next
	}
}

// maxResolutions bounds resolutions in a row (a resolved URL that
// resolves again): each one has its own limit of hops inside.
const maxResolutions = 5

// resolved checks the URL a resolving scheme resolved loc to: nil and no
// error when it is not to be fetched but reported (an interactive or
// sending scheme: r is returned as it is, for the caller to show).
func (c *Client) resolved(loc schemes.Locator, r *schemes.Response, n int) (schemes.Locator, error) {
	if n >= maxResolutions {
		r.Close()
		return nil, &schemes.Error{Scheme: loc.Generic().Scheme, Phase: "resolve", Kind: schemes.KindProtocol,
			URL: loc.Redacted(), Msg: fmt.Sprintf("more than %d resolutions in a row", maxResolutions)}
	}
	next, err := c.Parse(r.Resolved.URL)
	if err != nil {
		r.Close()
		return nil, &schemes.Error{Scheme: loc.Generic().Scheme, Phase: "resolve", Kind: schemes.KindProtocol,
			URL: loc.Redacted(), Msg: "resolved to an unusable URL", Err: err}
	}
	if caps := c.Caps(next); caps.Has(schemes.Interactive) || caps.Has(schemes.Sends) {
		c.trace().Info(fmt.Sprintf("%s: resolved to %s (not started: %s)", loc.Redacted(), next.Redacted(), caps))
		return nil, nil
	}
	if err := c.checkResolution(loc, next, n); err != nil {
		r.Close()
		return nil, err
	}
	r.Close()
	c.trace().Info(fmt.Sprintf("%s: resolved to %s", loc.Redacted(), next.Redacted()))
	return next, nil
}

func drain(b io.ReadCloser) {
	if b != nil {
		b.Close()
	}
}

// CloseIdleConnections closes the idle connections kept for reuse (the
// Client's own Conns, or those of a shared one that has a CloseIdle
// method; HTTP keep-alive in the http handler), so a caller that is done
// with the Client leaves nothing open.
func (c *Client) CloseIdleConnections() {
	if ci, ok := c.conns().(interface{ CloseIdle() }); ok {
		ci.CloseIdle()
	}
	r := c.registry()
	for _, name := range r.Names() {
		s, _ := r.Lookup(name)
		if h, ok := s.Handler.(interface{ CloseIdleConnections() }); ok {
			h.CloseIdleConnections()
		}
	}
}
