package z3950

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// DefaultMax is how many records a search lists when Handler.Max is 0.
const DefaultMax = 40

// presentBatch is the most records one PresentRequest asks for: the
// server cuts a batch to its message size anyway, and a listing's first
// entries come sooner.
const presentBatch = 100

// Handler carries out RFC 2056 over Z39.50-1995: the docid of either
// scheme is searched as one term (§3: a Session URL's "in the same
// manner as for the retrieval URL"); a Session URL's hits are listed,
// one entry a record; the one record a Retrieval URL's finds is the
// document. An association (Init) serves the URLs to one server one
// after another, kept in the request's Conns between them, and ends with
// Close.
type Handler struct {
	// Max is the most records a search lists (--max); 0 means DefaultMax.
	Max int

	words schemes.Words
}

var (
	_ schemes.Handler   = (*Handler)(nil)
	_ schemes.Lister    = (*Handler)(nil)
	_ schemes.Explainer = (*Handler)(nil)
	_ schemes.Searcher  = (*URL)(nil)
)

func (h *Handler) max() int {
	if h == nil || h.Max <= 0 {
		return DefaultMax
	}
	return h.Max
}

// databases are the databases searched: the URL's, else DefaultDatabase.
func (z *URL) databases() []string {
	if len(z.Databases) == 0 {
		return []string{DefaultDatabase}
	}
	return z.Databases
}

// syntax is the record syntax asked for: the first of ";rs=" (Present
// names one preferredRecordSyntax), else USMARC, as yaz-client asks.
func (z *URL) syntax() OID {
	if len(z.RecordSyntaxes) > 0 {
		o, _ := SyntaxOf(z.RecordSyntaxes[0])
		return o
	}
	return oidUSMARC
}

// esn is the element set name of ";esn=", "" when none.
func (z *URL) esn() string {
	if z.ESN == nil {
		return ""
	}
	return *z.ESN
}

// Fetch retrieves a Retrieval URL's record, or lists a Session URL's
// search (a Session URL without a docid: its databases, as searches).
func (h *Handler) Fetch(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	z, err := schemes.LocatorOf[*URL](req)
	if err != nil {
		return nil, err
	}
	if z.Retrieval {
		return h.retrieve(ctx, req, z)
	}
	return h.list(ctx, req, z)
}

// List lists a Session URL's search; a Retrieval URL names one record.
func (h *Handler) List(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	z, err := schemes.LocatorOf[*URL](req)
	if err != nil {
		return nil, err
	}
	if z.Retrieval {
		return nil, &schemes.Error{Scheme: z.Scheme(), Phase: "request", Kind: schemes.KindUsage, Part: "scheme",
			Msg: "a Retrieval URL names one record, no list: list its Session URL (" + schemeSession + ")"}
	}
	return h.list(ctx, req, z)
}

// Explain describes the APDUs Fetch would send, without connecting.
func (h *Handler) Explain(req *schemes.Request) ([]string, error) {
	z, err := schemes.LocatorOf[*URL](req)
	if err != nil {
		return nil, err
	}
	plan := []string{"connect " + z.u.HostPort(), describeInit()}
	switch {
	case z.Retrieval:
		plan = append(plan, describeSearch(z.databases(), z.Words()),
			"(RFC 2056 §4: the search must find exactly one record)",
			describePresent(1, 1, z.syntax(), z.esn()))
	case z.DocID == nil || len(z.Words()) == 0:
		plan = append(plan, "(no docid: the databases are listed as searches)")
	default:
		plan = append(plan, describeSearch(z.databases(), z.Words()),
			describePresent(1, min(h.max(), presentBatch), z.syntax(), z.esn()),
			fmt.Sprintf("then PresentRequests of up to %d records until %d records or the last hit", presentBatch, h.max()))
	}
	return append(plan, "Close closeReason=finished (or the association kept for the next URL to the server)"), nil
}

// retrieve searches the docid; one hit is presented as the document.
func (h *Handler) retrieve(ctx context.Context, req *schemes.Request, z *URL) (*schemes.Response, error) {
	s, n, err := begin(ctx, req, z, z.Words())
	if err != nil {
		return nil, err
	}
	if n != 1 {
		s.keep()
		kind := schemes.KindNotFound
		if n > 1 {
			kind = schemes.KindProtocol
		}
		return nil, &schemes.Error{Scheme: z.Scheme(), Phase: "search", Kind: kind,
			Msg: fmt.Sprintf("docid %q matches %d records: a Retrieval URL must match exactly one (RFC 2056 §4)", schemes.Printable(*z.DocID, 100), n)}
	}
	r, err := s.present(1, 1)
	if err != nil {
		s.abort()
		return nil, err
	}
	if err := s.keep(); err != nil {
		return nil, err
	}
	if len(r.records) != 1 {
		return nil, &schemes.Error{Scheme: z.Scheme(), Phase: "present", Kind: schemes.KindProtocol, Msg: fmt.Sprintf("the server sent %d records for the one asked", len(r.records))}
	}
	rec := r.records[0]
	if rec.diag != nil {
		return nil, s.diagError("present", *rec.diag)
	}
	body, typ, err := render(rec, len(z.RecordSyntaxes) > 0)
	if err != nil {
		return nil, &schemes.Error{Scheme: z.Scheme(), Phase: "present", Kind: schemes.KindProtocol, Msg: err.Error()}
	}
	return &schemes.Response{Body: io.NopCloser(bytes.NewReader(body)), Kind: schemes.EntryFile, Size: int64(len(body)),
		Length: int64(len(body)), Type: typ}, nil
}

// render is a record as a document, and its media type: MARC as text
// (yaz-client's "show"), or as received when raw (the URL named the
// syntax); SUTRS as text; XML as XML; anything else as received.
func render(rec record, raw bool) ([]byte, string, error) {
	switch {
	case isMARC(rec.syntax) && raw:
		return rec.data, "application/marc", nil
	case isMARC(rec.syntax):
		t, err := marcText(rec.data)
		return t, "text/plain", err
	case rec.syntax.Equal(oidSUTRS):
		return rec.data, "text/plain", nil
	case rec.syntax.Equal(oidXML):
		return rec.data, "text/xml", nil
	case rec.syntax.Equal(oidApplXML):
		return rec.data, "application/xml", nil
	}
	return rec.data, "application/octet-stream", nil
}

// isMARC reports whether a record syntax is one of the ISO 2709 MARCs.
func isMARC(o OID) bool {
	return o.Equal(oidUSMARC) || o.Equal(oidUNIMARC) || o.Equal(oidUKMARC)
}

// list searches a Session URL's docid and streams its records as entries,
// Max at most, presented in batches as the listing is read.
func (h *Handler) list(ctx context.Context, req *schemes.Request, z *URL) (*schemes.Response, error) {
	words := z.Words()
	if len(words) == 0 {
		// Init alone: the server is there and takes the association.
		s, err := open(ctx, req, z)
		if err != nil {
			return nil, err
		}
		if err := s.keep(); err != nil {
			return nil, err
		}
		entries := make([]schemes.Entry, 0, len(z.databases()))
		for _, db := range z.databases() {
			e := schemes.Entry{Kind: schemes.EntrySearch, Size: -1, Title: "search " + db}
			e.SetName(db)
			e.Locator = z.withDatabase(db)
			entries = append(entries, e)
		}
		return &schemes.Response{Listing: schemes.ListingOf(entries), Kind: schemes.EntryDir, Size: -1}, nil
	}
	s, count, err := begin(ctx, req, z, words)
	if err != nil {
		return nil, err
	}
	total := int(min(count, int64(h.max())))
	if count > int64(total) {
		s.tr.Info(fmt.Sprintf("%d hits: listing the first %d (%s)", count, total, h.words.Option(schemes.OptionMax)))
	}
	l := &hitListing{s: s, z: z, total: total, next: 1}
	return &schemes.Response{Listing: schemes.ListingFunc(l.nextEntry, l.close), Kind: schemes.EntrySearch, Size: -1,
		Name: strings.Join(z.databases(), "+")}, nil
}

// withDatabase is the Session URL of z's server and one database, without
// words: a search to be given words (schemes.Searcher).
func (z *URL) withDatabase(db string) *URL {
	u := *z.u
	u.Fragment, u.HasPath = nil, true
	return &URL{Databases: []string{db}, ESN: z.ESN, RecordSyntaxes: z.RecordSyntaxes, u: &u}
}

// hitListing presents a search's records batch by batch. As soon as a
// batch has come, the next is asked for, so that the server works on it
// while this one is listed: still one request under way at a time, as an
// association without concurrent operations allows (Z39.50-1995 §3.2.1.1).
type hitListing struct {
	s     *session
	z     *URL
	total int      // records to list
	next  int      // the next record's position, 1-based
	batch []record // presented, not yet listed
	asked int      // records of the Present under way (from next+len(batch)), 0 for none
}

func (l *hitListing) nextEntry() (schemes.Entry, error) {
	if len(l.batch) == 0 {
		if l.next > l.total {
			return schemes.Entry{}, io.EOF
		}
		n := l.asked
		if n == 0 {
			n = min(presentBatch, l.total-l.next+1)
			if err := l.s.askPresent(l.next, n); err != nil {
				l.s.abort()
				return schemes.Entry{}, err
			}
		}
		l.asked = 0
		r, err := l.s.readPresent(n)
		if err != nil {
			l.s.abort()
			return schemes.Entry{}, err
		}
		if len(r.records) == 0 {
			l.s.abort()
			return schemes.Entry{}, &schemes.Error{Scheme: l.z.Scheme(), Phase: "present", Kind: schemes.KindProtocol,
				Msg: fmt.Sprintf("no records at position %d of %d", l.next, l.total)}
		}
		l.batch = r.records
		if after := l.next + len(r.records); after <= l.total {
			n := min(presentBatch, l.total-after+1)
			if err := l.s.askPresent(after, n); err != nil {
				l.s.abort()
				return schemes.Entry{}, err
			}
			l.asked = n
		}
	}
	rec := l.batch[0]
	l.batch = l.batch[1:]
	pos := l.next
	l.next++
	return l.entry(pos, rec), nil
}

// close keeps the session, in step once the response to a Present asked
// ahead is read (and dropped): a listing closed before its end asked for
// a batch nobody lists.
func (l *hitListing) close() error {
	if l.asked > 0 {
		l.asked = 0
		if _, err := readAPDU(l.s.br, maxAPDU); err != nil {
			l.s.abort()
			return nil
		}
	}
	return l.s.keep()
}

// entry is a record's listing entry: Name its position in the result set,
// Title its title (MARC 245 $a $b, a SUTRS or XML record's first line),
// Locator its Retrieval URL when the record has a control number (MARC
// or MARCXML 001) to search for as its docid, Extra its syntax and
// database.
func (l *hitListing) entry(pos int, rec record) schemes.Entry {
	e := schemes.Entry{Name: strconv.Itoa(pos), Kind: schemes.EntryFile, Size: int64(len(rec.data))}
	if rec.diag != nil {
		e.Kind, e.Size, e.Title = schemes.EntryInfo, -1, "diagnostic "+rec.diag.String()
		return e
	}
	e.Extra.Set("syntax", syntaxName(rec.syntax))
	db := rec.db
	if db == "" && len(l.z.databases()) == 1 {
		db = l.z.databases()[0]
	}
	if db != "" {
		e.Extra.Set("database", db)
	}
	var title, id string
	if isMARC(rec.syntax) {
		title, id = marcTitle(rec.data), marcControl(rec.data, "001")
	} else if title, id = marcXML(rec); title == "" {
		title, _, _ = strings.Cut(strings.TrimSpace(string(rec.data)), "\n")
	}
	e.Title = schemes.Printable(title, 200)
	if id = strings.TrimSpace(id); id != "" && db != "" {
		e.Extra.Set("docid", id)
		e.Locator = l.z.retrievalURL(db, id)
	}
	return e
}

// retrievalURL is the Retrieval URL of docid in db on z's server, with
// z's esn and first record syntax; nil if it does not parse.
func (z *URL) retrievalURL(db, docid string) schemes.Locator {
	u := *z.u
	u.Scheme, u.Fragment = schemeRetrieval, nil
	var rs []string
	if len(z.RecordSyntaxes) > 0 {
		rs = z.RecordSyntaxes[:1]
	}
	s := (&URL{Retrieval: true, Databases: []string{db}, DocID: &docid, ESN: z.ESN, RecordSyntaxes: rs, u: &u}).String()
	pu, err := schemes.Parse(s)
	if err != nil {
		return nil
	}
	r, err := Parse(pu)
	if err != nil {
		return nil
	}
	return r
}
