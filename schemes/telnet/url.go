// Package telnet holds the typed value of telnet URLs (RFC 1738 §3.8) and of
// the rlogin and tn3270 URLs of the 1994 URI draft (draft-bernerslee-www-uri,
// "Telnet, rlogin, tn3270"), which share its shape:
//
//	telnet://<user>:<password>@<host>:<port>/
//
// These URLs name an interactive service, not a data object: user and
// password are advisory, shown to the person who logs in. Parsing (URL,
// Parse) is pure. The Handler fits the service into the retrieval contract
// by running it: it is given the user's streams in its configuration
// (Stdin, Stdout, Stderr, Terminal — the urlget command passes its own),
// Fetch runs the whole session on them and returns, when the session
// ends, a Response with an empty Body and a nil error if the server
// closed normally (exit 0). rlogin and tn3270 are refused with a hint
// (exit 8).
package telnet

import (
	"fmt"

	"github.com/urlget/urlget/schemes"
)

// URL is a parsed telnet, rlogin or tn3270 URL. It has no parts of its own:
// user, password, host and port are those of the generic URL, which is
// everything RFC 1738's `telneturl = "telnet://" login [ "/" ]` allows.
type URL struct {
	u *schemes.URL
}

var _ schemes.Locator = (*URL)(nil)

// Parse checks that a generic telnet, rlogin or tn3270 URL has the shape of
// RFC 1738's telneturl: a host, and after it at most a final "/" (it may be
// omitted). Errors are *schemes.Error of KindUsage naming the part at fault:
// "scheme", "host" or "path".
func Parse(u *schemes.URL) (*URL, error) {
	switch u.Scheme {
	case "telnet", "rlogin", "tn3270":
	default:
		return nil, u.SyntaxError("scheme", fmt.Sprintf("scheme %q is not telnet, rlogin or tn3270", u.Scheme))
	}
	u.DefaultPort = schemes.PortOf(declared, u.Scheme)
	if !u.Authority || u.Host == "" {
		return nil, u.SyntaxError("host", "missing host (want "+u.Scheme+"://user:password@host:port/)")
	}
	if u.Path != "" {
		// The BNF allows only the final "/": a telnet URL designates a
		// login, there is nothing on the server to name after it.
		return nil, u.SyntaxError("path",
			fmt.Sprintf("unexpected %q after the host (a %s URL ends at the host or its final \"/\")", "/"+u.Path, u.Scheme))
	}
	return &URL{u: u}, nil
}

// Generic returns the scheme-independent parts (user, password, host, port).
func (t *URL) Generic() *schemes.URL { return t.u }

// String formats the URL in canonical form (schemes.FormatLocator), with
// the final "/" always written: RFC 1738 §3.8 says it "may be omitted",
// so telnet://h and telnet://h/ are the same login. It includes the
// password.
func (t *URL) String() string { return schemes.FormatLocator(t.u, false, "/") }

// Redacted is String with the password written as "****".
func (t *URL) Redacted() string { return schemes.FormatLocator(t.u, true, "/") }

// LocalName is "": a telnet URL designates a login, nothing a file could
// hold.
func (t *URL) LocalName() string { return "" }

// Fields is the JSON object printed by `urlget parse`: always {}, because a
// telnet URL has no parts beyond the generic user, password, host and port.
func (t *URL) Fields() any { return struct{}{} }
