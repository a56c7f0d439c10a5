package gopher

import (
	"bufio"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// Handler retrieves gopher and gophers URLs (RFC 1738 §3.4) with Gopher+
// (views, attributes, +ASK forms), dialing only through the request's
// Dialer. The zero value is ready to use; it holds configuration only and
// is safe for concurrent use.
type Handler struct {
	// Search is used for a type 7 item whose URL has no search
	// (`--search WORDS`); nil: ask on the terminal, else fail with exit 2.
	Search *string
	// Form answers +ASK questions (`--form NAME=VALUE`, `--form-json`),
	// by prompt or 1-based position; unanswered ones are asked on the
	// terminal or take their default.
	Form Answers
	// Views lists the views of the item (from its +VIEWS attribute block)
	// instead of retrieving it (`--views`).
	Views bool
	// Unstuff drops the first "." of text lines starting with ".." in
	// plain (non-Gopher+) type 0 replies, as RFC 1436 says. Off by
	// default: gophernicus and pygopherd do not dot-stuff, so unstuffing
	// would corrupt their ".." lines. Gopher+ `+-1` replies are always
	// unstuffed.
	Unstuff bool

	// words name the search and form options in messages and plans as
	// the caller does (the declaration's Values).
	words schemes.Words
}

var (
	_ schemes.Handler   = (*Handler)(nil)
	_ schemes.Explainer = (*Handler)(nil)
	_ schemes.Lister    = (*Handler)(nil)
)

// mode is what a fetch asks the server for.
type mode int

const (
	modePlain mode = iota // the item as its type says, with the URL's Gopher+ string if any
	modeAttrs             // "!" or "$": attribute blocks
	modeViews             // --views: "!" then list +VIEWS
	modeForm              // "?": "!" for +ASK, then a submission
)

func (h *Handler) modeOf(g *URL) mode {
	switch {
	case h.Views:
		return modeViews
	case g.Plus == nil:
		return modePlain
	case *g.Plus == "?":
		return modeForm
	case strings.HasPrefix(*g.Plus, "!") || strings.HasPrefix(*g.Plus, "$"):
		return modeAttrs
	}
	return modePlain
}

// Fetch retrieves req.URL. Menus (types 1 and 7) and Gopher+ attribute
// replies (`!`, `$`, --views) come back as a Listing that streams their
// entries as lines arrive (menuItem.Entry, attrListing, viewEntry);
// text as local text (CRLF → LF, the RFC 1436 terminator removed);
// everything else byte for byte. Gopher+ reply headers are stripped. An
// `h` item whose selector is "URL:<url>", a telnet item and a Gopher+
// "moved" reply come back as a Redirect, which the fetch Client polices.
func (h *Handler) Fetch(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	return h.fetch(ctx, req, false)
}

// List reads the reply to req.URL as a menu, whatever its type says (a
// Gopher+ attribute request still gives its attribute listing), and
// returns its Listing, or the Redirect of an item that refers elsewhere.
func (h *Handler) List(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	return h.fetch(ctx, req, true)
}

// fetch is Fetch, and List when asMenu is set.
func (h *Handler) fetch(ctx context.Context, req *schemes.Request, asMenu bool) (*schemes.Response, error) {
	g, err := schemes.LocatorOf[*URL](req)
	if err != nil {
		return nil, err
	}
	tr := req.Trace
	if tr == nil {
		tr = schemes.NopTrace{}
	}
	if g.Type == 'h' && g.Plus == nil && g.Search == nil {
		if u, ok := urlSelector(g.Selector); ok {
			tr.Info("h item with a URL: selector refers to " + u)
			return &schemes.Response{Redirect: u, Size: -1}, nil
		}
	}
	if g.Type == '8' || g.Type == 'T' {
		it := menuItem{Type: g.Type, Selector: g.Selector, Host: g.u.Host, Port: g.u.EffectivePort(), Valid: true}
		if u := telnetURL(it); u != "" {
			return &schemes.Response{Redirect: u, Size: -1}, nil
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, h.wrap(g, "request", err)
	}
	search, err := h.search(ctx, g, req.Prompt)
	if err != nil {
		return nil, err
	}
	switch m := h.modeOf(g); m {
	case modeViews, modeForm:
		bang := "!"
		line, err := requestLine(g, search, &bang)
		if err != nil {
			return nil, err
		}
		items, err := h.attributes(ctx, req, g, line)
		if err != nil {
			return nil, err
		}
		var attrs attributes
		if len(items) > 0 {
			attrs = items[0]
		}
		if m == modeViews {
			return viewsResponse(g, search, attrs), nil
		}
		qs := attrs.Questions()
		if len(qs) == 0 {
			return nil, &schemes.Error{Scheme: g.u.Scheme, Phase: "ask", Kind: schemes.KindProtocol,
				Msg: "the item has no +ASK form (its attributes hold no +ASK block)"}
		}
		vals, err := h.formAnswers(ctx, g, qs, req.Prompt)
		if err != nil {
			return nil, err
		}
		for i, q := range qs {
			if q.Kind == "AskP" && vals[i] != "" {
				tr.Secret(vals[i]) // a password never shows in -v output
			}
		}
		line, err = formSubmission(g, search, qs, vals)
		if err != nil {
			return nil, err
		}
		tr.Info(fmt.Sprintf("submitting the form (%d questions)", len(qs)))
		return h.fetchLine(ctx, req, g, line, "", true, modePlain, asMenu)
	default:
		line, err := requestLine(g, search, g.Plus)
		if err != nil {
			return nil, err
		}
		again := ""
		if g.Plus == nil {
			plus := defaultView
			if again, err = requestLine(g, search, &plus); err != nil {
				return nil, err
			}
		}
		return h.fetchLine(ctx, req, g, line, again, g.Plus != nil, m, asMenu)
	}
}

// search returns the search string to send: the URL's, else for a type 7
// item Handler.Search or the terminal's answer; with neither, exit 2.
func (h *Handler) search(ctx context.Context, g *URL, prompt schemes.Prompter) (*string, error) {
	if g.Search != nil || g.Type != '7' {
		return g.Search, nil
	}
	if h.Search != nil {
		return h.Search, nil
	}
	if prompt != nil {
		if s, err := prompt(ctx, "Search for: ", false); err == nil {
			return &s, nil
		}
	}
	return nil, &schemes.Error{Scheme: g.u.Scheme, Phase: "request", Kind: schemes.KindUsage, Part: "search",
		Msg: "type 7 (search) item without a search string: give one with " + h.words.Option("search") + " WORDS or in the URL (%09words)"}
}

// attributes sends line (a "!" request) and parses the attribute blocks
// of one item, held whole (capped at maxListing bytes).
func (h *Handler) attributes(ctx context.Context, req *schemes.Request, g *URL, line string) ([]attributes, error) {
	x, err := h.exchange(ctx, req, g, line, true)
	if m, ok := err.(*moved); ok {
		return nil, m.err
	}
	if err != nil {
		return nil, err
	}
	defer x.c.Close()
	var body io.Reader = x.br
	if x.plus {
		body = bodyReader(x.br, x.hdr)
	}
	items, err := parseAttributes(capped(body))
	if err != nil {
		return nil, h.wrap(g, "attributes", err)
	}
	return items, nil
}

// exchanged is a request sent and the start of its reply read: the
// connection, its reader, the Gopher+ header when there was one, and the
// connection's trace scope.
type exchanged struct {
	c    net.Conn
	br   *bufio.Reader
	hdr  replyHeader
	plus bool
	tr   schemes.Trace
}

// exchange dials (the connection gets a trace scope of its own), sends
// line and reads the Gopher+ header if wantPlus. On error the connection
// is closed. A `-` error header is turned into the error it means.
func (h *Handler) exchange(ctx context.Context, req *schemes.Request, g *URL, line string, wantPlus bool) (*exchanged, error) {
	tr := schemes.NewScope(req.Trace)
	c, err := h.dial(ctx, req, g, tr)
	if err != nil {
		return nil, err
	}
	if req.Timeout > 0 {
		c.SetDeadline(time.Now().Add(req.Timeout))
	}
	tr.Sent(strings.TrimSuffix(quoteLine(line), `"`)[1:])
	if _, err := io.WriteString(c, line); err != nil {
		c.Close()
		return nil, h.wrap(g, "send", err)
	}
	x := &exchanged{c: c, br: bufio.NewReaderSize(&stickyReader{r: c}, 64<<10), tr: tr}
	if wantPlus {
		x.hdr, x.plus = peekHeader(x.br)
		if x.plus {
			tr.Received(x.hdr.String())
		} else {
			tr.Info("no Gopher+ header: the server answered in plain Gopher")
		}
	}
	// The first byte is within the timeout (after a Gopher+ header, the
	// body may be empty on a connection kept open). A server that sends
	// nothing fails here, once: an idle timeout, not an empty document.
	if !x.plus {
		if _, err := x.br.Peek(1); err != nil && !errors.Is(err, io.EOF) {
			c.Close()
			return nil, h.wrap(g, "retrieve", err)
		}
	}
	if req.Timeout > 0 {
		c.SetDeadline(time.Time{})
	}
	if x.plus && x.hdr.Err {
		eb := readErrorBlock(bodyReader(x.br, replyHeader{Length: x.hdr.Length}))
		c.Close()
		tr.Received(fmt.Sprintf("%d %s", eb.Code, eb.Text))
		if eb.Code == 3 && eb.Moved != nil {
			if u := eb.Moved.URL(g.u.Scheme); u != "" {
				return nil, &moved{to: u, err: h.plusError(g, eb), tr: tr}
			}
		}
		return nil, h.plusError(g, eb)
	}
	return x, nil
}

// stickyReader returns the first error of r for every Read after it.
// bufio.Reader hands a read error to one caller only, and its Peek
// swallows it: without this, an idle timeout met by a Peek would let the
// next Read wait out another one (three for one silent server).
type stickyReader struct {
	r   io.Reader
	err error
}

func (s *stickyReader) Read(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.r.Read(p)
	s.err = err
	return n, err
}

// moved is the error of a Gopher+ "3 item moved" reply that names the new
// place: fetchLine turns it into a redirect, the fetch Client follows it.
type moved struct {
	to  string
	err error         // the error to report where a redirect cannot be given
	tr  schemes.Trace // the scope of the connection that said so
}

func (m *moved) Error() string { return m.err.Error() }
func (m *moved) Unwrap() error { return m.err }

// plusError maps a Gopher+ error block to an error: code 1 (not
// available) exit 3, code 2 (try again later: a busy server) KindBusy,
// exit 5 and retryable, code 3 (moved) exit 3 naming the new place; others
// are protocol errors.
func (h *Handler) plusError(g *URL, eb errorBlock) error {
	if eb.Code == 2 {
		return schemes.BusyError(g.u.Scheme, "retrieve", eb.Code, eb.Text)
	}
	e := &schemes.Error{Scheme: g.u.Scheme, Phase: "retrieve", Code: eb.Code, Msg: eb.Text}
	switch eb.Code {
	case 1:
		e.Kind = schemes.KindNotFound
	case 3:
		e.Kind = schemes.KindNotFound
		if eb.Moved != nil {
			if u := eb.Moved.URL(g.u.Scheme); u != "" {
				e.Msg += " (moved to " + u + ")"
			}
		}
	default:
		e.Kind = schemes.KindProtocol
	}
	return e
}

// dial connects, over TLS for gophers, with the Dialer's notes in tr,
// the connection's trace scope. The handshake is the Dialer's StartTLS,
// which checks the certificate (KindSafety when untrusted).
func (h *Handler) dial(ctx context.Context, req *schemes.Request, g *URL, tr schemes.Trace) (net.Conn, error) {
	if req.Dialer == nil {
		return nil, &schemes.Error{Scheme: g.u.Scheme, Phase: "dial", Kind: schemes.KindOther, Msg: "no Dialer in the request"}
	}
	tctx := schemes.WithTrace(ctx, tr)
	c, err := req.Dialer.Dial(tctx, g.u.Scheme, g.u.Host, g.u.EffectivePort())
	if err != nil {
		return nil, err
	}
	c, _ = transport.Bound(ctx, c)
	if g.u.Scheme != "gophers" {
		return c, nil
	}
	tc, err := req.Dialer.StartTLS(tctx, c, g.u.Scheme, g.u.Host)
	if err != nil {
		c.Close()
		return nil, h.wrap(g, "tls", err)
	}
	return tc, nil
}

// fetchLine sends line and reads the reply as g's type says, or as a menu
// when asMenu is set. again is the same request the Gopher+ way (`sel TAB
// +`), for a plain menu that ends without its "." line (menuListing.again);
// "" when line already is a Gopher+ request.
func (h *Handler) fetchLine(ctx context.Context, req *schemes.Request, g *URL, line, again string, wantPlus bool, m mode, asMenu bool) (*schemes.Response, error) {
	x, err := h.exchange(ctx, req, g, line, wantPlus)
	if mv, ok := err.(*moved); ok {
		mv.tr.Info("the item moved to " + mv.to)
		return &schemes.Response{Redirect: mv.to, Size: -1}, nil
	}
	if err != nil {
		return nil, err
	}
	var body io.Reader = x.br
	size := int64(-1)
	if x.plus {
		body = bodyReader(x.br, x.hdr)
		if x.hdr.Length >= 0 {
			size = x.hdr.Length
		}
	}
	switch {
	case m == modeAttrs && x.plus:
		l := &attrListing{ctx: ctx, h: h, g: g, c: x.c, lr: &lineReader{br: bufio.NewReaderSize(body, 4096)}, item: g.with(g.Search, nil),
			exact: x.hdr.Length >= 0}
		return &schemes.Response{Listing: schemes.ListingFunc(l.next, l.close), Size: -1, Name: g.LocalName()}, nil
	case asMenu || isMenu(g.Type):
		l := &menuListing{ctx: ctx, h: h, g: g, c: x.c, m: newMenuReader(body), tr: x.tr, plus: x.plus,
			exact: x.plus && x.hdr.Length >= 0}
		if !x.plus && again != "" {
			l.again = &askAgain{req: req, line: again, sum: sha256.New()}
		}
		if req.WantModTime && g.Type == '1' && (g.Search == nil || *g.Search == "") {
			l.req = req
		}
		if err := l.prefetch(); err != nil {
			l.close()
			return nil, err
		}
		kind := schemes.EntryDir
		if g.Type == '7' {
			kind = schemes.EntrySearch
		}
		return &schemes.Response{Listing: schemes.ListingFunc(l.next, l.close), Kind: kind, Size: -1, Name: g.LocalName()}, nil
	}
	resp := &schemes.Response{Size: size, Name: g.LocalName(), Type: mediaType(g.Type)}
	if k := kindOf(g.Type); k == schemes.EntryFile {
		resp.Kind = k
	}
	if !x.plus {
		if msg, ok := sniffError(x.br); ok {
			x.c.Close()
			return nil, &schemes.Error{Scheme: g.u.Scheme, Phase: "retrieve", Kind: schemes.KindNotFound, Msg: msg}
		}
	}
	if isText(g.Type) {
		tb := bufio.NewReaderSize(body, 64<<10)
		t := &textReader{br: tb, unstuff: h.Unstuff && !x.plus}
		if !x.plus {
			t.onEnd = func(term bool) {
				if !term {
					x.tr.Info(`text ended without a "." line (the server does not terminate text)`)
				}
			}
		}
		body, resp.Size = t, -1
	}
	resp.Body = &bodyCloser{ctx: ctx, r: body, c: x.c, g: g}
	return resp, nil
}

// sniffError recognises a plain-Gopher error sent in place of a document:
// a reply that is only type 3 menu lines (UMN gopherd, pygopherd) or
// gophernicus 3.1's text error page ("Error: File or directory not
// found!" and its footer). It peeks at most 1 KiB and consumes nothing;
// it only says yes for a whole reply shorter than that.
func sniffError(br *bufio.Reader) (string, bool) {
	b, err := br.Peek(1024)
	if err == nil || len(b) == 0 {
		return "", false // 1 KiB or more: a document
	}
	s := string(b)
	if strings.HasPrefix(s, "3") {
		items, _, _ := parseMenu(strings.NewReader(s))
		if msg := onlyErrors(items); msg != "" && items[0].Valid {
			return msg, true
		}
	}
	if strings.HasPrefix(s, "Error: ") && strings.Contains(s, "Gophered by Gophernicus") {
		first, _, _ := strings.Cut(s, "\n")
		return strings.TrimSpace(first), true
	}
	return "", false
}

// viewsResponse lists the views of an item (--views) from its attributes,
// held whole: one file entry a view (viewEntry).
func viewsResponse(g *URL, search *string, a attributes) *schemes.Response {
	item := g.with(search, nil)
	entries := []schemes.Entry{}
	for _, v := range a.Views() {
		entries = append(entries, viewEntry(item, v))
	}
	return &schemes.Response{Listing: schemes.ListingOf(entries), Size: -1, Name: g.LocalName()}
}

// mediaType is the media type an item type implies, "" when unknown.
func mediaType(t byte) string {
	switch t {
	case '0':
		return "text/plain"
	case 'h':
		return "text/html"
	case 'g':
		return "image/gif"
	case 'P':
		return "application/pdf"
	}
	return ""
}

// maxListing caps the bytes of an attribute reply held in memory (for
// --views and +ASK forms): a longer one fails rather than exhausting
// memory.
const maxListing = 64 << 20

// errTooBig is the error of an attribute reply over maxListing.
var errTooBig = fmt.Errorf("reply longer than %d MiB: not an attribute list this client will hold", maxListing>>20)

// capped fails reads past maxListing bytes with errTooBig.
func capped(r io.Reader) io.Reader { return &capReader{r: r, n: maxListing} }

type capReader struct {
	r io.Reader
	n int64
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.n <= 0 {
		return 0, errTooBig
	}
	if int64(len(p)) > c.n {
		p = p[:c.n]
	}
	n, err := c.r.Read(p)
	c.n -= int64(n)
	return n, err
}

// bodyCloser reads the reply and closes the connection; read errors
// become *schemes.Error.
type bodyCloser struct {
	ctx context.Context
	r   io.Reader
	c   net.Conn
	g   *URL
}

func (b *bodyCloser) Read(p []byte) (int, error) {
	// The connection fails on cancel only once context.AfterFunc has run;
	// until then buffered data, even the server's close, would still be
	// delivered as if the fetch had not been canceled.
	if err := b.ctx.Err(); err != nil {
		return 0, schemes.IOError(b.g.u.Scheme, "read", err) // canceled, or timed out
	}
	n, err := b.r.Read(p)
	if err != nil && err != io.EOF {
		return n, schemes.IOError(b.g.u.Scheme, "read", err)
	}
	return n, err
}

func (b *bodyCloser) Close() error { return b.c.Close() }

// wrap turns an I/O error into a *schemes.Error (schemes.IOError); one
// of no known kind is the server's doing, a protocol error.
func (h *Handler) wrap(g *URL, phase string, err error) error {
	err = schemes.IOError(g.u.Scheme, phase, err)
	if se, ok := err.(*schemes.Error); ok && se.Kind == schemes.KindOther && se.Msg == "" {
		se.Kind = schemes.KindProtocol
	}
	return err
}

// Explain returns the plan without any I/O: the connection and each line
// sent, quoted so that TAB and CRLF show.
func (h *Handler) Explain(req *schemes.Request) ([]string, error) {
	g, err := schemes.LocatorOf[*URL](req)
	if err != nil {
		return nil, err
	}
	if u, ok := urlSelector(g.Selector); ok && g.Type == 'h' && g.Plus == nil && g.Search == nil {
		return []string{"redirect to " + u}, nil
	}
	conn := "connect " + g.u.HostPort()
	if g.u.Scheme == "gophers" {
		conn += " (TLS)"
	}
	search := g.Search
	if search == nil && g.Type == '7' {
		s := "<search: " + h.words.Option("search") + " WORDS>"
		if h.Search != nil {
			s = *h.Search
		}
		search = &s
	}
	switch h.modeOf(g) {
	case modeViews, modeForm:
		bang := "!"
		line, err := requestLine(g, search, &bang)
		if err != nil {
			return nil, err
		}
		plan := []string{conn, "send " + quoteLine(line)}
		if h.modeOf(g) == modeViews {
			return append(plan, "list the +VIEWS block"), nil
		}
		line, err = submission(g, search, "+-1\r\n<answers, one a line>\r\n.\r\n")
		if err != nil {
			return nil, err
		}
		return append(plan, "ask the +ASK questions ("+h.words.Option("form")+" NAME=VALUE, or the terminal)", conn, "send "+quoteLine(line)), nil
	}
	line, err := requestLine(g, search, g.Plus)
	if err != nil {
		return nil, err
	}
	return []string{conn, "send " + quoteLine(line)}, nil
}
