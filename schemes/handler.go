package schemes

import (
	"context"
	"io"
	"net"
	"net/url"
	"time"
)

// Locator is one URL parsed into the typed value of its scheme (an ftp.URL,
// a gopher.URL, ...). URLs are parsed once, into a Locator; handlers read its
// typed fields and never re-parse strings.
type Locator interface {
	// Generic returns the scheme-independent parts: scheme, user, password,
	// host, port and fragment. Callers must not modify it.
	Generic() *URL
	// String formats the URL in its canonical form (schemes.FormatLocator
	// and the scheme's own rules), so that parsing it again yields an
	// equal value and two equivalent URLs format alike. It includes the
	// password; use Redacted for anything shown to people.
	String() string
	// Redacted is String with the password replaced by "****".
	Redacted() string
	// Fields returns the scheme's decoded parts as a JSON-marshalable value,
	// printed by `urlget parse` under the scheme's name.
	Fields() any
	// LocalName suggests a local file name for what the URL names, for
	// callers that save it (`urlget -O`): one decoded path segment, from
	// the part of the URL that names the resource in its scheme — ftp,
	// http and file: the path's last segment; gopher: the selector's;
	// WAIS: the document's file name; news: the article number or the
	// message-id; prospero: the link name. It is "" when the URL names
	// nothing a file could be named after (a path ending in "/", a telnet
	// login). It never holds "/", "\", NUL or another control character
	// and is never "." or ".." (BaseName makes a decoded name so); callers
	// still check it against their own rules before creating a file.
	LocalName() string
}

// TreePather is implemented by the Locators of schemes whose url-path
// holds more than the resource's place in the server's tree: TreePath is
// the url-path without its leading "/" and without the rest (ftp's
// ";type=", gopher's item type), escaped as String writes it, so that a
// mirror can tell what lies below a directory. For other Locators the
// place is the url-path itself.
type TreePather interface {
	TreePath() string
}

// Parented is implemented by the Locators of schemes whose tree is not
// spelled with the url-path's "/": an LDAP URL's DN names its parent by
// its last RDNs, so "ou=a,dc=x" is below "dc=x". Parent is the URL of
// the container above, of the kind a listing's entries are (for LDAP a
// base search of the parent DN, the URL's bind kept), and false at the
// top of the server. Each Parent is strictly shorter than its child, so
// walking up ends. Callers that need the tree (a gateway page's "Up"
// link and breadcrumbs, a mirror's bounds) ask it instead of cutting
// the path at "/".
type Parented interface {
	Parent() (Locator, bool)
}

// Handler carries out one scheme's access algorithm.
//
// Fetch retrieves the resource req.URL designates. On success the caller
// must close Response.Body; reading it streams the resource from the server,
// and a connection failure surfaces as a read error. Fetch must honour ctx
// for cancellation and deadlines at every step, including while the caller
// reads the body; it dials only through req.Dialer, reports every protocol
// line through req.Trace, and returns an *Error on failure — the protocol's
// error, with no URL (the fetch Client names it), and cancellation and
// timeouts classified by IOError (ContextKind). A handler holds
// configuration only, never per-request state, and is safe for concurrent use.
type Handler interface {
	Fetch(ctx context.Context, req *Request) (*Response, error)
}

// Explainer is implemented by every handler: Explain returns, without any
// I/O, the plan Fetch would carry out for req, one protocol step a line
// (for ftp: "USER anonymous", "PASS ****", "CWD pub", "TYPE I", "RETR f").
// Secrets in the plan are written as "****".
type Explainer interface {
	Explain(req *Request) ([]string, error)
}

// Lister is implemented by handlers whose scheme has directories, menus,
// groups or searches (Caps Lists).
//
// List treats req.URL as a container, whatever its syntax suggests (an ftp
// URL without a trailing "/" is listed as a directory), and returns a
// Response whose Listing streams its entries in the server's order, or
// whose Redirect refers the caller elsewhere. Every entry's Locator keeps
// the credentials of req.URL, so it can be fetched as it is. A URL that
// designates no container fails with KindUsage naming the part at fault.
// The rules of Handler.Fetch apply (ctx, Dialer, Trace, *Error).
type Lister interface {
	List(ctx context.Context, req *Request) (*Response, error)
}

// Stater is implemented by handlers that can describe a resource without
// retrieving its body (Caps Stats): ftp SIZE/MDTM/MLST, http HEAD, file
// lstat. Stat returns a Response with neither Body nor Listing, whose
// Kind, Size, ModTime, Precision, Type, Name and ETag describe the
// resource (Response.Entry turns it into an Entry), or whose Redirect
// refers the caller elsewhere. Callers that need it (a mirror's plan, a
// resume check) call it; a plain download never pays for it.
type Stater interface {
	Stat(ctx context.Context, req *Request) (*Response, error)
}

// Dialer opens the connections handlers need. The transport package's
// implementation applies the port policy of RFC 1738 §6, proxies, connect
// and idle timeouts, cancellation and tracing to each of its methods; a
// handler must never open a socket or start TLS any other way.
//
// Notes about connecting go to the Trace that ctx carries (WithTrace), so
// that they land in the scope of the protocol connection being opened.
type Dialer interface {
	// Dial connects to host:port over TCP on behalf of scheme, which the
	// port policy uses (port 119 is fine for nntp, refused for http). Port
	// 0 means the scheme's default.
	Dial(ctx context.Context, scheme, host string, port int) (net.Conn, error)
	// DialDatagram opens a UDP socket connected to host:port on behalf of
	// scheme (Prospero's ARDP): each Write sends one datagram, each Read
	// returns one. The port policy applies to every address dialed this
	// way, so a handler dials again for each new peer (a redirect). No
	// proxy carries datagrams: when one is configured for scheme, it fails
	// with KindUnsupported rather than going around it.
	DialDatagram(ctx context.Context, scheme, host string, port int) (net.Conn, error)
	// StartTLS performs a client TLS handshake on c, a connection Dial
	// opened to host: an implicit-TLS scheme right after connecting, or an
	// upgrade (FTP AUTH TLS, an FTPS data connection, NNTP and SMTP
	// STARTTLS). The Dialer's own TLS settings apply (verification, roots,
	// client certificate, versions: set once, as net/http's
	// Transport.TLSClientConfig is), so every connection of a Client is
	// checked alike; opts say only what is the connection's own (a session
	// to resume, the protocols offered by ALPN). It verifies the
	// certificate against host unless the Dialer's settings name another.
	// An untrusted certificate is KindSafety. On failure the caller closes
	// c (crypto/tls has already closed it when ctx or the connect timeout
	// ended the handshake; closing it again is harmless).
	StartTLS(ctx context.Context, c net.Conn, scheme, host string, opts ...TLSOption) (net.Conn, error)
}

// Forwarder is implemented by a Dialer that can send requests through a
// proxy that forwards them rather than tunnels them: an HTTP proxy given
// absolute-form requests (RFC 7230 §5.3.2), which is how plain http goes
// through a proxy whose CONNECT is limited to port 443. The http handler
// asks it before each http:// request.
type Forwarder interface {
	// ForwardProxy names the proxy that should forward scheme's requests
	// for host:port, with its port explicit, or nil when the connection
	// goes direct or through a tunnel that Dial makes. A handler asks it
	// only for requests a proxy can forward in absolute form (plain HTTP),
	// which it alone knows. It applies Dial's policy to host:port first,
	// so a refused port fails here.
	ForwardProxy(scheme, host string, port int) (*url.URL, error)
	// DialProxy connects to proxy itself, with Dial's timeouts and
	// cancellation, on behalf of scheme.
	DialProxy(ctx context.Context, scheme string, proxy *url.URL) (net.Conn, error)
}

// Trace receives the protocol exchange for `-v` and the library's Trace
// option. Implementations must be safe for concurrent use (net/http calls
// trace hooks from its own goroutines) and redact secrets; handlers still call Secret for
// every password they hold so that it is never shown, whatever line it
// appears in.
type Trace interface {
	Sent(line string)     // a line sent to the server ("> ")
	Received(line string) // a line received ("< ")
	Info(msg string)      // a note from the client ("* ")
	Secret(s string)      // s must be redacted from everything traced after this
}

// Scoper is implemented by Traces that can give each protocol connection
// a scope of its own: lines of parallel connections are told apart, and
// state that redacts by a line's shape (inside a SASL exchange, every
// client line is a credential) is kept per connection. Secrets given to any
// scope are still redacted everywhere.
type Scoper interface {
	Scope() Trace
}

// NewScope returns a new scope of t for one protocol connection, or t
// itself when t has no scopes. A nil t gives NopTrace.
func NewScope(t Trace) Trace {
	if t == nil {
		return NopTrace{}
	}
	if s, ok := t.(Scoper); ok {
		return s.Scope()
	}
	return t
}

type traceKey struct{}

// WithTrace returns a context that carries t, the scope of the connection
// about to be dialed: the Dialer writes its notes (connecting, proxy, TLS)
// there. Like net/http/httptrace, the context carries hooks, not request
// state.
func WithTrace(ctx context.Context, t Trace) context.Context {
	return context.WithValue(ctx, traceKey{}, t)
}

// TraceFrom returns the Trace ctx carries, or nil.
func TraceFrom(ctx context.Context) Trace {
	t, _ := ctx.Value(traceKey{}).(Trace)
	return t
}

// NopTrace is a Trace that discards everything.
type NopTrace struct{}

// Sent discards line.
func (NopTrace) Sent(string) {}

// Received discards line.
func (NopTrace) Received(string) {}

// Info discards msg.
func (NopTrace) Info(string) {}

// Secret does nothing.
func (NopTrace) Secret(string) {}

// Credentials supplies a user name and password for a host when the URL has
// none (--user, netrc). ok is false when nothing is known for host. An
// empty password is none known (a netrc entry with a login only, -u
// USER): a handler that can ask the person at the terminal (Request.Prompt)
// does so when the server wants a password, and otherwise sends it empty.
type Credentials func(scheme, host string, port int) (user, password string, ok bool)

// Prompter asks the person at the terminal for a value. secret asks without
// echo. It returns an error when there is no terminal; handlers then fail
// with a message that names the flag which supplies the value.
type Prompter func(ctx context.Context, prompt string, secret bool) (string, error)

// Request is one retrieval: the parsed URL and everything from the caller's
// policy that the handler needs to carry it out.
type Request struct {
	URL    Locator
	Dialer Dialer
	// Conns keeps idle sessions between requests; nil means none: each
	// request dials its own connection and closes it when done.
	Conns Conns
	// Trace is never nil when the fetch package builds the request. TLS
	// settings are not part of a Request: they are the Dialer's.
	Trace Trace
	// Offset asks the server to start at this byte (0: from the start).
	// With a Partial it is the bytes of the partial copy already held: a
	// handler honours it only when MayResume says so, and otherwise
	// sends everything with Response.Offset 0 and says why in the Trace.
	// Without one it is the first byte of a byte range (Ranged), which a
	// handler whose Caps include Ranges starts at; a range that starts at
	// or past the end fails (RangeError).
	Offset int64
	// Partial describes the local data being continued (Offset > 0); it
	// is zero for a byte range, which continues nothing.
	Partial Partial
	// Length, when positive, asks for no more than Length bytes from
	// Offset: a byte range's end (curl's -r N-M), with or without a
	// Partial (a range continued after a broken transfer). A handler
	// whose protocol can name the end asks for only those bytes (HTTP
	// Range: bytes=N-M) and says so in Response.Length; others send on
	// from Offset, and the caller stops reading at the end (the fetch
	// Client closes the Body there, which aborts an FTP transfer).
	Length int64
	// Suffix, when positive, asks for the resource's last Suffix bytes,
	// or all of it when it is shorter (curl's -r -N); Offset and Length
	// are then 0. A handler finds where they start as its protocol lets
	// it (HTTP Range: bytes=-N, FTP SIZE, a file's size) and says so in
	// Response.Offset; one that cannot sends the whole resource, which the
	// caller cuts where Response.Size says the suffix starts.
	Suffix int64
	// Ranges asks for two or more byte ranges in one request (curl's -r
	// 0-99,200-299), for a scheme whose Caps include MultiRanges; Offset,
	// Length and Suffix are then 0. Body is what the server sent for them
	// as it sent it (HTTP's multipart/byteranges, or a single part), with
	// Response.Length its length when known; a server that sends the
	// whole resource instead fails with KindProtocol.
	Ranges []ByteRange
	// WantModTime says the caller needs Response.ModTime (to give a file
	// the server's time, -R). A handler that must spend a round trip on
	// it (FTP MDTM) asks only then, or when resuming; others fill it
	// whenever the server tells it. For List it asks for the entries'
	// times where they cost a request of their own (Gopher+ `$` for a
	// menu); listings that carry times anyway (MLSD, LIST) ignore it.
	WantModTime bool
	// Listed is what a listing of the resource's container said of it
	// (a mirror's walk), nil when nothing was listed. A handler may take
	// its Size instead of spending a round trip on one (FTP SIZE); the
	// caller checks the data against it when the server announces no
	// size. It is never sent to the server.
	Listed *Entry
	// Exact asks for the bytes as the server stores them, with no text
	// conversion the scheme would otherwise guess from the name (FTP
	// TYPE I unless the URL says ;type=a): what a mirror wants.
	Exact bool
	// IfModifiedSince asks for the resource only if it changed after
	// this time (HTTP If-Modified-Since): a handler that can ask and is
	// told it did not, or that learns the resource's modification time
	// before it sends anything (FTP MDTM, a file's mtime) and finds it
	// not after this time (Unmodified), returns a Response with
	// NotModified set and an empty Body. Zero asks nothing; ignored when
	// continuing a partial copy (a Partial).
	IfModifiedSince time.Time
	// ErrorPages asks for the page of a server's error reply as the
	// resource, where the protocol's error replies carry one (HTTP: a
	// status of 400 and up, or a 3xx that is no redirect followed): the
	// handler hands it over as it does a resource — Body the page,
	// Status the reply's code, Head its head where kept — with Failure
	// the error it would have returned instead. That is what curl does
	// without -f: the transfer worked, the server said no. Not when
	// resuming (Offset > 0): a page must never land after the bytes of a
	// partial copy. A handler without such replies ignores it; without
	// it an error reply fails as ever.
	ErrorPages bool
	// IfUnmodifiedSince asks for the resource only if it did not change
	// after this time (HTTP If-Unmodified-Since, curl's -z -DATE): a
	// handler told it did (HTTP 412), or that finds its modification time
	// after this time, returns a Response with Changed set and an empty
	// Body. Zero asks nothing; ignored when continuing a partial copy.
	IfUnmodifiedSince time.Time
	// RequireTLS says the caller refuses clear text (--ssl-reqd): a
	// handler whose scheme claims the TLS capability without being TLS
	// from the start upgrades its connections (FTP AUTH TLS, NNTP and SMTP
	// STARTTLS) before sending anything else, and fails with KindSafety
	// when the server cannot. The fetch Client never gives it to a scheme
	// without the capability but an Encrypted one (sftp), which has no
	// clear text to upgrade and ignores it.
	RequireTLS bool
	// NoAmbientCredentials says the handler must not log in with what
	// the user's environment holds without naming it for this request
	// (the SSH agent's keys, ~/.ssh's default identity files): the
	// caller retrieves URLs that others name (a gateway). Credentials,
	// and a key a scheme's option names, still apply.
	NoAmbientCredentials bool
	// Credentials supplies a login when the URL has none. The fetch
	// Client gives handlers only what its credential policy allows for
	// this URL's scheme, host and port. May be nil.
	Credentials Credentials
	// OtherOrigin says a redirect led this request away from the scheme,
	// host and port of the URL the caller named, and the caller does not
	// trust the hosts redirects lead to (curl's --location-trusted): a
	// handler sends here nothing the user meant for that origin alone
	// (the http handler's custom Authorization and Cookie fields), as it
	// gets no Credentials here either.
	OtherOrigin bool
	// Redirects are the statuses (Response.Status) of the redirects
	// followed to reach this request, in order; nil for the URL the
	// caller named. A handler that sends more than the URL (http's
	// request body and method) decides by them what goes on, as its
	// protocol's rules for each status say.
	Redirects []int
	Prompt    Prompter // may be nil: no terminal
	// Notify tells the person running the retrieval what they must do
	// now (mailto: type the message on the terminal), as the fetch
	// Client's Notify; nil when nobody is told.
	Notify  func(msg string)
	Timeout time.Duration
	// Page, for List of a scheme with Caps Pages, receives the page the
	// entries are read from, byte for byte as they are read (decoded of
	// any content coding), once List has returned a Listing: a caller
	// that reads the Listing to its end and closes it without an error
	// holds the whole page (a mirror keeps it as DIR/index.html). A write
	// error ends the listing with that error. nil asks for nothing; other
	// handlers, and Fetch and Stat, ignore it.
	Page io.Writer
	// Browse says the caller shows listings to a person as pages (the
	// gateway's own pages, not its proxy's): a document that is also a
	// list of links (a text/gemini page) may be answered with a Listing
	// in place of its Body, its text kept in order as EntryInfo entries
	// between the links, so that the page reads as the document does. It
	// costs no request of its own: the handler reads the one reply
	// either way. A handler without such documents ignores it, and List
	// does too (a listing is asked for there already).
	Browse bool
}

// Response is what a handler returns: a resource's bytes (Fetch), a
// container's entries (Fetch or List), a description (Stat), or a
// referral elsewhere (any of them).
type Response struct {
	// Body streams the resource, starting at Offset; nil when Listing is
	// set, and for Stat.
	Body io.ReadCloser
	// Length, when positive, is how many bytes Body carries from Offset
	// where that is less than the rest of the resource: the range the
	// server sent for Request.Length or Suffix (HTTP's 206 Content-Range),
	// or the length of a reply to Request.Ranges. 0 when Body runs on to
	// the resource's end (Size); End says where Body ends either way.
	Length int64
	// Listing streams the entries when the URL designates a container
	// (directory, menu, group, search); nil otherwise. Rendering it for
	// people is the caller's business.
	Listing Listing
	// Offset is the first byte of Body within the resource: Request.Offset
	// when the server honoured a resume request, 0 when it sent everything.
	Offset int64
	// Kind is what the resource is (EntryFile, EntryDir, ...); "" when the
	// handler cannot tell.
	Kind EntryKind
	// Size is the resource's full size in bytes, or -1 when unknown.
	Size int64
	// Type is the media type when the server or the scheme tells it.
	Type string
	// ModTime is the resource's modification time, zero when unknown,
	// exact to Precision.
	ModTime   time.Time
	Precision time.Duration
	// Name is a suggested local file name (the last path segment, decoded,
	// passed through SafeName; "" if none).
	Name string
	// SuggestedName is the file name the server itself suggested (HTTP
	// Content-Disposition), passed through BaseName; "" when it
	// suggested none. Name falls back to the URL's name; this does not,
	// so that a caller can tell the server's choice (curl's -J).
	SuggestedName string
	// SHA256 is the resource's expected SHA-256 in lower-case hex, when the
	// server published one; Download verifies it.
	SHA256 string
	// ETag is the HTTP entity tag, when the server gave one.
	ETag string
	// Mode is the representation the bytes are in, when the scheme has
	// several (FTP TYPE "I" or "A"); a partial copy records it.
	Mode string
	// ModeGuessed says Mode was guessed (FTP without ";type=", RFC 1738
	// §3.2.3) rather than given by the URL or the user.
	ModeGuessed bool
	// Redirect is set when the server referred the client elsewhere (an HTTP
	// 3xx Location, a gopher "URL:" item, a Gopher+ "moved") instead of
	// sending the resource: the absolute URL to go to. Body and Listing are
	// nil. Handlers never follow redirects themselves; the fetch Client
	// does, under its redirect policy, so that policy lives in one place.
	Redirect string
	// Status is the server's final reply code (HTTP 200/206, FTP 226, ...),
	// 0 when the protocol has none.
	Status int
	// Head is the reply's head exactly as the server sent it, for a
	// caller that shows it as it came (urlget -I and -D, as curl's do):
	// for HTTP the status line and the header fields, each with its line
	// end, through the empty line that ends them. It is text, not fields,
	// so that the order, the spelling and the reason phrase survive
	// (net/http keeps none of them). Stat and Fetch fill it, a redirect's
	// too, where the protocol has a head and the handler could keep it;
	// "" otherwise, and the caller makes do with the other fields.
	Head string
	// NotModified says the resource did not change after
	// Request.IfModifiedSince (HTTP's 304, or a time the handler
	// compared); Body is empty.
	NotModified bool
	// Failure is set when the response is a server's error reply handed
	// over as the resource because the Request asked for ErrorPages: the
	// error (an *Error with ErrErrorStatus in its chain for an HTTP
	// status of 400 and up) that the handler returns without
	// ErrorPages. The caller that takes the page as data can still tell
	// it is no success; the fetch Client asks again, before anything of
	// the page is written, when Failure is retryable and tries are left.
	Failure error
	// Changed says the resource changed after Request.IfUnmodifiedSince
	// (HTTP's 412, or a time the handler compared); Body is empty.
	Changed bool
	// Resolved is set by a scheme that resolves names to other URLs
	// (prospero: an object's access method), nil otherwise; see
	// Resolution. It may also be set on a response with a Body or a
	// Listing, to record the steps that led to it.
	Resolved *Resolution
}

// Resolution is how a resolving scheme (prospero) reached a resource.
// When URL is set, Body and Listing are nil and the fetch Client
// retrieves URL with that URL's own handler: a step of its own, not a
// redirect (the redirect policy and --max-redirs do not apply to it), and
// a URL of an interactive or sending scheme is reported, never started.
type Resolution struct {
	// URL is the absolute URL the resource is retrieved by, "" when the
	// response itself carries the resource.
	URL string
	// Chain records the steps, first the URL asked (for --json and -v):
	// "prospero://…", "FORWARDED …", "ACCESS-METHOD AFTP …", the URL.
	Chain []string
}

// Entry describes the resource r is about as a listing entry of loc (for
// Stat): its name, kind, size and time.
func (r *Response) Entry(loc Locator) Entry {
	e := Entry{Kind: r.Kind, Size: r.Size, ModTime: r.ModTime, Precision: r.Precision, Locator: loc}
	if e.Kind == "" {
		e.Kind = EntryUnknown
	}
	if r.ModTime.IsZero() {
		e.Precision = 0
	}
	e.SetName(r.Name)
	if r.Type != "" {
		e.Extra.Set("type", r.Type)
	}
	if r.ETag != "" {
		e.Extra.Set("etag", r.ETag)
	}
	return e
}

// End is the byte after the last one Body carries, -1 when unknown:
// Offset+Length for a range the server bounded, else Size.
func (r *Response) End() int64 {
	if r.Length > 0 {
		return r.Offset + r.Length
	}
	return r.Size
}

// Close releases what r holds: its Body or its Listing.
func (r *Response) Close() error {
	var err error
	if r.Body != nil {
		err = r.Body.Close()
	}
	if r.Listing != nil {
		if lerr := r.Listing.Close(); err == nil {
			err = lerr
		}
	}
	return err
}
