// Package finger implements finger URLs: the typed value (url.go, pure
// parsing), the RFC 1288 query line it makes (query.go) and a Handler
// that sends it over transport and hands back the reply (handler.go).
//
//	finger://host[:port]/[W/]user[@host...]
//
// RFC 1738 has no finger scheme; the shape is the one lynx has followed
// from gopher menus and web pages since the 1990s (and the URI drafts
// that described it): the url-path, decoded, is the query of RFC 1288
// §2.3 — a user name, "" for the list of users, "w/" or "W/" before it
// for the long form ("/W"), which may also be written as RFC 1288 writes
// it ("finger://host/%2FW%20user").
package finger

import (
	"fmt"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// URL is a parsed finger URL. User and Forward are decoded, and hold only
// printable ASCII other than space, "/" and "@" (Parse refuses the rest):
// nothing in them can make a second token, a second line or a /W of its
// own on the wire.
type URL struct {
	// User is the user asked about; "" asks for the users on the host
	// (RFC 1288 §2.5.2, "finger @host").
	User string
	// Verbose asks for the long form (RFC 1288's "/W" token).
	Verbose bool
	// Forward are the hosts of an RFC 1288 {H} chain, in the order
	// written ("user@h2@h3": h2 then h3): the server is asked to pass
	// the query on (§2.5.1), which the Handler refuses unless told.
	Forward []string

	u *schemes.URL
}

var _ schemes.Locator = (*URL)(nil)

// Parse reads the finger query from a generic finger URL. Errors are
// *schemes.Error of KindUsage naming the part at fault: "scheme", "host",
// "user" (a login in the authority, or a user name that is no single
// RFC 1288 token) or "forward" (an empty or malformed forwarding host).
func Parse(u *schemes.URL) (*URL, error) {
	if u.Scheme != scheme {
		return nil, u.SyntaxError("scheme", fmt.Sprintf("scheme %q is not %s", u.Scheme, scheme))
	}
	u.DefaultPort = schemes.PortOf(declared, u.Scheme)
	if !u.Authority || u.Host == "" {
		return nil, u.SyntaxError("host", "missing host (want "+scheme+"://host/user)")
	}
	if u.User != nil {
		// The user asked about is the path's; one in the authority would
		// be silently dropped, or mistaken for a login.
		return nil, u.SyntaxError("user", "a finger URL has no login: the user asked about is its path ("+scheme+"://host/user)")
	}
	q, err := schemes.Unescape(u.Path) // the generic parser checked the escapes
	if err != nil {
		return nil, u.SyntaxError("user", err.Error())
	}
	f := &URL{u: u}
	q, f.Verbose = cutVerbose(q)
	user, hosts, forwarded := strings.Cut(q, "@")
	if err := checkToken(user); err != "" {
		return nil, u.SyntaxError("user", fmt.Sprintf("user name %q %s", user, err))
	}
	f.User = user
	if forwarded {
		for _, h := range strings.Split(hosts, "@") {
			if h == "" {
				return nil, u.SyntaxError("forward", fmt.Sprintf("empty host in the forwarding chain %q", "@"+hosts))
			}
			if err := checkToken(h); err != "" {
				return nil, u.SyntaxError("forward", fmt.Sprintf("forwarding host %q %s", h, err))
			}
			f.Forward = append(f.Forward, h)
		}
	}
	return f, nil
}

// cutVerbose takes the long-form marker off the decoded path: lynx's
// "w/" or "W/" prefix, or RFC 1288's own "/W" token followed by spaces
// or nothing (a query written whole).
func cutVerbose(q string) (string, bool) {
	if len(q) >= 2 && (q[0] == 'w' || q[0] == 'W') && q[1] == '/' {
		return q[2:], true
	}
	if rest, ok := strings.CutPrefix(q, verboseToken); ok && (rest == "" || rest[0] == ' ') {
		return strings.TrimLeft(rest, " "), true
	}
	return q, false
}

// checkToken says what is wrong with s as one token of a query, "" if
// nothing: printable ASCII only, so no CR, LF or TAB can end the line or
// split it, no space can make a second token, no "/" can pass for the /W
// token (RFC 1288 §2.3's {U} and {H} are names, not free text).
func checkToken(s string) string {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c <= ' ' || c >= 0x7F:
			return fmt.Sprintf("holds byte %%%02X (a finger query token is printable ASCII without spaces)", c)
		case c == '/':
			return `holds "/" (the server would read it as the /W token)`
		}
	}
	return ""
}

// Generic returns the scheme-independent parts (host, port).
func (f *URL) Generic() *schemes.URL { return f.u }

// String formats the URL in canonical form (schemes.FormatLocator): the
// long form as "W/" before the user (lynx's spelling, whatever was
// written), then the user and each forwarding host after "@", every
// unsafe character and "?", ";" or "#" written %XX.
func (f *URL) String() string { return schemes.FormatLocator(f.u, false, f.path()) }

// Redacted is String: finger URLs carry no password.
func (f *URL) Redacted() string { return f.String() }

// path is the canonical "/" and url-path.
func (f *URL) path() string {
	var b strings.Builder
	b.WriteByte('/')
	if f.Verbose {
		b.WriteString("W/")
	}
	b.WriteString(schemes.Escape(f.User, pathReserved))
	for _, h := range f.Forward {
		b.WriteByte('@')
		b.WriteString(schemes.Escape(h, pathReserved))
	}
	return b.String()
}

// pathReserved are the characters escaped in the canonical url-path
// beyond the unsafe ones, so that no reader takes them for a query or
// parameters.
const pathReserved = "?;"

// LocalName is the user name (BaseName), "" for the list of users.
func (f *URL) LocalName() string { return schemes.BaseName(f.User) }

// Fields is the JSON object printed by `urlget parse`.
func (f *URL) Fields() any {
	return struct {
		User    string   `json:"user"`
		Verbose bool     `json:"verbose,omitempty"`
		Forward []string `json:"forward,omitempty"`
	}{f.User, f.Verbose, f.Forward}
}
