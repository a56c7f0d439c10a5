package schemes

import (
	"context"
	"crypto/tls"
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
	// String formats the URL so that parsing it again yields an equal value.
	// It includes the password; use Redacted for anything shown to people.
	String() string
	// Redacted is String with the password replaced by "****".
	Redacted() string
	// Fields returns the scheme's decoded parts as a JSON-marshalable value,
	// printed by `urlget parse` under the scheme's name.
	Fields() any
}

// Handler carries out one scheme's access algorithm.
//
// Fetch retrieves the resource req.URL designates. On success the caller
// must close Response.Body; reading it streams the resource from the server,
// and a connection failure surfaces as a read error. Fetch must honour ctx
// for cancellation and deadlines at every step, including while the caller
// reads the body; it dials only through req.Dialer, reports every protocol
// line through req.Trace, and returns an *Error on failure. A handler holds
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

// Lister is implemented by handlers whose scheme has directories, menus or
// groups. List returns the entries of the container req.URL designates.
type Lister interface {
	List(ctx context.Context, req *Request) ([]Entry, error)
}

// Dialer opens the connections handlers need. The transport package's
// implementation applies the port policy of RFC 1738 §6, proxies, connect
// and idle timeouts, and tracing; a handler must never dial any other way.
type Dialer interface {
	// Dial connects to host:port on behalf of scheme, which the port policy
	// uses (port 119 is fine for nntp, refused for http).
	Dial(ctx context.Context, scheme, host string, port int) (net.Conn, error)
}

// Forwarder is implemented by a Dialer that can send requests through a
// proxy that forwards them rather than tunnels them: an HTTP proxy given
// absolute-form requests (RFC 7230 §5.3.2), which is how plain http goes
// through a proxy whose CONNECT is limited to port 443. The http handler
// asks it before each http:// request.
type Forwarder interface {
	// ForwardProxy names the proxy that should forward scheme's requests
	// for host:port, with its port explicit, or nil when the connection
	// goes direct or through a tunnel that Dial makes. It applies Dial's
	// policy to host:port first, so a refused port fails here.
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
// none (netrc, --user). ok is false when nothing is known for host.
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
	Trace  Trace       // never nil when the fetch package builds the request
	TLS    *tls.Config // for TLS schemes and STARTTLS-like upgrades; nil means defaults
	Offset int64       // resume: ask the server to start at this byte (0: from the start)
	// ResumeModTime is the server's modification time of the data being
	// resumed, as the server reported it when that data was received (the
	// fetch package stamps partial files with it); zero if unknown. Handlers that can validate (HTTP If-Range,
	// FTP MDTM) send the whole resource instead, with Response.Offset 0,
	// when the remote resource changed since, so a stale file is never
	// appended to.
	ResumeModTime time.Time
	Credentials   Credentials // may be nil
	Prompt        Prompter    // may be nil: no terminal
	Timeout       time.Duration
}

// Response is what a handler returns for a retrieved resource.
type Response struct {
	// Body streams the resource, starting at Offset. For a directory, menu or
	// group it is the listing rendered as text, one entry a line.
	Body io.ReadCloser
	// Offset is the first byte of Body within the resource: Request.Offset
	// when the server honoured a resume request, 0 when it sent everything.
	Offset int64
	// Size is the resource's full size in bytes, or -1 when unknown.
	Size int64
	// Type is the media type when the server or the scheme tells it.
	Type string
	// ModTime is the resource's modification time, zero when unknown.
	ModTime time.Time
	// Name is a suggested local file name (the last path segment, decoded);
	// callers must still check it before using it as a path.
	Name string
	// Entries is non-nil when the URL designates a container (directory,
	// menu, group); Body then holds the rendered listing.
	Entries []Entry
	// SHA256 is the resource's expected SHA-256 in lower-case hex, when the
	// server published one; Download verifies it.
	SHA256 string
	// Redirect is set when the server referred the client elsewhere (an HTTP
	// 3xx Location, a gopher "URL:" item, a Prospero forward) instead of
	// sending the resource: the absolute URL to go to. Body is then an empty
	// reader. Handlers never follow redirects themselves; the fetch Client
	// does, within its limit, so that policy lives in one place.
	Redirect string
	// Status is the server's final reply code (HTTP 200/206, FTP 226, ...),
	// 0 when the protocol has none.
	Status int
}

// EntryKind says what an Entry refers to.
type EntryKind string

// The kinds of entry.
const (
	EntryFile  EntryKind = "file"
	EntryDir   EntryKind = "dir"
	EntryLink  EntryKind = "link"
	EntryInfo  EntryKind = "info"  // text only (gopher info line)
	EntryOther EntryKind = "other" // device, search, telnet session, ...
	EntryRaw   EntryKind = "raw"   // a listing line no parser understood, kept as Raw
)

// Entry is one item of a directory, menu or group listing.
type Entry struct {
	Name    string    `json:"name"`
	Kind    EntryKind `json:"kind"`
	Size    int64     `json:"size"` // -1 when unknown
	ModTime time.Time `json:"modtime,omitzero"`
	Target  string    `json:"target,omitempty"` // link target
	URL     string    `json:"url,omitempty"`    // absolute URL of the item, when it has one
	Type    string    `json:"type,omitempty"`   // scheme-specific type (gopher item type, ...)
	Raw     string    `json:"raw,omitempty"`    // the listing line as received
}
