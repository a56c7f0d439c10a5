package gateway

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/internal/httprange"
	"github.com/urlget/urlget/schemes"
)

// DefaultMaxUpstream is how many upstream retrievals a Server runs at once
// when Options.MaxUpstream is zero.
const DefaultMaxUpstream = 32

// DefaultTimeout bounds one request's upstream work, its transfer
// included, when Options.Timeout is zero.
const DefaultTimeout = 15 * time.Minute

// Options configure a Server.
type Options struct {
	// Client retrieves every URL, under its policy (redirects,
	// credentials, --proto); nil means the zero fetch.Client.
	Client *fetch.Client
	// Hosts are the names the server answers to in the Host header
	// ("127.0.0.1:8070", "localhost:8070"); a gateway address asked for
	// under any other name is refused (421), so that a page whose name
	// was made to resolve to this machine (DNS rebinding) cannot read
	// through the gateway. Empty refuses every origin-form request;
	// HostsFor gives the usual set.
	Hosts []string
	// AllowSend lets the gateway send what a sending scheme's URL (a
	// mailto:) sends: a GET shows a form, and only its POST, from the
	// gateway's own page (a token) and the same origin, sends. Without it
	// such URLs are shown as links.
	AllowSend bool
	// AllowFile lets the gateway read this machine's files (schemes whose
	// Caps are Local: file:); by default anyone who can reach the
	// gateway could otherwise read them.
	AllowFile bool
	// Words, if set, spells a setting of these Options (SettingAllowSend,
	// SettingAllowFile) as the program that runs the gateway names it
	// ("--allow-send"), for the pages that say how to allow what they
	// refuse; nil names the Options field ("AllowSend").
	Words func(setting string) string
	// MaxUpstream caps the retrievals running at once; more wait their
	// turn. 0 means DefaultMaxUpstream.
	MaxUpstream int
	// MaxUpstreamPerHost caps the retrievals running at once for one
	// destination, the host and port of the URL asked for (a URL without
	// one, news:, counts under its scheme), so that a slow or silent
	// server cannot hold every slot of MaxUpstream: requests past it wait
	// for that destination's share while other destinations' proceed. 0
	// means a quarter of MaxUpstream (at least 1); more than MaxUpstream
	// means MaxUpstream.
	MaxUpstreamPerHost int
	// Timeout bounds each request's upstream work, transfer included; 0
	// means DefaultTimeout.
	Timeout time.Duration
	// IdleTimeout closes a keep-alive connection on which no next request
	// began for this long; 0 means DefaultIdleTimeout. It applies to the
	// http.Server of HTTPServer.
	IdleTimeout time.Duration
	// MaxConnsPerClient bounds the connections one client address (an
	// IP address, whatever its port) holds open at once: one more is
	// closed as soon as it is accepted, before anything is read. 0 means
	// DefaultMaxConnsPerClient. It applies to the http.Server of
	// HTTPServer.
	MaxConnsPerClient int
	// Log, if set, gets one line a request (see Operations); nil logs
	// nothing.
	Log *slog.Logger
	// DocumentMaxAge is how long a cache may keep a document the gateway
	// served (Cache-Control: max-age) before it asks again, which the
	// gateway answers from the scheme's stat (304) where it can;
	// ListingMaxAge the same of a listing (a directory, menu, group, a
	// search's hits), HTML or JSON. 0 means DefaultDocumentMaxAge and
	// DefaultListingMaxAge; a negative value, that a cache asks again
	// each time (no-cache). An answer fetched with a login or to a form's
	// words, and every failure, is never stored (no-store).
	DocumentMaxAge, ListingMaxAge time.Duration
}

// Server is the gateway: an http.Handler. Serve it with the http.Server
// HTTPServer returns, which bounds its connections as Options say.
type Server struct {
	c       *fetch.Client
	hosts   map[string]bool
	opt     Options
	slots   *slots
	clients *clients
	timeout time.Duration
	xorigin *http.CrossOriginProtection
	key     []byte // of send tokens
	logins  logins
	// once retrieves what must not happen twice (a mail sent, a form
	// submitted): s.c without retries, since a retry after a failure
	// that came once the server had it all would do it again.
	once *fetch.Client
	ops  ops // readiness, metrics, access log: see ops.go
}

// New returns a Server with opt.
func New(opt Options) *Server {
	s := &Server{hosts: map[string]bool{}, opt: opt, timeout: opt.Timeout,
		xorigin: http.NewCrossOriginProtection(), key: sendKey()}
	if opt.Client == nil {
		opt.Client = &fetch.Client{}
	}
	for _, h := range opt.Hosts {
		s.hosts[strings.ToLower(h)] = true
	}
	// A clone, so that the caller's Client keeps its own policy, with
	// sessions shared.
	s.c = opt.Client.Clone()
	s.c.CheckRedirect = s.refuseSelf(opt.Client.CheckRedirect)
	// Its requests come from browsers: nobody is at a terminal to
	// answer a server's question, and a prompt there would hold the
	// request (the page shows a form, or the failure, instead).
	s.c.Prompt = nil
	// Its visitors name the URLs: the keys of the operator's SSH agent
	// and ~/.ssh are not theirs to log in with.
	s.c.NoAmbientCredentials = true
	if !opt.AllowFile {
		s.c.Registry = withoutLocal(s.c.Registry)
	}
	s.once = s.c.Clone()
	s.once.Retries = 0
	s.slots = newSlots(opt.MaxUpstream, opt.MaxUpstreamPerHost)
	s.clients = &clients{max: cmp.Or(max(opt.MaxConnsPerClient, 0), DefaultMaxConnsPerClient), open: map[string]int{}}
	if s.timeout <= 0 {
		s.timeout = DefaultTimeout
	}
	s.ops.metrics, s.ops.log = newMetrics(s), opt.Log
	return s
}

// HostsFor returns the Host header values a server listening on addr
// answers to: addr itself, and with addr's port every loopback spelling
// (127.0.0.1, localhost, [::1]) when addr is a loopback address or the
// unspecified one (0.0.0.0, [::]: every address of the machine, loopback
// included), followed by names, each given a port when it has none (the
// name --listen was given, the machine's name).
func HostsFor(addr net.Addr, names ...string) []string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return nil
	}
	out := []string{net.JoinHostPort(host, port)}
	if ip := net.ParseIP(host); ip != nil && (ip.IsLoopback() || ip.IsUnspecified()) {
		out = append(out, "127.0.0.1:"+port, "localhost:"+port, "[::1]:"+port)
	}
	for _, n := range names {
		if h, _, err := net.SplitHostPort(n); err == nil {
			n = h
		}
		if n != "" {
			out = append(out, net.JoinHostPort(n, port))
		}
	}
	return out
}

// serve answers one request: the start page, /go and /search, a gateway
// address, or a proxy request in absolute form.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect {
		// Not a general tunnel: a tunnel would carry anything anywhere.
		http.Error(w, "CONNECT is refused: this gateway is not a tunnel; send the request in absolute form (GET gopher://host/ HTTP/1.1), e.g. curl --request-target URL -x http://127.0.0.1:8070", http.StatusMethodNotAllowed)
		return
	}
	proxy := !strings.HasPrefix(r.RequestURI, "/")
	// A browser sends absolute form only to a proxy it was told to use,
	// so only origin-form requests can come from a rebinding page.
	if !proxy && !s.hosts[strings.ToLower(r.Host)] {
		http.Error(w, fmt.Sprintf("this gateway does not answer to the name %q: open it as http://127.0.0.1:PORT/", r.Host), http.StatusMisdirectedRequest)
		return
	}
	// A page of another site may send a person here by a link, and
	// nothing else: see foreign. A proxy request's Fetch Metadata speak
	// of its target's site, not the gateway's.
	if why := foreign(r); why != "" && !proxy {
		s.foreignPage(w, why)
		return
	}
	// Nothing a page of another site sends may change anything here.
	if err := s.xorigin.Check(r); err != nil {
		http.Error(w, "cross-site request refused", http.StatusForbidden)
		return
	}
	if r.Method == http.MethodPost && !proxy {
		if raw, err := URLOf(r); err == nil {
			s.send(w, r, raw)
			return
		}
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, r.Method+" is not supported: the gateway only reads", http.StatusMethodNotAllowed)
		return
	}
	if !proxy {
		switch p := r.URL.Path; p {
		case "/":
			s.startPage(w, r)
			return
		case "/go":
			s.goTo(w, r, r.URL.Query().Get("url"), "")
			return
		case "/search":
			s.goTo(w, r, r.URL.Query().Get("url"), r.URL.Query().Get("q"))
			return
		}
	}
	raw, err := URLOf(r)
	if err != nil {
		http.Error(w, "not a gateway address: use /SCHEME/REST, e.g. /gopher/host:70/1/", http.StatusNotFound)
		return
	}
	s.serveURL(w, r, raw, proxy)
}

// goTo redirects to the gateway address of raw, or of its search for
// words when words is not empty.
func (s *Server) goTo(w http.ResponseWriter, r *http.Request, raw, words string) {
	loc, err := s.c.Parse(strings.TrimSpace(raw))
	if err != nil {
		s.errorPage(w, http.StatusBadRequest, schemes.RedactString(raw), err)
		return
	}
	if words != "" {
		sr, ok := loc.(schemes.Searcher)
		if !ok {
			s.errorPage(w, http.StatusBadRequest, schemes.RedactString(raw), errors.New("this URL takes no search words"))
			return
		}
		if loc, err = sr.WithSearch(words); err != nil {
			s.errorPage(w, http.StatusBadRequest, schemes.RedactString(raw), err)
			return
		}
	}
	if loc.Generic().Password != nil {
		s.logins.remember(loc.Generic())
	}
	addr := LocatorAddress(loc)
	if addr == "" {
		s.errorPage(w, http.StatusBadRequest, schemes.RedactString(raw), errors.New("this URL has no gateway address"))
		return
	}
	seeOther(w, addr)
}

// seeOther redirects (303) to addr, a gateway address, as it is:
// http.Redirect would clean its path, turning the "//" of a news://HOST/
// URL's address (/news///HOST/group) or a selector's "/../" into another
// address, another URL.
func seeOther(w http.ResponseWriter, addr string) {
	w.Header().Set("Location", addr)
	w.WriteHeader(http.StatusSeeOther)
}

// upstreamHeaders go on everything the gateway serves as a server sent
// it: its HTML, whatever it holds, runs in a sandbox (an opaque origin,
// no script, no forms), never in the gateway's origin, and nothing is
// sniffed into a type that could run.
func upstreamHeaders(h http.Header) {
	h.Set("Content-Security-Policy", "sandbox")
	h.Set("X-Content-Type-Options", "nosniff")
}

// pageHeaders go on the gateway's own pages (listings, forms, errors),
// which show what servers sent as escaped text: no script at all, from
// anywhere, and forms that lead only back to the gateway. They are not
// sandboxed, because a sandbox would stop their forms (a search, a
// message to send).
func pageHeaders(h http.Header) {
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
}

// serveURL retrieves raw and answers with it.
func (s *Server) serveURL(w http.ResponseWriter, r *http.Request, raw string, proxy bool) {
	loc, err := s.c.Parse(raw)
	if err != nil {
		s.errorPage(w, http.StatusBadRequest, schemes.RedactString(raw), err)
		return
	}
	noteLocator(r.Context(), loc)
	if g := loc.Generic(); g.Password != nil {
		s.logins.remember(g)
		if a := LocatorAddress(loc); a != "" && !proxy && r.Method == http.MethodGet {
			// Out of the address bar and the history: see logins.
			seeOther(w, a)
			return
		}
	}
	loc = s.withLogin(loc)
	caps := s.c.Caps(loc)
	switch {
	case s.isSelf(loc):
		// The gateway through itself: each level would hold a slot of
		// MaxUpstream while it waits for the next, so that an address
		// nested that deep would stop every other request.
		s.errorPage(w, http.StatusLoopDetected, loc.Redacted(), errors.New("this is the gateway's own address: open it directly"))
		return
	case caps.Has(schemes.Local) && !s.opt.AllowFile:
		s.errorPage(w, http.StatusForbidden, loc.Redacted(), errors.New("local files are not served: start the gateway with "+s.word(SettingAllowFile)+" to allow it"))
		return
	case caps.Has(schemes.Sends) && s.opt.AllowSend && !proxy:
		if comp, ok := loc.(schemes.Composer); ok {
			s.composePage(w, comp, loc) // a GET sends nothing
			return
		}
		s.linkPage(w, loc.Redacted())
		return
	case caps&(schemes.Interactive|schemes.Sends) != 0:
		// Never started nor sent from a GET: the person's own client
		// does that, from a plain link.
		s.linkPage(w, loc.Redacted())
		return
	case formOf(loc) != nil:
		s.askPage(w, r, loc, proxy) // its questions: a GET submits nothing
		return
	}
	ctx, done := s.upstream(w, r, loc)
	if ctx == nil {
		return
	}
	defer done()
	if s.notModified(ctx, w, r, loc, proxy) {
		return // a cache's copy is still the document: nothing fetched
	}
	if r.Method == http.MethodHead && caps.Has(schemes.Stats) {
		s.head(ctx, w, loc, proxy)
		return
	}
	start, end, ranged := httprange.Parse(r.Header.Get("Range"))
	if !caps.Has(schemes.Resumes) || ranged && !s.rangeStillFits(ctx, r, loc) {
		ranged = false
	}
	// The entries' times, as lynx shows them, even where they cost a
	// request (a Gopher+ menu's `$`, whose reply also tells which items
	// ask questions first: their links lead to their forms), and a
	// document's Last-Modified where it costs a command (FTP MDTM).
	// Its own pages browse: a document that is also a page of links
	// comes as its lines and links, which listPage shows as a page with
	// the links leading through the gateway; a proxy's client gets the
	// bytes the server sent.
	req := &fetch.Request{URL: loc, WantModTime: true, Browse: !proxy, IfModifiedSince: s.timeCondition(r, loc)}
	if ranged {
		req.Offset, req.Length = start, httprange.Length(start, end) // the server is asked for these bytes only
	}
	resp, err := s.c.Do(ctx, req)
	noteFirstByte(ctx)
	if reply, ok := httprange.Unsatisfiable(err); ok && ranged {
		w.Header().Set("Content-Range", reply.ContentRange) // past the end, as the scheme said
		w.WriteHeader(reply.Status)
		return
	}
	if err != nil {
		if asksSecret(err) {
			// A form's words go into the URL a GET asks for: the
			// address bar, the history and every log on the way keep
			// them, so a secret is never asked for here.
			s.errorPage(w, statusOf(err), loc.Redacted(), fmt.Errorf("%w; the gateway asks for no secret: its form would put it in a URL, which the address bar, the history and logs keep — give it with your own client", err))
			return
		}
		if su := searchURL(loc); su != "" && schemes.KindOf(err) == schemes.KindUsage {
			s.searchPage(w, loc, su, err) // asked without the words it wants
			return
		}
		status := statusOf(err)
		if errors.Is(err, errSelf) {
			status = http.StatusLoopDetected
		}
		var refused *fetch.RefusedRedirect
		if errors.As(err, &refused) && !proxy {
			s.refusedPage(w, status, loc.Redacted(), refused.To, err)
			return
		}
		s.errorPage(w, status, loc.Redacted(), err)
		return
	}
	defer resp.Close()
	if resp.NotModified {
		s.unchanged(w, loc, validators{mod: resp.ModTime})
		return
	}
	s.cacheAnswer(w.Header(), loc, resp, proxy)
	if res := resp.Resolved; res != nil && res.URL != "" && resp.Body == nil && resp.Listing == nil {
		s.linkPage(w, schemes.RedactString(res.URL)) // resolved to a scheme started by hand
		return
	}
	if resp.Listing != nil {
		if proxy && wantsJSON(r) {
			s.listJSON(w, r, resp.Listing)
			return
		}
		s.listPage(w, r, resp, proxy)
		return
	}
	if !proxy && isMessage(contentType(resp.Response)) {
		s.messagePage(ctx, w, r, loc, resp) // a proxy's client gets the bytes
		return
	}
	s.document(w, r, resp, ranged, start, end)
}

// asksSecret reports whether err is a server asking for input that is a
// secret (a question of kind QuestionPassword on the failure's Form: a
// gemini 11).
func asksSecret(err error) bool {
	var se *schemes.Error
	if !errors.As(err, &se) || se.Form == nil {
		return false
	}
	return slices.ContainsFunc(se.Form.Questions, func(q schemes.Question) bool { return q.Kind == schemes.QuestionPassword })
}

// upstream bounds the upstream work of r, a request for loc: its time
// (Options.Timeout), and how much of it runs at once (MaxUpstream, and
// MaxUpstreamPerHost of loc's destination): it waits for a slot, and
// returns the context to work in and done, which gives the slot back;
// when the time passes before a slot is free it answers 503 itself and
// returns a nil context.
func (s *Server) upstream(w http.ResponseWriter, r *http.Request, loc schemes.Locator) (ctx context.Context, done func()) {
	ctx, cancel := context.WithTimeout(r.Context(), s.timeout)
	dest := destination(loc)
	release, err := s.slots.take(ctx, dest)
	if err != nil {
		cancel()
		http.Error(w, "the gateway is busy: "+err.Error(), http.StatusServiceUnavailable)
		return nil, nil
	}
	ended := noteUpstream(ctx)
	return ctx, func() { ended(); release(); cancel() }
}

// head answers HEAD from the scheme's stat, with the head of the page a
// GET would give where it is one (a directory's, or a message's except
// to a proxy's client, which gets the message itself).
func (s *Server) head(ctx context.Context, w http.ResponseWriter, loc schemes.Locator, proxy bool) {
	resp, err := s.c.Do(ctx, &fetch.Request{Method: fetch.MethodStat, URL: loc})
	if err != nil {
		w.WriteHeader(statusOf(err))
		return
	}
	s.cacheStat(w.Header(), loc, resp, proxy)
	if resp.Kind == schemes.EntryDir || !proxy && isMessage(contentType(resp.Response)) {
		pageHeaders(w.Header())
		w.WriteHeader(http.StatusOK)
		return
	}
	h := w.Header()
	upstreamHeaders(h)
	h.Set("Content-Type", contentType(resp.Response))
	if resp.Size >= 0 {
		h.Set("Content-Length", strconv.FormatInt(resp.Size, 10))
	}
	if !resp.ModTime.IsZero() {
		h.Set("Last-Modified", resp.ModTime.UTC().Format(http.TimeFormat))
	}
	if s.c.Caps(loc).Has(schemes.Resumes) {
		h.Set("Accept-Ranges", "bytes")
	}
	w.WriteHeader(http.StatusOK)
}

// document streams resp's body. A Range asked for is answered with 206
// only when the scheme resumed exactly at its start; otherwise the whole
// resource is sent with 200, which a client must accept (RFC 9110
// §14.2).
func (s *Server) document(w http.ResponseWriter, r *http.Request, resp *fetch.Response, ranged bool, start, end int64) {
	h := w.Header()
	upstreamHeaders(h)
	h.Set("Content-Type", contentType(resp.Response))
	if !resp.ModTime.IsZero() {
		h.Set("Last-Modified", resp.ModTime.UTC().Format(http.TimeFormat))
	}
	if s.c.Caps(resp.URL).Has(schemes.Resumes) {
		h.Set("Accept-Ranges", "bytes")
	}
	reply, err := httprange.Answer(resp.Response, ranged, start, end)
	if err != nil {
		s.errorPage(w, http.StatusBadGateway, resp.URL.Redacted(), err)
		return
	}
	if reply.ContentRange != "" {
		h.Set("Content-Range", reply.ContentRange)
	}
	if reply.Status == http.StatusRequestedRangeNotSatisfiable {
		s.errorPage(w, reply.Status, resp.URL.Redacted(), fmt.Errorf("the resource has %d bytes", resp.Size))
		return
	}
	var body io.Reader = resp.Body
	if reply.Status == http.StatusPartialContent {
		body = io.LimitReader(resp.Body, reply.Length)
	}
	if reply.Length >= 0 {
		h.Set("Content-Length", strconv.FormatInt(reply.Length, 10))
	}
	w.WriteHeader(reply.Status)
	if r.Method == http.MethodHead {
		return
	}
	// A client that goes away fails the write, and its request's context
	// (the upstream's) is cancelled: the transfer stops either way.
	io.CopyBuffer(flusher{w, http.NewResponseController(w)}, body, make([]byte, 256<<10))
}

// flusher sends what each read of the upstream brought at once, so that
// a client sees a slow server's bytes as they come, not when 4 KiB have
// gathered in the ResponseWriter's buffer (or the server went quiet).
type flusher struct {
	w  io.Writer
	rc *http.ResponseController
}

func (f flusher) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if err == nil {
		err = f.rc.Flush()
	}
	return n, err
}

// ReadFrom hands src to the ResponseWriter's own ReadFrom, which writes
// to the client's socket at once, and moves the bytes socket to socket in
// the kernel when src is one (an FTP body's data connection, through
// transport's ReadTo): the gateway then copies nothing through its
// memory.
func (f flusher) ReadFrom(src io.Reader) (int64, error) {
	rf, ok := f.w.(io.ReaderFrom)
	if !ok {
		return io.Copy(struct{ io.Writer }{f}, src)
	}
	if err := f.rc.Flush(); err != nil {
		return 0, err
	}
	return rf.ReadFrom(src)
}

// contentType is the response's media type, told as the Client's
// RoundTripper tells it (fetch.MediaType).
var contentType = fetch.MediaType

// statusOf is the HTTP status of a retrieval's failure, as the
// Client's RoundTripper tells it (fetch.HTTPStatus), but 403 for a login
// refused: the gateway takes no credentials from its clients, so it
// cannot send the challenge that a 401 must carry.
func statusOf(err error) int {
	if status := fetch.HTTPStatus(err); status != http.StatusUnauthorized {
		return status
	}
	return http.StatusForbidden
}

func wantsJSON(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "application/json")
}
