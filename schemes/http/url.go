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
// Unlike most typed URLs, Path and Search are kept ESCAPED, exactly as
// written (literal unsafe characters such as space already encoded by the
// generic parser). RFC 1738 §3.3 reserves "/", ";" and "?" in both, and the
// WWW draft says the path "is passed by the client to the server with any
// request, but is not otherwise understood by the client": "%2F" and "/"
// mean different things to a server, so decoding would change the URL's
// meaning. They are sent on the request line as they are.
//
// RFC 1738 allows no user name or password in an http URL; urlget accepts
// them anyway (as every client does) and sends them as Basic credentials.
type URL struct {
	g schemes.URL // generic parts; HasPath always true (the "/" may be omitted, §3.3)
	// Path is the escaped hpath, without the "/" that follows the host.
	Path string
	// Search is the escaped searchpart after the first "?"; nil when the
	// URL has no "?" (an empty Search is a "?" with nothing after it).
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
	h.Path = u.Path
	if p, s, ok := strings.Cut(u.Path, "?"); ok {
		h.Path, h.Search = p, &s
	}
	h.g.HasPath = true
	h.g.Opaque = "/" + u.Path
	return h, nil
}

// Generic returns the generic parts.
func (h *URL) Generic() *schemes.URL { return &h.g }

// String formats the URL as written, with "/" after the host always present.
func (h *URL) String() string { return h.g.String() }

// Redacted is String with the password written "****".
func (h *URL) Redacted() string { return h.g.Redacted() }

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
	if h.g.Port != schemes.DefaultPort(h.g.Scheme) {
		g.Port = h.g.Port
	}
	return strings.TrimPrefix(g.AuthorityString(false), "//")
}

// Name is the last path segment, decoded: a suggested local file name ("" when
// the path ends in "/"). A decoded "/" or "\" cuts the name to what follows it.
func (h *URL) Name() string {
	seg := h.Path[strings.LastIndexByte(h.Path, '/')+1:]
	d, err := schemes.Unescape(seg)
	if err != nil {
		return ""
	}
	return baseName(d)
}

// Fields returns {"path": "/<escaped path>", "search": null | "<escaped search>"},
// both as written: for http, decoding would change their meaning.
func (h *URL) Fields() any {
	return struct {
		Path   string  `json:"path"`
		Search *string `json:"search"`
	}{"/" + h.Path, h.Search}
}

// baseName cuts s to what follows its last "/" or "\", and refuses names a
// caller could misuse as a path ("", ".", "..") or that hold controls.
func baseName(s string) string {
	s = s[strings.LastIndexAny(s, `/\`)+1:]
	if s == "." || s == ".." {
		return ""
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7F {
			return ""
		}
	}
	return s
}
