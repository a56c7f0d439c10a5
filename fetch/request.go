package fetch

import (
	"context"
	"io"
	"time"

	"github.com/urlget/urlget/schemes"
)

// Method is what a Request asks of the resource its URL designates.
type Method string

const (
	// MethodGet retrieves the resource: its data, or, when the URL turns
	// out to designate a container, its Listing. The empty Method is
	// MethodGet.
	MethodGet Method = "get"
	// MethodList streams the entries of the container the URL designates
	// (a directory, menu, group or search), for schemes whose Caps
	// include Lists; others fail with KindUnsupported.
	MethodList Method = "list"
	// MethodStat describes the resource without retrieving it, for
	// schemes whose Caps include Stats; others fail with KindUnsupported.
	MethodStat Method = "stat"
)

// Request is one retrieval a Client carries out (Do, DownloadRequest,
// Stream): which URL, what to ask of it, and from which byte. Make one
// with NewRequest from a URL's text, or as a literal from a parsed URL
// (an Entry's Locator). Everything the Client's policy decides
// (credentials, TLS, retries, redirects) is the Client's, not the
// Request's. A Client never modifies a Request; one may be done again.
type Request struct {
	// Method is what to ask; "" is MethodGet.
	Method Method
	// URL is the parsed URL (Client.Parse, or an Entry's Locator).
	URL schemes.Locator
	// Offset asks for the resource from this byte on (0: from its
	// start). With a Partial it continues a copy the caller holds the
	// bytes before it of; Partial says what is known of them, for the
	// resume rule (schemes.Request.MayResume). A handler that may not
	// resume sends the whole resource: the Response's Offset says where
	// its Body starts. Download and Stream set both themselves when they
	// continue. Without a Partial, Offset is the first byte of a byte
	// range (curl's -r N-), which Do, Download and Stream deliver exactly,
	// for a scheme whose Caps include Ranges (others fail with
	// KindUnsupported): a server that sends the whole resource instead
	// (HTTP's 200 to a Range) is read past the bytes before it, with a
	// note, and a range that starts past the end fails with
	// schemes.RangeNotSatisfiable in its chain.
	Offset  int64
	Partial schemes.Partial
	// Length, when positive, ends the range at Offset+Length (curl's -r
	// N-M), or at the resource's end when that comes first: the handler
	// asks for only those bytes where its protocol can (HTTP's Range:
	// bytes=N-M), and the Client stops reading at the end otherwise,
	// closing the transfer (an FTP ABOR).
	Length int64
	// Suffix, when positive, asks for the resource's last Suffix bytes
	// (curl's -r -N), all of it when it is shorter; Offset and Length are
	// then 0. Where the protocol cannot ask for them (FTP without SIZE),
	// the whole resource is read past its other bytes when its size is
	// known, and the request fails (KindProtocol) when not.
	Suffix int64
	// Ranges asks for two or more byte ranges at once (curl's -r
	// 0-99,200-299), for a scheme whose Caps include MultiRanges (HTTP;
	// others fail with KindUnsupported): the Body is the server's reply
	// as it sent it (multipart/byteranges), which a caller writes as it
	// is, as curl does; a server that sends the whole resource instead
	// fails (KindProtocol). Offset, Length and Suffix are then 0; a list
	// of one range is taken as those. Not with Method other than
	// MethodGet.
	Ranges []schemes.ByteRange
	// WantModTime asks for the server's modification time even where it
	// costs a round trip (FTP MDTM); for MethodList, every entry's, even
	// where each costs a request (a Gopher+ menu's `$`).
	WantModTime bool
	// Listed is what a listing of the resource's container said of it,
	// for a caller that walked one (a mirror): a handler may take its
	// Size instead of asking (FTP SIZE), and Download checks the data
	// against it when the server announces no size and, with RemoteTime,
	// gives the file its ModTime when the server tells none. It is never
	// sent to the server.
	Listed *schemes.Entry
	// Exact asks for the bytes as the server stores them: no text
	// conversion guessed from the name (FTP TYPE I unless the URL says
	// ;type=a), as a mirror needs.
	Exact bool
	// IfModifiedSince asks for the resource only if it changed after this
	// time (HTTP If-Modified-Since; curl's -z DATE): when it did not, the
	// Response has NotModified set and an empty Body, and Download writes
	// nothing. A Conditional scheme asks its server; a handler that
	// learns the time before it sends (FTP MDTM, a file's mtime) compares
	// it; and the Client compares any other time it is told (a server
	// that ignored the condition), stopping the transfer, as curl does.
	// A resource whose time is not told is retrieved (with a note in the
	// Trace), as curl does. Ignored when continuing a partial copy.
	IfModifiedSince time.Time
	// ErrorPages takes the page of a server's error reply as the
	// resource (schemes.Request.ErrorPages: an HTTP error status, as
	// curl does without -f): Do returns it, Download writes it and Stream
	// copies it as they would the resource, the Response's (Result's)
	// Failure saying what the reply was. A page whose Failure is
	// retryable (HTTP 408, 429, 500, 502, 503, 504: those curl's --retry
	// tries again) is asked for again while tries are left, before
	// anything of it is written; the last try's page is the one kept.
	// The scheme's own options may refuse pages (the http handler's
	// Fail). Without it an error reply fails, as ever.
	ErrorPages bool
	// Answered, if set, is called with each attempt's answer — after
	// redirects, its Head and RedirectHeads where the handler kept them —
	// by Do, Stream and DownloadRequest, before anything of its body is
	// read: for a caller that shows each answer's head as it comes
	// (curl's -D), heads before the body. An error page asked for again
	// (ErrorPages) is an answer too.
	Answered func(r *Response)
	// IfUnmodifiedSince asks for the resource only if it did not change
	// after this time (HTTP If-Unmodified-Since; curl's -z -DATE): when
	// it did, the Response has Changed set and an empty Body, and
	// Download writes nothing; otherwise as IfModifiedSince.
	IfUnmodifiedSince time.Time
	// Next are the URLs the caller will ask this Client for after this
	// one, in order (the rest of a list of URLs, a mirror's batch of
	// files): a handler whose scheme pipelines (Caps Pipelines: NNTP's
	// article commands, FTP's next passive port) sends their requests
	// ahead on its connection (schemes.WithNext), so that a run of
	// requests costs a round trip or two rather than one each. Only the
	// first MaxNext are passed on; other schemes ignore them. Requests
	// sent ahead for URLs the caller then does not ask for are wasted,
	// never wrong.
	Next []schemes.Locator
	// NextShared says Next is shared with requests running at the same
	// time (a -Z run's next URLs, which any of its connections may
	// fetch): a handler readies only what any next request of its
	// server needs (FTP's next passive port), never a request for a
	// named URL (NNTP's articles), which another connection may fetch.
	NextShared bool
	// Page, for MethodList of a scheme whose containers are documents
	// (Caps Pages: an HTML index page), receives the page byte for byte
	// as the Listing is read (schemes.Request.Page): whole once the
	// Listing has been read to its end and closed without an error.
	// After redirects it is the page of the Response's URL, whose scheme
	// may not have Pages (then nothing is written). Others ignore it.
	Page io.Writer
	// Browse says the caller shows listings to a person as pages: for
	// MethodGet, a document that is also a list of links (a text/gemini
	// page) may come back as a Listing, its text kept as EntryInfo
	// entries in order, in place of its Body (schemes.Request.Browse).
	// Download and Stream never ask it: they keep the bytes.
	Browse bool
}

// answered tells req's Answered of r, an attempt's answer.
func (r *Request) answered(resp *Response) {
	if r.Answered != nil && resp != nil {
		r.Answered(resp)
	}
}

// MaxNext is how many of a Request's Next a handler is told of: more than
// a pipelining handler sends ahead (NNTP's window, 64), so that its window
// stays full. A caller that batches requests for pipelining (a mirror's
// files of one directory) needs batches no longer than this.
const MaxNext = 128

// NewRequest parses raw with the Client's registry into a Request of
// method.
func (c *Client) NewRequest(method Method, raw string) (*Request, error) {
	loc, err := c.Parse(raw)
	if err != nil {
		return nil, err
	}
	return &Request{Method: method, URL: loc}, nil
}

// method is r's Method, "" read as MethodGet.
func (r *Request) method() Method {
	if r.Method == "" {
		return MethodGet
	}
	return r.Method
}

// Do carries out req and returns the response, with its Body (or, for a
// container and MethodList, its Listing) streaming from the server.
// Failures before the body starts are retried as the Client says, and
// redirects and resolutions are followed under its policy; failures while
// reading the body are the caller's to handle (Download and Stream handle
// them). Close the Response: that also ends the attempt's MaxTime. A
// MethodStat Response has no Body or Listing and is closed already: its
// Entry describes the resource.
//
// An error's *schemes.Error names in URL the request that failed: after
// redirects, the URL they led to, which is all a caller learns of where a
// failed request went.
func (c *Client) Do(ctx context.Context, req *Request) (*Response, error) {
	ctx = c.withNext(ctx, req)
	resp, err := c.do(ctx, *req)
	if err != nil {
		return nil, err
	}
	if req.method() == MethodStat {
		resp.Close()
	}
	return resp, nil
}

// Entry describes the resource the Response came from, as a listing
// would: its Locator is the URL after redirects.
func (r *Response) Entry() schemes.Entry { return r.Response.Entry(r.URL) }

// Get retrieves raw: Do with a MethodGet Request.
func (c *Client) Get(ctx context.Context, raw string) (*Response, error) {
	return c.doRaw(ctx, MethodGet, raw)
}

// List returns the entries of the container raw designates (a directory,
// menu, group or search), streamed as the server sends them: Do with a
// MethodList Request. Close the Response.
func (c *Client) List(ctx context.Context, raw string) (*Response, error) {
	return c.doRaw(ctx, MethodList, raw)
}

// Stat describes the resource raw designates without retrieving it: Do
// with a MethodStat Request, and its Entry.
func (c *Client) Stat(ctx context.Context, raw string) (schemes.Entry, error) {
	resp, err := c.doRaw(ctx, MethodStat, raw)
	if err != nil {
		return schemes.Entry{}, err
	}
	return resp.Entry(), nil
}

func (c *Client) doRaw(ctx context.Context, m Method, raw string) (*Response, error) {
	req, err := c.NewRequest(m, raw)
	if err != nil {
		return nil, err
	}
	return c.Do(ctx, req)
}

// withNext is ctx naming req.Next, up to MaxNext, for a scheme that
// pipelines (schemes.WithNext): the only place the contract's look-ahead
// is filled, for every caller.
func (c *Client) withNext(ctx context.Context, req *Request) context.Context {
	if len(req.Next) == 0 || !c.Caps(req.URL).Has(schemes.Pipelines) {
		return ctx
	}
	if req.NextShared {
		return schemes.WithSharedNext(ctx, req.Next[:min(len(req.Next), MaxNext)])
	}
	return schemes.WithNext(ctx, req.Next[:min(len(req.Next), MaxNext)])
}
