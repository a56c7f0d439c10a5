package schemes

import "strings"

// Caps says what a scheme's handler can do. The fetch Client and the
// conformance suite read a Scheme's Caps instead of asserting interfaces,
// and Registry.Register checks that a handler implements what its Caps
// claim.
type Caps uint

// The capabilities a scheme declares.
const (
	// Retrieves: Fetch returns the resource's bytes (or its listing).
	Retrieves Caps = 1 << iota
	// Lists: the handler is a Lister.
	Lists
	// Stats: the handler is a Stater.
	Stats
	// Resumes: Fetch honours Request.Offset under the resume rule
	// (Request.MayResume).
	Resumes
	// Interactive: Fetch starts a session with a person (telnet); it is
	// never reached by a redirect.
	Interactive
	// Sends: Fetch sends something on the user's behalf (mailto sends
	// mail); it is never reached by a redirect.
	Sends
	// Local: Fetch reads this machine's files (file:); a server's redirect
	// never reaches it.
	Local
	// Conditional: Fetch honours Request.IfModifiedSince, answering a
	// resource that did not change since then with NotModified and no
	// bytes (HTTP's 304).
	Conditional
	// Crawls: the scheme's containers are documents of links that may
	// point anywhere on the server, and back (HTML index pages, gopher
	// menus), not a file system's directories: a walk of them is a crawl,
	// which places what it finds by its URL, and which can loop, so it is
	// bounded by the links followed. Crawls needs Lists.
	Crawls
	// TLS: the scheme's connections can be protected by TLS, from the
	// start (https, ftps, nntps, gophers) or by an upgrade the handler
	// makes when Request.RequireTLS asks (FTP AUTH TLS, NNTP and SMTP
	// STARTTLS). A Client that requires TLS (--ssl-reqd) refuses a scheme
	// without it before it dials. A Local scheme opens no connection to
	// protect, and cannot claim it.
	TLS
	// Pipelines: Fetch sends the requests of the Locators NextOf(ctx)
	// gives ahead of their turn, on the connection of the request (NNTP
	// commands pipelined, RFC 3977 §3.5), so that a caller that fetches
	// many URLs of one server one after another pays a round trip per
	// window of them rather than per URL. The caller then fetches them
	// in that order, each with the rest as its NextOf; one it skips costs
	// only the requests sent ahead for it. When NextShared(ctx), other
	// connections fetch from the same URLs at the same time: only what
	// serves any next request (FTP's passive port) is readied.
	Pipelines
	// RedirectTarget: a server's redirect may lead to the scheme unless
	// the caller said otherwise (curl's default --proto-redir: http,
	// https, ftp and ftps). A redirect is a URL a server chose, and a
	// request to it is built from that URL alone: only a scheme whose
	// request carries nothing a server could turn against another
	// service claims it. Register checks that it also Retrieves and is
	// neither Interactive, Sends nor Local.
	RedirectTarget
	// Pages: a container is itself a document that someone wrote and a
	// browser shows (an HTML index page, hand-made or a server's), not
	// only the list of entries a server makes (an FTP listing, a gopher
	// menu): List writes its bytes to Request.Page as it reads them, so
	// that a mirror can keep it beside the entries (DIR/index.html, as
	// wget -m does). Pages needs Lists.
	Pages
	// Ranges: Fetch sends a byte range of the resource when asked for one
	// (Request.Ranged: an Offset without a Partial, Length, Suffix), and
	// says in Response.Offset and Length which bytes Body carries; a
	// range that starts past the end fails (Request.RangeError). A
	// scheme that Resumes continues partial copies as well; one with
	// Ranges alone (WAIS, whose documents have no time or identity to
	// judge a partial copy by) is asked for ranges only.
	Ranges
	// MultiRanges: Fetch asks for several byte ranges at once
	// (Request.Ranges) and returns what the server sent for them as it
	// sent it (HTTP's multipart/byteranges). MultiRanges needs Ranges.
	MultiRanges
	// RedirectsWithin: the protocol has redirects of its own, to another
	// URL of the same scheme (gemini's 3x), which a Client follows by
	// default as it follows http's to http: they reach nothing the URL's
	// own scheme did not. A redirect from another scheme still needs
	// RedirectTarget (or the caller's word).
	RedirectsWithin
	// Encrypted: every connection of the scheme is encrypted and the
	// server authenticated from the start by other means than TLS (SSH:
	// its host key checked against the known hosts), so there is no clear
	// text to refuse. A Client that requires TLS (--ssl-reqd, which curl
	// applies only to protocols that can upgrade to TLS) accepts it as it
	// does a TLS scheme; the handler has nothing to upgrade and ignores
	// Request.RequireTLS. A Local scheme opens no connection, and cannot
	// claim it.
	Encrypted
	// OneProcessor: each exchange passes between goroutines of the
	// handler's transport (net/http's Transport reads and writes every
	// connection on goroutines of its own), so a run that fetches one URL
	// after another is faster on one processor: with two, each pass wakes
	// a thread on the other CPU (200 small files over HTTP on loopback:
	// 60 ms with two, 47 ms with one). It is a hint to a command, which
	// may set GOMAXPROCS 1 while it fetches such URLs one at a time; a
	// library never changes it. A handler that waits on its connection
	// from the caller's goroutine does not claim it (an LDAP search was
	// slower on one processor).
	OneProcessor
)

var capNames = []struct {
	c    Caps
	name string
}{
	{Retrieves, "retrieves"}, {Lists, "lists"}, {Stats, "stats"}, {Resumes, "resumes"},
	{Interactive, "interactive"}, {Sends, "sends"}, {Local, "local"},
	{Conditional, "conditional"}, {Crawls, "crawls"}, {TLS, "tls"}, {Pipelines, "pipelines"},
	{RedirectTarget, "redirect-target"}, {Pages, "pages"}, {Ranges, "ranges"}, {MultiRanges, "multi-ranges"},
	{RedirectsWithin, "redirects-within"}, {Encrypted, "encrypted"}, {OneProcessor, "one-processor"},
}

// Has reports whether every capability in want is in c.
func (c Caps) Has(want Caps) bool { return c&want == want }

// String lists the capabilities, e.g. "retrieves,lists,resumes".
func (c Caps) String() string {
	var names []string
	for _, n := range capNames {
		if c.Has(n.c) {
			names = append(names, n.name)
		}
	}
	return strings.Join(names, ",")
}

// Redirectable reports whether a server's redirect may lead to a scheme
// with these capabilities by default: it must claim RedirectTarget (so
// gopher, news, nntp, wais and prospero are reached only when a caller
// names them, as curl's default allows only http, https, ftp and ftps),
// retrieve, and neither start a session, send anything, nor read local
// files.
func (c Caps) Redirectable() bool {
	return c.Has(RedirectTarget|Retrieves) && c&(Interactive|Sends|Local) == 0
}
