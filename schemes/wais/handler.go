package wais

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// DefaultMax is how many hits a search asks for when Handler.Max is 0:
// what waissearch, freeWAIS-sf's own client, asks (wais-notes §4).
const DefaultMax = 40

// Handler carries out RFC 1738 §3.9 over the WAIS protocol as
// freeWAIS-sf speaks it (wais-notes): a search returns its hits as a
// listing, a database URL its description and catalog, a document URL
// the document, fetched in byte ranges of 10,000.
//
// No Init APDU is sent: lynx, libwww and Mosaic never send one, and one
// that announced a small MaximumRecordSize would make the server answer
// 10,000-byte chunks with empty replies (notes §6).
type Handler struct {
	// Max is the most hits a search asks for (--max); 0 means DefaultMax.
	Max int

	// words name the max option in notes as the caller does (the
	// declaration's Values).
	words schemes.Words
}

var (
	_ schemes.Handler   = (*Handler)(nil)
	_ schemes.Lister    = (*Handler)(nil)
	_ schemes.Explainer = (*Handler)(nil)
)

func (h *Handler) max() int {
	if h == nil || h.Max <= 0 {
		return DefaultMax
	}
	return h.Max
}

// maxOption names the max option in the caller's words (the library's for
// a nil Handler, as max reads one).
func (h *Handler) maxOption() string {
	if h == nil {
		return schemes.Words{}.Option(schemes.OptionMax)
	}
	return h.words.Option(schemes.OptionMax)
}

// Fetch retrieves a document, or lists a search's hits (a database URL:
// its description and catalog).
func (h *Handler) Fetch(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	w, err := schemes.LocatorOf[*URL](req)
	if err != nil {
		return nil, err
	}
	if w.WType != nil {
		return h.retrieve(ctx, req, w)
	}
	return h.search(ctx, req, w)
}

// List lists a search's hits, or a database's description and catalog;
// a document URL is no container.
func (h *Handler) List(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	w, err := schemes.LocatorOf[*URL](req)
	if err != nil {
		return nil, err
	}
	if w.WType != nil {
		return nil, &schemes.Error{Scheme: "wais", Phase: "request", Kind: schemes.KindUsage, Part: "wpath",
			Msg: "a document URL designates no list: list the database or a search of it"}
	}
	return h.search(ctx, req, w)
}

// Explain describes the APDUs Fetch would send, without connecting.
func (h *Handler) Explain(req *schemes.Request) ([]string, error) {
	w, err := schemes.LocatorOf[*URL](req)
	if err != nil {
		return nil, err
	}
	plan := []string{"connect " + w.u.HostPort()}
	if w.WType == nil {
		seed := ""
		if w.Search != nil {
			seed = *w.Search
		}
		line := fmt.Sprintf("Search db=%s seed=%q max=%d", w.Database, seed, h.max())
		if seed == "" {
			line += " (no seed words: the database's description and catalog)"
		}
		return append(plan, line), nil
	}
	d, err := parseDocument(w)
	if err != nil {
		return nil, err
	}
	r := &docReader{d: d}
	if req.Ranged() {
		r.pos = documentRange(req, d.length, nil)
		if req.Length > 0 {
			r.limit = r.pos + req.Length
		}
	}
	plan = append(plan, fmt.Sprintf("Retrieve DocID=%s %s bytes %d-%d", printableDocID(d.docID), d.wtype, r.pos, r.end()))
	if r.limit > 0 || d.length > 0 {
		r.pos = max(r.limit, d.length)
		if r.limit > 0 && d.length > 0 {
			r.pos = min(r.limit, d.length)
		}
		return append(plan, fmt.Sprintf("then ranges of %d bytes until byte %d", chunkSize, r.pos)), nil
	}
	return append(plan, fmt.Sprintf("then ranges of %d bytes until a short one, one without text, or a diagnostic", chunkSize)), nil
}

// session is one connection to a WAIS server, and its trace scope.
type session struct {
	c     net.Conn
	br    *bufio.Reader
	tr    schemes.Trace
	w     *URL
	key   schemes.ConnKey
	conns schemes.Conns // where keep puts it; nil: nowhere
	// quick sets TCP_QUICKACK (transport.QuickAcker) after each request;
	// nil when unavailable. freeWAIS-sf writes a reply's header and its
	// APDU in two writes, the second held by Nagle's algorithm until the
	// first is acknowledged: without it, every range of a document waited
	// for the client's delayed ACK (~40 ms).
	quick func()
}

var _ schemes.Session = (*session)(nil)

// Conn is the session's connection, for the pool.
func (s *session) Conn() net.Conn { return s.c }

// Unread is what the session's reader holds beyond the replies read, for
// the pool: a reply nobody asked for.
func (s *session) Unread() int { return s.br.Buffered() }

// Close closes the connection: WAIS has no goodbye (wais-notes §1).
func (s *session) Close() error { return s.c.Close() }

// first does a request's first exchange, on a connection from req.Conns
// (freeWAIS-sf answers on a connection until EOF, wais-notes §1, so the
// next search or document of the same server needs no new connection) or
// a new one, and returns the session with the reply, the request's to
// keep or close. A kept connection the server closed while it was idle is
// found stale, and dialed again once (transport.UseFirst).
func (h *Handler) first(ctx context.Context, req *schemes.Request, w *URL, phase, what string, apdu []byte, maxHits int) (*session, *reply, error) {
	var rp *reply
	s, err := transport.UseFirst(ctx, req, poolKey(req, w), transport.First[*session]{
		Scheme: "wais", Noun: "connection", Peer: "to " + w.u.HostPort(),
		Dial: func(ctx context.Context) (*session, error) { return dial(ctx, req, w) },
		Resume: func(s *session, tr schemes.Trace) {
			s.w, s.tr = w, tr
		},
		Exchange: func(s *session) (err error) {
			rp, err = s.exchange(phase, what, apdu, maxHits)
			return err
		},
		Drop: (*session).close,
	})
	return s, rp, err
}

// poolKey is the key of connections to w's server.
func poolKey(req *schemes.Request, w *URL) schemes.ConnKey {
	key, _ := schemes.NewConnKey(req, "wais", w.u.Host, w.u.EffectivePort(), false, "", "")
	return key
}

// keep ends a request's use of s, whose replies were read whole: kept in
// the request's Conns for the next request to the server, or closed.
func (s *session) keep() {
	if s.conns == nil || !s.key.Pooled() {
		s.close()
		return
	}
	s.conns.Keep(s.key, s)
}

// close ends the session's connection.
func (s *session) close() { s.c.Close() }

// dial connects to the URL's server; Timeout, when set, bounds each
// request on the session.
func dial(ctx context.Context, req *schemes.Request, w *URL) (*session, error) {
	if req.Dialer == nil {
		return nil, &schemes.Error{Scheme: "wais", Phase: "dial", Kind: schemes.KindOther, Msg: "no Dialer in the request"}
	}
	tr := schemes.NewScope(req.Trace)
	c, err := req.Dialer.Dial(schemes.WithTrace(ctx, tr), "wais", w.u.Host, w.u.EffectivePort())
	if err != nil {
		return nil, err
	}
	c, _ = transport.Bound(ctx, c)
	if req.Timeout > 0 {
		c.SetDeadline(time.Now().Add(req.Timeout))
	}
	return &session{c: c, br: bufio.NewReaderSize(c, 16<<10), tr: tr, w: w, key: poolKey(req, w), conns: req.Conns,
		quick: transport.QuickAcker(c)}, nil
}

// exchange sends one APDU, described by what, and reads the reply, of
// whose hits it keeps the first maxHits. The reply is at most maxReplyLen
// bytes (readMessage), and it is dropped once decoded: what stays is the
// kept hits, copied out of it. Anything the server sent after the reply
// fails the exchange: the session is out of step.
func (s *session) exchange(phase, what string, apdu []byte, maxHits int) (*reply, error) {
	s.tr.Sent(what)
	msg := append(header(len(apdu)), apdu...)
	if _, err := s.c.Write(msg); err != nil {
		return nil, s.ioError(phase, err)
	}
	if s.quick != nil {
		s.quick()
	}
	b, err := readMessage(s.br)
	if err != nil {
		if errors.Is(err, errOverflow) {
			s.tr.Received("(empty reply: msg_len 0)")
		}
		return nil, s.ioError(phase, err)
	}
	rp, err := decodeReply(b, maxHits)
	if err != nil {
		return nil, s.ioError(phase, err)
	}
	if transport.Pending(s) {
		// One request, one reply (wais-notes §1), and nothing in a reply
		// says which request it answers: with two, the one read may be a
		// stray and the next chunk would read this one's.
		return nil, &schemes.Error{Scheme: "wais", Phase: phase, Kind: schemes.KindProtocol, Retryable: true,
			Msg: "the server sent more than one reply to one request: which answers it cannot be told, and the connection is closed"}
	}
	return rp, nil
}

// ioError turns err into a *schemes.Error (schemes.IOError): the server's
// overflow and unreadable replies are protocol errors (exit 6).
func (s *session) ioError(phase string, err error) error {
	var pe *protocolError
	switch {
	case errors.Is(err, errOverflow):
		return &schemes.Error{Scheme: "wais", Phase: phase, Kind: schemes.KindProtocol, Msg: err.Error()}
	case errors.As(err, &pe):
		return &schemes.Error{Scheme: "wais", Phase: phase, Kind: schemes.KindProtocol, Msg: "unreadable reply: " + pe.msg}
	}
	return schemes.IOError("wais", phase, err)
}

// diagError is the error a diagnostic means: S1 an unknown database
// (exit 3), T2 access control (exit 4), the rest the server's refusal.
func (s *session) diagError(phase string, d diagnostic, kind schemes.Kind) error {
	switch d.code {
	case "S1":
		kind = schemes.KindNotFound
	case "T2":
		kind = schemes.KindPermission
	}
	msg := fmt.Sprintf("the server answered %s %s", d.code, schemes.Printable(d.msg, 200))
	if d.code == "S1" {
		msg = fmt.Sprintf("database %q is not available: %s", s.w.Database, msg)
	}
	return &schemes.Error{Scheme: "wais", Phase: phase, Kind: kind, Msg: msg}
}

// search sends the Search of the URL (no search: empty seed words) and
// returns the hits as a listing, in the server's order.
func (h *Handler) search(ctx context.Context, req *schemes.Request, w *URL) (*schemes.Response, error) {
	seed := ""
	if w.Search != nil {
		seed = *w.Search
	}
	limit := h.max()
	s, rp, err := h.first(ctx, req, w, "search", fmt.Sprintf("Search db=%s seed=%q max=%d", w.Database, seed, limit), searchAPDU(w.Database, seed, limit), limit)
	if err != nil {
		return nil, err
	}
	s.tr.Received(fmt.Sprintf("SearchResponse status=%d records=%d groups=%d diagnostics=%d", rp.status, rp.records, rp.groups(), len(rp.diags)+rp.moreDiags))
	for _, d := range rp.diags {
		s.tr.Received("Diagnostic " + d.String())
	}
	if rp.moreDiags > 0 {
		s.tr.Info(fmt.Sprintf("%d more diagnostics not shown", rp.moreDiags))
	}
	if rp.moreHits > 0 {
		// MaxDocumentsRetrieved asked for at most limit: a server that
		// ignores it gets no more room in the listing than one that obeys.
		s.tr.Info(fmt.Sprintf("the server sent %d hits, more than the %d asked for (%s): listing the first %d", rp.groups(), limit,
			h.maxOption(), len(rp.hits)))
	}
	var diag error
	if len(rp.hits) == 0 && len(rp.diags) > 0 {
		diag = s.diagError("search", rp.diags[0], schemes.KindProtocol)
	}
	s.keep() // the whole reply is read: the connection is free, and s another request's
	if diag != nil {
		return nil, diag
	}
	entries := make([]schemes.Entry, 0, len(rp.hits))
	for _, ht := range rp.hits {
		entries = append(entries, h.entry(w, ht))
	}
	return &schemes.Response{Listing: schemes.ListingOf(entries), Kind: schemes.EntrySearch, Size: -1, Name: w.Database}, nil
}

// entry is a searchHit's listing entry: Title its headline, Name derived from
// it, Kind file, Size its DocumentLength, Locator its document URL, Extra
// score, lines, type and date (when present).
func (h *Handler) entry(w *URL, ht searchHit) schemes.Entry {
	e := schemes.Entry{Title: ht.headline, Kind: schemes.EntryFile, Size: ht.length}
	e.SetName(strings.TrimSpace(ht.headline))
	wtype := "TEXT"
	if len(ht.types) > 0 {
		wtype = ht.types[0]
	}
	if loc := documentURL(w, wtype, ht.length, ht.docID); loc != nil {
		e.Locator = loc
	}
	e.Extra.Set("score", strconv.Itoa(ht.score))
	if ht.lines > 0 {
		e.Extra.Set("lines", strconv.Itoa(ht.lines))
	}
	e.Extra.Set("type", strings.Join(ht.types, ","))
	if ht.date != "" && ht.date != "0" {
		e.Extra.Set("date", ht.date)
	}
	return e
}

// documentURL is the URL of a searchHit (wais-notes §7):
// wais://host:port/db/TYPE/LENGTH/docname; nil when the DocID cannot be
// written as records.
func documentURL(w *URL, wtype string, length int64, docID []byte) *URL {
	name, ok := docName(docID)
	if !ok {
		return nil
	}
	raw := "wais://" + w.u.HostPort() + "/" + schemes.Escape(w.Database, "/?") + "/" + schemes.Escape(wtype, "/?,") +
		"/" + strconv.FormatInt(max(length, 0), 10) + "/" + name
	u, err := schemes.Parse(raw)
	if err != nil {
		return nil
	}
	d, err := Parse(u)
	if err != nil {
		return nil
	}
	return d
}

// document is what a document URL names.
type document struct {
	wtype  string // the first of the URL's types ("TEXT" of "TEXT,HTML")
	length int64  // 0: unknown
	docID  []byte
}

// parseDocument reads a document URL's type, length and DocID from its
// escaped wpath: LENGTH/docname, or a docname alone (length unknown).
func parseDocument(w *URL) (document, error) {
	d := document{wtype: strings.TrimSpace(strings.SplitN(*w.WType, ",", 2)[0])}
	if d.wtype == "" {
		d.wtype = "TEXT"
	}
	name := w.EscapedWPath()
	if l, rest, ok := strings.Cut(name, "/"); ok && l != "" && strings.Trim(l, "0123456789") == "" {
		n, err := strconv.ParseInt(l, 10, 64)
		if err != nil {
			return d, &schemes.Error{Scheme: "wais", Phase: "request", Kind: schemes.KindUsage, Part: "wpath", Msg: "length " + l + " out of range"}
		}
		d.length, name = n, rest
	}
	id, err := parseDocName(name)
	if err != nil {
		return d, &schemes.Error{Scheme: "wais", Phase: "request", Kind: schemes.KindUsage, Part: "wpath", Msg: err.Error()}
	}
	d.docID = id
	return d, nil
}

// mediaType maps a WAIS type to a media type as libwww does (notes §7).
func mediaType(wtype string) string {
	switch strings.ToUpper(wtype) {
	case "WSRC":
		return "application/x-wais-source"
	case "TEXT":
		return "text/plain"
	case "HTML":
		return "text/html"
	case "GIF":
		return "image/gif"
	}
	return "application/octet-stream"
}

// retrieve fetches the first chunk at once (so an unknown DocID fails
// before any output) and streams the rest as the body is read.
func (h *Handler) retrieve(ctx context.Context, req *schemes.Request, w *URL) (*schemes.Response, error) {
	d, err := parseDocument(w)
	if err != nil {
		return nil, err
	}
	size := int64(-1)
	if d.length > 0 {
		size = d.length
	}
	r := &docReader{ctx: ctx, db: w.Database, d: d}
	if req.Ranged() {
		if err := req.RangeError("wais", size, 0); err != nil {
			return nil, err
		}
		r.pos = documentRange(req, d.length, req.Trace)
		if req.Length > 0 {
			r.limit = r.pos + req.Length
		}
	}
	start := r.pos
	what, apdu := r.ask()
	s, rp, err := h.first(ctx, req, w, "retrieve", what, apdu, 0)
	if err != nil {
		return nil, err
	}
	r.s = s
	if err := r.take(rp); err != nil {
		r.s.close()
		return nil, err
	}
	if start > 0 && r.pos == start && len(r.buf) == 0 {
		r.s.close()
		return nil, &schemes.Error{Scheme: "wais", Phase: "range", Kind: schemes.KindProtocol,
			Msg: fmt.Sprintf("range %s not satisfiable: the document has no byte %d", req.Range(), start)}
	}
	resp := &schemes.Response{Body: r, Offset: start, Kind: schemes.EntryFile, Size: size, Type: mediaType(d.wtype)}
	if r.limit > 0 && d.length > 0 {
		resp.Length = min(r.limit, d.length) - start
	}
	return resp, nil
}

// documentRange is where a retrieval of req's byte range starts in a
// document of length bytes (0: unknown): its first byte, or where its
// last N bytes start, which only a length the URL gives tells (without
// one the whole document is sent, and the caller cuts it where it can).
func documentRange(req *schemes.Request, length int64, tr schemes.Trace) int64 {
	switch {
	case req.Suffix <= 0:
		return req.Offset
	case length > 0:
		return max(length-req.Suffix, 0)
	}
	if tr != nil {
		tr.Info("the URL gives no document length: retrieving all of it for its last bytes")
	}
	return 0
}
