package prospero

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// lastModified is the layout of a LAST-MODIFIED attribute (notes §6).
const lastModified = "20060102150405Z"

// maxForwards bounds the FORWARDED hops of one resolution (the 20;
// not --max-redirs: resolution is its own step).
const maxForwards = 20

// Handler resolves prospero URLs as prospero-notes §8 says, over ARDP:
// an object's access methods become a URL the fetch Client retrieves with
// its own handler (Response.Resolved), PROSPERO-CONTENTS is fetched here,
// and a directory is listed.
type Handler struct {
	// User is the name sent with AUTHENTICATE '' UNAUTHENTICATED; ""
	// means "anonymous".
	User string
	// Local lets the LOCAL access method be used: a path on the server's
	// own host, read as a file: URL, only when the server is this host
	// (a loopback address, "localhost" or this host's name).
	Local bool

	cid   atomic.Uint32 // the last connection id used
	first time.Duration // the ARDP first timeout; 0: firstTimeout (tests shorten it)
	limit time.Duration // one exchange's bound; 0: exchangeTimeout (tests shorten it)
	// words name options and settings in messages as the caller does
	// (the declaration's Values): the LOCAL method's option, the
	// timeouts that ended an exchange.
	words schemes.Words
}

var (
	_ schemes.Handler   = (*Handler)(nil)
	_ schemes.Lister    = (*Handler)(nil)
	_ schemes.Explainer = (*Handler)(nil)
)

// nextCID is a fresh connection id: a random start, then +1, never 0.
func (h *Handler) nextCID() uint16 {
	for {
		old := h.cid.Load()
		n := old + 1
		if old == 0 {
			n = rand.Uint32N(0xffff) + 1
		}
		if n&0xffff == 0 {
			n++
		}
		if h.cid.CompareAndSwap(old, n) {
			return uint16(n)
		}
	}
}

func (h *Handler) user() string {
	if h.User == "" {
		return "anonymous"
	}
	return h.User
}

// server is one Prospero server to ask.
type server struct {
	host string
	port int
}

func (s server) String() string { return netJoin(s.host, s.port) }

func netJoin(host string, port int) string { return net.JoinHostPort(host, strconv.Itoa(port)) }

// Fetch resolves the URL: the resource's bytes (PROSPERO-CONTENTS), a
// directory's listing, or the URL of its access method in Resolved.
func (h *Handler) Fetch(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	p, err := schemes.LocatorOf[*URL](req)
	if err != nil {
		return nil, err
	}
	version := "0"
	if v, ok := p.Field("OBJECT-VERSION"); ok {
		version = v
	} else if v, ok := p.Field("VERSION"); ok {
		version = v
	}
	r := &resolution{h: h, req: req, chain: []string{p.Redacted()}}
	return r.object(ctx, server{p.u.Host, p.u.EffectivePort()}, p.HSOName, version, 0)
}

// List lists the directory the URL names.
func (h *Handler) List(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	p, err := schemes.LocatorOf[*URL](req)
	if err != nil {
		return nil, err
	}
	r := &resolution{h: h, req: req, chain: []string{p.Redacted()}}
	return r.directory(ctx, server{p.u.Host, p.u.EffectivePort()}, p.HSOName)
}

// Explain says what Fetch sends first; what follows depends on the reply.
func (h *Handler) Explain(req *schemes.Request) ([]string, error) {
	p, err := schemes.LocatorOf[*URL](req)
	if err != nil {
		return nil, err
	}
	return []string{
		"send over ARDP (UDP) to " + netJoin(p.u.Host, p.u.EffectivePort()) + ":",
		"  VERSION 5 urlget",
		"  AUTHENTICATE '' UNAUTHENTICATED " + quote(h.user()),
		"  GET-OBJECT-INFO ACCESS-METHOD ASCII " + quote(p.HSOName) + " 0",
		"then, by the reply: fetch the URL of the first supported access method, the contents (GET-OBJECT-INFO CONTENTS), or list it (DIRECTORY + LIST ATTRIBUTES COMPONENTS)",
	}, nil
}

// resolution is one resolution under way.
type resolution struct {
	h     *Handler
	req   *schemes.Request
	chain []string
}

func (r *resolution) note(s string) {
	if r.req.Trace != nil {
		r.req.Trace.Info(s)
	}
}

func (r *resolution) fail(kind schemes.Kind, msg string) error {
	return &schemes.Error{Scheme: "prospero", Phase: "resolve", Kind: kind, Msg: msg}
}

// ask sends the commands to srv after the VERSION and AUTHENTICATE lines
// and returns the parsed reply.
func (r *resolution) ask(ctx context.Context, srv server, commands ...string) (*reply, []byte, error) {
	if r.req.Dialer == nil {
		return nil, nil, r.fail(schemes.KindOther, "no Dialer in the request")
	}
	tr := schemes.NewScope(r.req.Trace)
	tctx := schemes.WithTrace(ctx, tr)
	c, err := r.req.Dialer.DialDatagram(tctx, "prospero", srv.host, srv.port)
	if err != nil {
		return nil, nil, err
	}
	msg := "VERSION 5 urlget\nAUTHENTICATE '' UNAUTHENTICATED " + quote(r.h.user()) + "\n" + strings.Join(commands, "\n") + "\n"
	for _, l := range commands {
		tr.Sent(l)
	}
	a := &ardpClient{c: c, note: tr.Info, first: r.h.first, limit: r.h.limit, words: r.h.words, redial: func(ctx context.Context, to netip.AddrPort) (net.Conn, error) {
		return r.req.Dialer.DialDatagram(tctx, "prospero", to.Addr().String(), int(to.Port()))
	}}
	// The Dialer's timeouts, which the socket carries: connecting a UDP
	// socket waits for nothing, so --connect-timeout bounds the wait for
	// the first packet, and --idle-timeout each wait after it.
	if tc, ok := transport.ConnOf(c); ok {
		a.firstReply, a.idle = tc.FirstReplyTimeout(), tc.IdleTimeout()
	}
	defer func() { a.c.Close() }()
	cid := r.h.nextCID()
	b, err := a.exchange(ctx, cid, []byte(msg))
	if err != nil {
		return nil, nil, r.ioError(err)
	}
	rp, err := parseReply(b)
	if err != nil {
		return nil, nil, r.fail(schemes.KindProtocol, "unreadable reply: "+err.Error())
	}
	for _, s := range rp.statuses {
		tr.Received(schemes.Printable(s.line, 200))
	}
	tr.Received(fmt.Sprintf("(%d links, %d attributes)", len(rp.links), len(rp.objectAttrs)))
	return rp, b, nil
}

// ioError maps the exchange's errors.
func (r *resolution) ioError(err error) error {
	switch err {
	case errNoReply:
		return &schemes.Error{Scheme: "prospero", Phase: "resolve", Kind: schemes.KindTimeout, Msg: "no reply from the server (ARDP gave up after its retries)", Retryable: true}
	case errRefused:
		return &schemes.Error{Scheme: "prospero", Phase: "resolve", Kind: schemes.KindBusy, Msg: err.Error()}
	}
	return schemes.IOError("prospero", "resolve", err)
}

// failure maps a FAILURE or ERROR status of the request about hsoname on
// srv to its error (NOT-FOUND exit 3, NOT-AUTHORIZED and
// AUTHENTICATION-REQUIRED exit 4, the rest exit 6), naming the hsoname
// asked; nil for none.
func (r *resolution) failure(rp *reply, srv server, hsoname string) error {
	for _, s := range rp.statuses {
		switch s.word {
		case "FAILURE":
			code := ""
			if len(s.args) > 0 {
				code = s.args[0]
			}
			kind := schemes.KindProtocol
			switch code {
			case "NOT-FOUND":
				kind = schemes.KindNotFound
			case "NOT-AUTHORIZED", "AUTHENTICATION-REQUIRED":
				kind = schemes.KindPermission
			}
			msg := answered(s, hsoname)
			if code == "NOT-AUTHORIZED" && !strings.HasPrefix(hsoname, "/") {
				msg += relativeHint(srv, hsoname)
			}
			return r.fail(kind, msg)
		case "ERROR", "VERSION-NOT-SUPPORTED":
			return r.fail(schemes.KindProtocol, answered(s, hsoname))
		}
	}
	return nil
}

// answered is the server's status line s, and the hsoname it answers.
func answered(s status, hsoname string) string {
	return fmt.Sprintf("the server answered %s for the hsoname %q", schemes.Printable(s.line, 200), hsoname)
}

// relativeHint explains a NOT-AUTHORIZED of an hsoname without a leading
// "/": "prospero://host/srv/x" asks for "srv/x", whereas servers export
// absolute paths, which a URL writes after a double slash (RFC 1738
// §3.11: the hsoname follows the host's "/"), and shows that URL.
func relativeHint(srv server, hsoname string) string {
	host := srv.host
	if srv.port != schemes.PortOf(declared, "prospero") {
		host = netJoin(srv.host, srv.port)
	} else if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	abs := "prospero://" + host + "/" + schemes.Escape("/"+hsoname, hsonameReserved)
	return fmt.Sprintf(` (an hsoname is a path from the server's root, and this one does not start with "/": `+
		`the URL of the absolute path has a double slash: %s)`, abs)
}

func statusOf(rp *reply, word string) (status, bool) {
	for _, s := range rp.statuses {
		if s.word == word {
			return s, true
		}
	}
	return status{}, false
}

// object resolves hsoname on srv (notes §8).
func (r *resolution) object(ctx context.Context, srv server, hsoname, version string, hops int) (*schemes.Response, error) {
	rp, _, err := r.ask(ctx, srv, "GET-OBJECT-INFO ACCESS-METHOD ASCII "+quote(hsoname)+" "+quote(version))
	if err != nil {
		return nil, err
	}
	if f := r.failure(rp, srv, hsoname); schemes.KindOf(f) == schemes.KindNotFound {
		// The ISI server answers ACCESS-METHOD alone NOT-FOUND for native
		// files (notes §9.2): ask for everything once.
		r.note("NOT-FOUND for ACCESS-METHOD alone: asking again with #ALL (a known server bug)")
		if rp, _, err = r.ask(ctx, srv, "GET-OBJECT-INFO #ALL ASCII "+quote(hsoname)+" "+quote(version)); err != nil {
			return nil, err
		}
	}
	if fw, ok := statusOf(rp, "FORWARDED"); ok {
		if hops >= maxForwards {
			return nil, r.fail(schemes.KindProtocol, fmt.Sprintf("more than %d FORWARDED hops", maxForwards))
		}
		if len(fw.args) < 4 {
			return nil, r.fail(schemes.KindProtocol, "unreadable "+schemes.Printable(fw.line, 200))
		}
		next := serverOf(fw.args[1], srv)
		r.note(fmt.Sprintf("forwarded to %s %s", next, fw.args[3]))
		r.chain = append(r.chain, "FORWARDED "+next.String()+" "+fw.args[3])
		return r.object(ctx, next, fw.args[3], version, hops+1)
	}
	if err := r.failure(rp, srv, hsoname); err != nil {
		if schemes.KindOf(err) == schemes.KindNotFound {
			if resp, ok, lerr := r.viaParent(ctx, srv, hsoname, hops); ok || lerr != nil {
				return resp, lerr
			}
		}
		return nil, err
	}
	if _, ok := statusOf(rp, "NONE-FOUND"); ok || len(accessMethods(rp.objectAttrs)) == 0 {
		return r.directory(ctx, srv, hsoname)
	}
	return r.pick(ctx, srv, hsoname, accessMethods(rp.objectAttrs), srv.host)
}

// viaParent resolves hsoname as a link of its parent directory, for
// names that are no object of their own (a virtual directory's EXTERNAL
// links, notes §8): DIRECTORY <parent> + LIST ATTRIBUTES COMPONENTS
// <last>. ok is false when the parent has no such link.
func (r *resolution) viaParent(ctx context.Context, srv server, hsoname string, hops int) (*schemes.Response, bool, error) {
	i := strings.LastIndexByte(strings.TrimSuffix(hsoname, "/"), '/')
	if i <= 0 {
		return nil, false, nil
	}
	parent, last := hsoname[:i], strings.TrimSuffix(hsoname[i+1:], "/")
	r.note("no object " + hsoname + ": looking for a link " + last + " in " + parent)
	rp, _, err := r.ask(ctx, srv, "DIRECTORY ASCII "+quote(parent), "LIST ATTRIBUTES COMPONENTS "+quote(last))
	if err != nil {
		return nil, false, err
	}
	if r.failure(rp, srv, parent) != nil || len(rp.links) == 0 {
		return nil, false, nil
	}
	l := rp.links[0]
	r.chain = append(r.chain, "LINK "+l.target+" "+l.name)
	next := serverOf(l.host, srv)
	if l.target == "EXTERNAL" {
		resp, err := r.pick(ctx, next, l.hsoname, accessMethods(l.attrs), l.host)
		return resp, true, err
	}
	if hops >= maxForwards {
		return nil, true, r.fail(schemes.KindProtocol, fmt.Sprintf("more than %d hops", maxForwards))
	}
	resp, err := r.object(ctx, next, l.hsoname, "0", hops+1)
	return resp, true, err
}

// pick takes the first supported access method (FTP last).
func (r *resolution) pick(ctx context.Context, srv server, hsoname string, methods [][]string, defHost string) (*schemes.Response, error) {
	var ftp []string
	var whys []string
	for _, m := range methods {
		if m[0] == methodFTP {
			ftp = m // needs a login: least preferred
			continue
		}
		if m[0] == methodContents {
			return r.contents(ctx, srv, hsoname)
		}
		if m[0] == methodLocal {
			u, why := localURL(m, srv.host, hsoname, r.h.Local, r.h.words)
			if u != "" {
				return r.resolved(m, u), nil
			}
			whys = append(whys, why)
			continue
		}
		u, why := methodURL(m, defHost, hsoname)
		if u != "" {
			return r.resolved(m, u), nil
		}
		whys = append(whys, why)
	}
	if ftp != nil {
		if u, _ := methodURL(ftp, defHost, hsoname); u != "" {
			return r.resolved(ftp, u), nil
		}
	}
	return nil, r.fail(schemes.KindUnsupported, "no access method urlget can use: "+strings.Join(whys, "; "))
}

// resolved is the response naming the URL an access method gives.
func (r *resolution) resolved(m []string, u string) *schemes.Response {
	r.chain = append(r.chain, "ACCESS-METHOD "+methodText(m), u)
	r.note("resolved to " + u)
	return &schemes.Response{Resolved: &schemes.Resolution{URL: u, Chain: r.chain}, Size: -1}
}

// contents fetches PROSPERO-CONTENTS: the object's bytes, de-quoted.
func (r *resolution) contents(ctx context.Context, srv server, hsoname string) (*schemes.Response, error) {
	rp, _, err := r.ask(ctx, srv, "GET-OBJECT-INFO CONTENTS ASCII "+quote(hsoname)+" 0")
	if err != nil {
		return nil, err
	}
	if err := r.failure(rp, srv, hsoname); err != nil {
		return nil, err
	}
	for _, a := range rp.objectAttrs {
		if a.name == "CONTENTS" && len(a.values) >= 2 && a.values[0] == "DATA" {
			b := []byte(a.values[1])
			r.chain = append(r.chain, "PROSPERO-CONTENTS")
			return &schemes.Response{Body: io.NopCloser(bytes.NewReader(b)), Kind: schemes.EntryFile, Size: int64(len(b)), Resolved: &schemes.Resolution{Chain: r.chain}}, nil
		}
	}
	return nil, r.fail(schemes.KindNotFound, "the server sent no CONTENTS (a directory?)")
}

// directory lists hsoname on srv: its links as entries.
func (r *resolution) directory(ctx context.Context, srv server, hsoname string) (*schemes.Response, error) {
	rp, _, err := r.ask(ctx, srv, "DIRECTORY ASCII "+quote(hsoname), "LIST ATTRIBUTES COMPONENTS")
	if err != nil {
		return nil, err
	}
	if s, ok := statusOf(rp, "FAILURE"); ok && len(s.args) > 0 && s.args[0] == "NOT-A-DIRECTORY" {
		return nil, r.fail(schemes.KindNotFound, "nothing urlget can fetch: the object has no access method and is no directory")
	}
	if err := r.failure(rp, srv, hsoname); err != nil {
		return nil, err
	}
	var entries []schemes.Entry
	for _, l := range rp.links {
		entries = append(entries, r.linkEntry(srv, hsoname, l))
	}
	return &schemes.Response{Listing: schemes.ListingOf(entries), Kind: schemes.EntryDir, Size: -1, Resolved: &schemes.Resolution{Chain: r.chain}}, nil
}

// serverOf reads a link's "host(port)", defaulting to srv's port.
func serverOf(h string, srv server) server {
	if i := strings.IndexByte(h, '('); i > 0 && strings.HasSuffix(h, ")") {
		if p, err := strconv.Atoi(h[i+1 : len(h)-1]); err == nil {
			return server{strings.ToLower(h[:i]), p}
		}
	}
	return server{strings.ToLower(h), schemes.PortOf(declared, "prospero")}
}

// linkEntry is a LINK of the directory dir on srv as an entry: EXTERNAL
// links carry the URL of their access method as Target and, as Locator,
// the prospero URL of the link in dir, which Fetch resolves through the
// directory's listing (a link is no object of its own); others a
// prospero URL of their own.
func (r *resolution) linkEntry(srv server, dir string, l link) schemes.Entry {
	e := schemes.Entry{Title: l.name, Size: -1, Kind: schemes.EntryFile}
	e.SetName(l.name)
	e.Extra.Set("target", l.target)
	if l.target == "DIRECTORY" {
		e.Kind = schemes.EntryDir
	}
	for _, a := range l.attrs {
		if len(a.values) == 0 {
			continue
		}
		switch a.name {
		case "SIZE":
			num, _, _ := strings.Cut(a.values[0], " ") // "52 bytes"
			if n, err := strconv.ParseInt(num, 10, 64); err == nil {
				e.Size = n
			}
		case "LAST-MODIFIED":
			if t, err := time.Parse(lastModified, a.values[0]); err == nil {
				e.ModTime, e.Precision = t, time.Second
			}
		}
	}
	if l.target == "EXTERNAL" {
		for _, m := range accessMethods(l.attrs) {
			if u, _ := methodURL(m, l.host, l.hsoname); u != "" {
				if loc, err := schemes.Parse(u); err == nil {
					e.Kind, e.Target = schemes.EntryLink, loc.String()
					e.Extra.Set("url", loc.String())
				}
				break
			}
		}
		if e.Name != "" { // a name that is one path segment
			e.Locator = locator(srv, strings.TrimSuffix(dir, "/")+"/"+e.Name)
		}
		return e
	}
	e.Locator = locator(serverOf(l.host, srv), l.hsoname)
	return e
}

// locator is the prospero URL of hsoname on s; nil if it does not parse.
func locator(s server, hsoname string) schemes.Locator {
	raw := "prospero://" + netJoin(s.host, s.port) + "/" + schemes.Escape(hsoname, ";")
	if u, err := schemes.Parse(raw); err == nil {
		if p, err := Parse(u); err == nil {
			return p
		}
	}
	return nil
}

// methodText writes an ACCESS-METHOD value as the server does, each
// element a token (two quotes for an empty one), for the chain and the
// trace.
func methodText(m []string) string {
	toks := make([]string, len(m))
	for i, v := range m {
		toks[i] = quote(v)
	}
	return strings.Join(toks, " ")
}
