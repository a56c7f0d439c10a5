// Package http implements the http and https URL schemes: the URL syntax of
// RFC 1738 §3.3 (https is the same syntax over TLS, RFC 2818) and a handler
// that retrieves them with net/http over connections from the request's
// Dialer.
package http

import (
	"fmt"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// URL is a parsed http or https URL: http://<host>:<port>/<path>?<searchpart>.
//
// Unlike most typed URLs, Path and Search are kept ESCAPED, as written
// (literal unsafe characters such as space already encoded by the generic
// parser). RFC 1738 §3.3 reserves "/", ";" and "?" in both, and the WWW
// draft says the path "is passed by the client to the server with any
// request, but is not otherwise understood by the client": "%2F" and "/"
// mean different things to a server, so decoding would change the URL's
// meaning. They are sent on the request line as they are.
//
// The URL's identity is its canonical form (String): the path there is
// normalizePath(Path), so spellings every server must read as one compare
// equal, while the request line still carries what was written.
//
// RFC 1738 allows no user name or password in an http URL; urlget accepts
// them anyway (as every client does) and sends them as Basic credentials.
type URL struct {
	// g holds the generic parts in the canonical form String writes: the
	// path normalized, HasPath always true (the "/" may be omitted, §3.3),
	// a default port left out, the fragment canonical.
	g schemes.URL
	// Path is the escaped hpath as written, without the "/" that follows
	// the host: what the request line carries.
	Path string
	// Search is the escaped searchpart after the first "?"; nil when the
	// URL has no "?" (an empty Search is a "?" with nothing after it). It
	// is sent, and written by String, as it is.
	Search *string
}

var _ schemes.Locator = (*URL)(nil)

// Parse reads the http-specific parts of u, whose scheme must be http or
// https. The host is required. The path is split at its first "?"; later
// "?" and "/" are kept in the search part as written (RFC 1738 §5 lists
// neither in "search", but servers and clients have always accepted them).
// A fragment is kept with the URL and never sent.
func Parse(u *schemes.URL) (*URL, error) {
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, schemes.SyntaxError(u.Scheme, u.Redacted(), "scheme", fmt.Sprintf("scheme %q is not http or https", u.Scheme))
	}
	if !u.Authority {
		return nil, schemes.SyntaxError(u.Scheme, u.Redacted(), "host", "missing //host (want "+u.Scheme+"://host/path)")
	}
	if u.Host == "" {
		return nil, schemes.SyntaxError(u.Scheme, u.Redacted(), "host", "missing host")
	}
	h := &URL{g: *u}
	h.g.DefaultPort = schemes.PortOf(declared, u.Scheme)
	h.Path = u.Path
	if p, s, ok := strings.Cut(u.Path, "?"); ok {
		h.Path, h.Search = p, &s
	}
	if p := normalizePath(h.Path); p != h.Path {
		h.g.Path = p
		if h.Search != nil {
			h.g.Path += "?" + *h.Search
		}
	}
	h.g.HasPath = true
	h.g.Opaque = "/" + h.g.Path
	if h.g.Port == h.g.DefaultPort {
		h.g.Port = 0
	}
	h.g.Fragment = u.CanonicalFragment()
	return h, nil
}

// normalizePath is the canonical form of an escaped hpath (RFC 1738 §3.3):
// an escape of a letter, a digit, "-" or "_" is decoded, and every other
// escape gets upper-case hex digits. That is all: the search part is left
// as written, and so are ".", "~" and "$+!*'(),".
//
// These are spellings every server must read as one: the draft on URIs in
// WWW gives the example "marie%2Dclaude" = "marie-claude", and RFC 9110
// §4.2.3 lets any HTTP component normalize an http URI by RFC 3986 §6.2.2,
// which makes "%7e" and "%7E", and "%41" and "A", the same. Only the
// characters no URL specification has ever given a meaning are merged;
// these stay as written, because a server could tell them apart:
//
//   - "." — a decoded "%2E%2E" is a ".." segment, which a proxy and the
//     server behind it may resolve differently than the encoded form;
//   - "~" — RFC 1738 calls it unsafe, and the generic parser already
//     writes a typed "~" as "%7E" (so "~", "%7e" and "%7E" are one);
//   - "$+!*'()," — RFC 3986 made them sub-delimiters a server may give a
//     meaning ("+" is a space in some servers' paths);
//   - the search part — applications read it raw (a signed URL's
//     signature covers its bytes), and browsers send it as written.
//
// The request line is not normalized: it carries Path as written, so that
// canonicalizing a URL never changes what a server is sent for it.
func normalizePath(p string) string { return schemes.NormalizeEscapes(p, plainOctet) }

// plainOctet reports whether b is a letter, a digit, "-" or "_": the
// characters no URL syntax reserves or treats as unsafe.
func plainOctet(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '-' || b == '_'
}

// Generic returns the generic parts.
func (h *URL) Generic() *schemes.URL { return &h.g }

// String formats the URL in canonical form (schemes.FormatLocator): the
// path normalized (normalizePath), the search part as written, and the "/"
// after the host always present (RFC 1738 §3.3 lets it be omitted; the
// request line needs it). It includes the password.
func (h *URL) String() string { return schemes.FormatLocator(&h.g, false, h.g.Opaque) }

// Redacted is String with the password written "****".
func (h *URL) Redacted() string { return schemes.FormatLocator(&h.g, true, h.g.Opaque) }

// TLS reports whether the URL is https.
func (h *URL) TLS() bool { return h.g.Scheme == "https" }

// RequestTarget is what goes on the request line: "/" Path ["?" Search],
// escaped as written, without the fragment (WWW draft: "No fragmentid part
// of a WWW URI ... is sent with the request").
func (h *URL) RequestTarget() string {
	if h.Search == nil {
		return "/" + h.Path
	}
	return "/" + h.Path + "?" + *h.Search
}

// HostHeader is the Host header value: the host, bracketed if IPv6, with
// the port only when it is not the scheme's default.
func (h *URL) HostHeader() string {
	g := schemes.URL{Host: h.g.Host}
	if h.g.Port != h.g.DefaultPort {
		g.Port = h.g.Port
	}
	return strings.TrimPrefix(g.AuthorityString(false), "//")
}

// LocalName is the path's last segment, decoded (schemes.LastSegmentName):
// "" when the path ends in "/"; a decoded "/" or "\" cuts the name to
// what follows it. The search part is no part of it.
func (h *URL) LocalName() string { return schemes.LastSegmentName(h.Path) }

// Fields returns {"path": "/<escaped path>", "search": null | "<escaped search>"},
// both escaped as String writes them (the path normalized by normalizePath,
// the search as written): for http, decoding would change their meaning.
func (h *URL) Fields() any {
	path, _, _ := strings.Cut(h.g.Path, "?")
	return struct {
		Path   string  `json:"path"`
		Search *string `json:"search"`
	}{"/" + path, h.Search}
}
