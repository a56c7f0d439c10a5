// Package gateway is `urlget serve`: an HTTP server that lets a web
// browser, or any HTTP client, retrieve every URL of RFC 1738 through a
// fetch.Client. It is a client of the fetch package and knows no protocol:
// what a scheme can do comes from its Caps, what a container holds from
// its Listing's Entries. A program serves it, an http.Handler, with the
// http.Server its HTTPServer method returns (which bounds its
// connections; see Connections), on a listener from transport.Listen:
//
//	ln, err := transport.Listen("127.0.0.1:8070")
//	if err != nil {
//		return err
//	}
//	gw := gateway.New(gateway.Options{Client: &c, Hosts: gateway.HostsFor(ln.Addr())})
//	return gw.HTTPServer().Serve(ln) // a browser opens http://127.0.0.1:8070/ or gateway.Address(url)
//
// # Addresses
//
// A URL SCHEME://REST has the gateway address /SCHEME/REST, REST exactly
// as written after "//" (authority, path, ";params", and every %-escape
// such as %09 and %2F byte for byte), and its query (a WAIS or gopher
// search) is the address's query: gopher://h:70/7/s%09x is
// /gopher/h:70/7/s%09x. The URLs of RFC 1738 without an authority, news:
// and mailto:, put their opaque part there: news:id@host is
// /news/id@host. The server reads the raw request target, never the
// decoded path. Address and URLOf are the round-trip pair. The start page
// is /, and /go?url=URL redirects (303) to URL's address.
//
// A request in absolute form (a proxy request: GET gopher://h/1/ HTTP/1.1)
// is answered with the resource itself.
//
// # Pages
//
// Documents stream as the server sends them. A container (a directory,
// menu, group, search result) is an HTML page whose structure is fixed,
// for people and for the tests that drive it:
//
//   - the entries are one <ul id="entries">, one <li class="KIND"> per
//     entry (schemes.EntryKind), in the server's order; an entry with a
//     URL the gateway retrieves holds an <a> to its gateway address; a
//     telnet: or mailto: entry an <a> to that URL itself, which the
//     gateway never acts on; an info line is text in the <li>;
//   - a directory's name ends in "/" and it shows no size; an entry
//     shows its size (a directory's aside) and time (as exact as the
//     server told it) in a <span class="meta">, and what only its scheme
//     knows
//     (schemes.Entry.Extra: a gopher item's type, an article's sender, a
//     WAIS hit's score) as a <dl class="extra">, a <dt> and a <dd> each;
//   - a directory's page (a listing of Kind schemes.EntryDir) has
//     breadcrumbs, <nav id="crumbs">: its server's root and each
//     directory of its url-path above it as links, then its own name
//     (the url-path's "/" separates them; what a scheme keeps before its
//     place, gopher's item type, stays: see schemes.TreePather; a step the
//     scheme does not parse is text; a scheme whose tree is not spelled
//     with "/", an LDAP DN, names each container above itself:
//     schemes.Parented), and <a id="up" rel="up"> to the nearest of them;
//   - a search (a gopher type 7 item, a WAIS database) is a
//     <form class="search" method="get" action="/search"> with the
//     search's URL in a hidden <input name="url"> and one
//     <input name="q"> for the words; /search redirects (303) to the
//     gateway address of the search for those words. A search entry's
//     form is in its <li>; a page whose own URL takes words (a WAIS
//     database or its search hits) has one before the <ul>.
//   - a form a server asks before it answers (a Gopher+ +ASK item, to
//     which its menu entry links: schemes.Entry.Form, which the gateway
//     asks the scheme to find out by fetch.Request.WantModTime where the
//     menu does not flag it) is a
//     <form id="ask" method="post"> of its questions, one
//     <p class="KIND"> each (schemes.QuestionKind), answered in the
//     fields "a1", "a2", …; a GET asks the server for the questions
//     alone (schemes.Answerer's AskOnly), and only the form's POST, with
//     its token, submits the answers (WithAnswers), whose reply is shown
//     as a GET's would be.
//
// Every name, title and URL on a page is escaped (html/template), and the
// pages carry a Content-Security-Policy that allows no script and forms
// only back to the gateway; what a server sent is served as it came, in
// a sandbox (Content-Security-Policy: sandbox, X-Content-Type-Options:
// nosniff).
//
// # Caching
//
// Every answer says what a cache may do with it (Cache-Control): a
// document is fresh for Options.DocumentMaxAge (5 minutes), a listing,
// HTML or JSON, for ListingMaxAge (a minute); whatever was fetched with a
// login or to a form's words is private, no-store, and every failure,
// refusal, redirect and form no-store. A document carries its server's
// ETag, or one made of its size and modification time (weak when the time
// is coarse or recent, of the time alone when the size is not known), and
// its Last-Modified; a listing carries none. A conditional GET or HEAD of
// a document (If-None-Match, If-Modified-Since) is answered 304 from the
// scheme's stat (fetch.MethodStat), or from its own time condition
// (Caps Conditional), without fetching it. A proxy's listing, HTML or
// JSON by Accept, says Vary: Accept.
//
// # Safety
//
// See Options: the Host header is checked (DNS rebinding), cross-site
// requests other than GET and HEAD are refused, file: needs AllowFile,
// telnet: is never started (a link), mailto: sends only with AllowSend,
// from a POST of the gateway's own form (a token, the same origin).
//
// Without AllowFile nothing the gateway retrieves reads this machine's
// files, however it comes to a scheme whose Caps are Local: the URL
// asked for, a redirect, or a resolution (a Prospero object whose access
// method names a path on this host, which the Client's Prospero handler
// may be configured to use) all fail with 403.
//
// Cross-site requests are judged by the Fetch Metadata browsers send
// (Sec-Fetch-Site, Sec-Fetch-Mode, Sec-Fetch-Dest), as a
// resource-isolation policy: a request from the gateway's own pages
// (same-origin) or from the person (none) is served; one from any other
// site — cross-site, or same-site, such as a page on another port of
// 127.0.0.1, which is another origin — only when it is a top-level
// navigation (Sec-Fetch-Mode navigate, Sec-Fetch-Dest document) by GET or
// HEAD: a link a person followed. As an image, a script, a style sheet, a
// fetch() of any mode, a frame, an embed or object, it is refused with
// 403 and a page saying why, before its URL is read, so that a page
// cannot make the gateway retrieve behind the person's back. The
// documents the gateway serves from servers run in a sandbox, an origin
// of their own: their images and frames are refused too, and their links
// lead on. A request without Sec-Fetch-Site (curl, a script; a browser
// sends none to an address that is neither https nor loopback) is judged
// by the Host check alone, and a proxy request (absolute form) is not
// judged by it: its Fetch Metadata are about its target's site.
//
// # Connections
//
// The http.Server of HTTPServer closes a keep-alive connection idle for
// Options.IdleTimeout (DefaultIdleTimeout, 10 s), allows
// DefaultReadHeaderTimeout (10 s) for a request's header, and closes a
// client address's connection past Options.MaxConnsPerClient
// (DefaultMaxConnsPerClient, 128) as soon as it is accepted. The
// retrievals running at once are bounded in all (MaxUpstream, 32) and per
// destination, the host and port of the URL asked for
// (MaxUpstreamPerHost, a quarter of MaxUpstream: 8): one slow or silent
// server holds its share, and requests for other servers proceed.//
// # Operations
//
// Three paths of one segment, which no gateway address can be (every
// address is "/SCHEME/REST"), answer GET and HEAD whatever the Host
// header names, for probes and scrapers that name the gateway by an
// address of their own: HealthPath (/healthz) 200 while the process
// serves; ReadyPath (/readyz) 200, or 503 once Drain was called (a
// shutdown begun) or while every slot of MaxUpstream is in use (a new
// request would wait: a load balancer sends it elsewhere); MetricsPath
// (/metrics) the Prometheus metrics, in a registry of the Server's own:
// urlget_gateway_requests_total{scheme,status} (status a class, 2xx…),
// urlget_gateway_response_bytes_total{scheme},
// urlget_gateway_upstream_first_byte_seconds{scheme} and
// urlget_gateway_upstream_duration_seconds{scheme} (histograms, from a
// retrieval's slot to the scheme's answer and to the slot's release),
// urlget_gateway_requests_in_flight, urlget_gateway_upstream_slots_in_use,
// urlget_gateway_upstream_slots, urlget_gateway_upstream_slots_per_host,
// and the Go runtime's and process's (internal/promtext). A label is a scheme's name, from
// the parsed URL ("" for the gateway's own pages), or a status class,
// never a URL or host. With Options.Log every other request gets one
// line: method, path (the address with its password redacted and no
// query: search words and form answers are no log's business), status,
// bytes, duration_ms, scheme and host.
package gateway
