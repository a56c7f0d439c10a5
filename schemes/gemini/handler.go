package gemini

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// Handler retrieves gemini URLs, dialing only through the request's
// Dialer, which makes the TLS handshake with this package's trust on
// first use in place of trusted roots (schemes.TLSVerify). The zero value
// is ready to use; it holds configuration only and is safe for concurrent
// use.
type Handler struct {
	// Input answers a status 10 or 11 (the server asks for input) for a
	// URL that has no query (`--search WORDS`); nil: ask on the terminal,
	// else fail with exit 2.
	Input *string
	// KnownHosts is the file that remembers servers' certificates;
	// "": DefaultKnownHosts.
	KnownHosts string
	// Cert is the client certificate offered when a server asks for one
	// (`--cert FILE`); nil: none, and a 6x status fails.
	Cert *tls.Certificate
	// Now is the clock certificates are judged by; nil: time.Now.
	Now func() time.Time

	words schemes.Words
}

var (
	_ schemes.Handler   = (*Handler)(nil)
	_ schemes.Explainer = (*Handler)(nil)
	_ schemes.Lister    = (*Handler)(nil)
)

// knownHosts is the file in use.
func (h *Handler) knownHosts() string {
	if h.KnownHosts != "" {
		return h.KnownHosts
	}
	return DefaultKnownHosts()
}

func (h *Handler) now() time.Time {
	if h.Now != nil {
		return h.Now()
	}
	return time.Now()
}

// Explain returns the plan: the TLS handshake and its trust rule, the
// request line, and what each status leads to.
func (h *Handler) Explain(req *schemes.Request) ([]string, error) {
	g, err := schemes.LocatorOf[*URL](req)
	if err != nil {
		return nil, err
	}
	line, err := g.RequestLine()
	if err != nil {
		return nil, err
	}
	plan := []string{
		fmt.Sprintf("connect to %s, TLS 1.2 or later, server name %s", g.u.HostPort(), g.u.Host),
		"trust the certificate on first use: remembered in " + h.knownHosts() + "; a changed one refused unless the one remembered expired",
		"send " + strings.TrimSuffix(line, "\r\n"),
		"read the reply header: 2x the body (META its media type), 3x a redirect, 4x/5x/6x a failure",
	}
	if g.Query == nil {
		switch {
		case h.Input != nil:
			plan = append(plan, "on 1x (input), ask again with the query "+escapeQuery(*h.Input))
		default:
			plan = append(plan, "on 1x (input), ask on the terminal, then ask again with the answer as the query")
		}
	}
	return plan, nil
}

// Fetch retrieves req.URL: a 2x reply's body byte for byte, with META's
// media type in Type; a 3x reply as a Redirect (resolved against the
// URL), which the fetch Client polices and follows; a 1x reply asks again
// with the input as the query (Handler.Input or the terminal); 4x, 5x and
// 6x are errors whose kinds give the README's exit statuses.
func (h *Handler) Fetch(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	return h.fetch(ctx, req, false)
}

// List retrieves req.URL and reads a text/gemini body's links as a
// Listing (gemtextListing); another media type is KindUsage, naming the
// path: the URL designates no document of links.
func (h *Handler) List(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	return h.fetch(ctx, req, true)
}

func (h *Handler) fetch(ctx context.Context, req *schemes.Request, asList bool) (*schemes.Response, error) {
	g, err := schemes.LocatorOf[*URL](req)
	if err != nil {
		return nil, err
	}
	for asked := false; ; asked = true {
		c, br, hd, err := h.exchange(ctx, req, g)
		if err != nil {
			return nil, err
		}
		switch hd.Status / 10 {
		case 1:
			c.Close()
			if asked || g.Query != nil {
				return nil, &schemes.Error{Scheme: "gemini", Phase: "reply", Code: hd.Status, Kind: schemes.KindProtocol,
					Msg: fmt.Sprintf("the server asks for input again (%d %s) for a URL that gives it", hd.Status, schemes.Printable(hd.Meta, 200))}
			}
			words, err := h.input(ctx, req, hd)
			if err != nil {
				return nil, err
			}
			loc, _ := g.WithSearch(words)
			g = loc.(*URL)
			continue
		case 2:
			return h.success(ctx, req, g, c, br, hd, asList)
		case 3:
			c.Close()
			to, err := schemes.Resolve(g.String(), hd.Meta)
			if err != nil || hd.Meta == "" {
				return nil, &schemes.Error{Scheme: "gemini", Phase: "reply", Code: hd.Status, Kind: schemes.KindProtocol,
					Msg: "a redirect to no usable URL: " + schemes.Printable(hd.Meta, 200)}
			}
			return &schemes.Response{Redirect: to, Status: hd.Status, Size: -1}, nil
		default:
			c.Close()
			e := statusError(hd)
			if hd.Status/10 == 6 {
				e.Asks = true // for an identity: no failure of the page's
				if h.Cert == nil {
					e.Msg += " (none given: give one with " + h.words.Option("cert") + " FILE)"
				} else {
					e.Msg += " (the one given was not accepted)"
				}
			}
			if hd.Status == statusSlowDown {
				if n, err := strconv.Atoi(hd.Meta); err == nil && n > 0 {
					e.RetryAfter = time.Duration(n) * time.Second
				}
			}
			return nil, e
		}
	}
}

// input is the answer to a 1x: Handler.Input, else the terminal's (not
// echoed for 11), else a usage error naming the option.
func (h *Handler) input(ctx context.Context, req *schemes.Request, hd header) (string, error) {
	if h.Input != nil {
		return *h.Input, nil
	}
	if req.Prompt != nil {
		if s, err := req.Prompt(ctx, schemes.Printable(hd.Meta, 200)+": ", hd.Status == statusSensitiveInput); err == nil {
			return s, nil
		}
	}
	// The question, for a caller with a form of its own: a 11's answer
	// is a secret, which such a caller must not put in a URL it shows.
	q := schemes.Question{Kind: schemes.QuestionText, Prompt: schemes.Printable(hd.Meta, 200)}
	if hd.Status == statusSensitiveInput {
		q.Kind = schemes.QuestionPassword
	}
	return "", &schemes.Error{Scheme: "gemini", Phase: "reply", Code: hd.Status, Kind: schemes.KindUsage, Part: "query",
		Form: &schemes.Form{Questions: []schemes.Question{q}}, Asks: true,
		Msg: fmt.Sprintf("the server asks for input (%s): give it with %s WORDS or in the URL (?words)", schemes.Printable(hd.Meta, 200), h.words.Option("search"))}
}

// success returns a 2x reply: its body, or its links — and for a caller
// that browses (Request.Browse), a text/gemini body as its lines and
// links (gemtextListing), from the same reply.
func (h *Handler) success(ctx context.Context, req *schemes.Request, g *URL, c net.Conn, br *bufio.Reader, hd header, asList bool) (*schemes.Response, error) {
	mt := hd.Meta
	if mt == "" {
		mt = "text/gemini; charset=utf-8" // the specification's default
	}
	body := &bodyReader{ctx: ctx, r: br, c: c}
	resp := &schemes.Response{Type: mt, Size: -1, Status: hd.Status, Kind: schemes.EntryFile, Name: g.LocalName()}
	gemtext := isGemtext(mt)
	if !asList && req.Browse && gemtext && !ranged(req) {
		resp.Listing = gemtextListing(g, body, true)
		return resp, nil
	}
	if !asList {
		resp.Body = body
		return resp, nil
	}
	if !gemtext {
		c.Close()
		return nil, &schemes.Error{Scheme: "gemini", Phase: "list", Kind: schemes.KindUsage, Part: "path",
			Msg: "the URL names a document of type " + schemes.Printable(mt, 100) + ", not a text/gemini page of links"}
	}
	resp.Kind = schemes.EntryDir
	resp.Listing = gemtextListing(g, body, false)
	return resp, nil
}

// isGemtext reports whether the media type mt is text/gemini, whatever
// its parameters.
func isGemtext(mt string) bool {
	base, _, _ := strings.Cut(mt, ";")
	return strings.TrimSpace(strings.ToLower(base)) == "text/gemini"
}

// ranged reports whether req asks for part of the resource: those bytes
// are what it wants, never a page made of them.
func ranged(req *schemes.Request) bool {
	return req.Offset != 0 || req.Length != 0 || req.Suffix != 0 || len(req.Ranges) > 0
}

// exchange dials, makes the TLS handshake with trust on first use, sends
// the request line and reads the reply header.
func (h *Handler) exchange(ctx context.Context, req *schemes.Request, g *URL) (net.Conn, *bufio.Reader, header, error) {
	line, err := g.RequestLine()
	if err != nil {
		return nil, nil, header{}, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, header{}, schemes.IOError("gemini", "dial", err) // canceled: never dial
	}
	if req.Dialer == nil {
		return nil, nil, header{}, &schemes.Error{Scheme: "gemini", Phase: "dial", Kind: schemes.KindOther, Msg: "no Dialer in the request"}
	}
	tr := schemes.NewScope(req.Trace)
	tctx := schemes.WithTrace(ctx, tr)
	raw, err := req.Dialer.Dial(tctx, g.u.Scheme, g.u.Host, g.u.EffectivePort())
	if err != nil {
		return nil, nil, header{}, err
	}
	raw, _ = transport.Bound(ctx, raw)
	file, hostport := h.knownHosts(), g.u.HostPort()
	verify := func(st tls.ConnectionState) error { return trust(file, hostport, h.now(), st) }
	opts := []schemes.TLSOption{schemes.TLSVerify(verify)}
	if h.Cert != nil {
		opts = append(opts, schemes.TLSClientCert(h.Cert))
	}
	// Under the TLS layer, to tell the body's end (close_notify) from
	// a cut (bodyReader).
	raw = &endWatch{Conn: raw}
	c, err := req.Dialer.StartTLS(tctx, raw, g.u.Scheme, g.u.Host, opts...)
	if err != nil {
		raw.Close()
		return nil, nil, header{}, err
	}
	if req.Timeout > 0 {
		c.SetDeadline(time.Now().Add(req.Timeout))
	}
	tr.Sent(strings.TrimSuffix(line, "\r\n"))
	if _, err := io.WriteString(c, line); err != nil {
		c.Close()
		return nil, nil, header{}, schemes.IOError("gemini", "send", err)
	}
	br := bufio.NewReaderSize(c, 64<<10)
	hd, err := parseHeader(br)
	if err != nil {
		c.Close()
		return nil, nil, header{}, schemes.IOError("gemini", "reply", err)
	}
	if req.Timeout > 0 {
		c.SetDeadline(time.Time{})
	}
	tr.Received(fmt.Sprintf("%d %s", hd.Status, schemes.Printable(hd.Meta, 200)))
	return c, br, hd, nil
}

// bodyReader is a reply's body: what follows the header, to the server's
// close, and the connection to close after it. Read errors become
// *schemes.Error.
type bodyReader struct {
	ctx context.Context
	r   io.Reader
	c   net.Conn
}

func (b *bodyReader) Read(p []byte) (int, error) {
	// A canceled fetch fails here, not only when the connection does:
	// a small body is in the buffer whole, with the header.
	if err := b.ctx.Err(); err != nil {
		return 0, schemes.IOError("gemini", "read", err)
	}
	n, err := b.r.Read(p)
	if err == io.EOF {
		if w, ok := transport.Under[*endWatch](b.c); ok && w.cut.Load() {
			// crypto/tls takes an end between two records for a
			// close_notify; a gemini body ends only with one (§4).
			return n, &schemes.Error{Scheme: "gemini", Phase: "read", Kind: schemes.KindConnect, Retryable: true,
				Msg: "the connection ended without TLS close_notify: the body is cut short", Err: io.ErrUnexpectedEOF}
		}
	}
	if err != nil && err != io.EOF {
		return n, schemes.IOError("gemini", "read", err)
	}
	return n, err
}

// endWatch is the connection under TLS, which notes when the server's
// side of it ended (EOF): TLS reads its close_notify before any EOF, so
// an EOF met means the connection was cut.
type endWatch struct {
	net.Conn
	cut atomic.Bool
}

func (w *endWatch) Read(p []byte) (int, error) {
	n, err := w.Conn.Read(p)
	if errors.Is(err, io.EOF) {
		w.cut.Store(true)
	}
	return n, err
}

// NetConn is the connection watched, for transport.Under.
func (w *endWatch) NetConn() net.Conn { return w.Conn }

func (b *bodyReader) Close() error { return b.c.Close() }
