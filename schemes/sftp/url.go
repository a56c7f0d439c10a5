// Package sftp serves sftp URLs (draft-ietf-secsh-scp-sftp-ssh-uri, as
// curl reads them): sftp://[user[:password]@]host[:port]/path, where the
// path is absolute on the server and a first segment "~" stands for the
// login's home directory ("sftp://h/~/notes.txt"). The SSH transport is
// golang.org/x/crypto/ssh and the SFTP protocol github.com/pkg/sftp, on
// connections from the request's Dialer; host keys are checked against a
// known hosts file and never accepted silently.
package sftp

import (
	"fmt"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// segmentReserved are the characters always written %XX in a segment:
// "/" separates them, and ";" is reserved by RFC 1738's path syntax.
const segmentReserved = "/;"

// URL is a parsed sftp URL. Segs are the decoded path segments after the
// leading "/" (and after "~" when Home is set); the last one is "" when
// the path ends in "/" (a directory, listed). Parsing does no I/O.
type URL struct {
	// Home says the path is relative to the login's home directory
	// (a first segment "~").
	Home bool
	// Segs are the decoded segments; none for "sftp://h/" or "sftp://h".
	Segs []string

	u *schemes.URL
}

var (
	_ schemes.Locator    = (*URL)(nil)
	_ schemes.TreePather = (*URL)(nil)
)

// Parse reads the sftp parts of a generic URL whose scheme is sftp.
// Errors are *schemes.Error of KindUsage naming the part: "scheme",
// "host" or "path". A segment may not decode to a "/" or a NUL: an SFTP
// path is a string of segments joined by "/", and a NUL ends it.
func Parse(u *schemes.URL) (*URL, error) {
	if u.Scheme != "sftp" {
		return nil, u.SyntaxError("scheme", fmt.Sprintf("scheme %q is not sftp", u.Scheme))
	}
	u.DefaultPort = schemes.PortOf(declared, u.Scheme)
	if !u.Authority || u.Host == "" {
		return nil, u.SyntaxError("host", "missing host (want sftp://host/path)")
	}
	l := &URL{u: u}
	if !u.HasPath || u.Path == "" {
		return l, nil
	}
	for i, s := range strings.Split(u.Path, "/") {
		d, err := schemes.Unescape(s)
		if err != nil {
			return nil, u.SyntaxError("path", fmt.Sprintf("bad path segment %q: %v", s, err))
		}
		if strings.ContainsAny(d, "/\x00") {
			return nil, u.SyntaxError("path", fmt.Sprintf("path segment %q decodes to a \"/\" or a NUL, which no SFTP name holds", s))
		}
		if i == 0 && d == "~" {
			l.Home = true
			continue
		}
		l.Segs = append(l.Segs, d)
	}
	return l, nil
}

// Generic returns the scheme-independent parts.
func (l *URL) Generic() *schemes.URL { return l.u }

// String is the canonical URL (schemes.FormatLocator), password included.
func (l *URL) String() string { return schemes.FormatLocator(l.u, false, "/"+l.TreePath()) }

// Redacted is String with the password written "****".
func (l *URL) Redacted() string { return schemes.FormatLocator(l.u, true, "/"+l.TreePath()) }

// TreePath is the url-path without its leading "/": "~/" for the home
// directory, then each segment escaped (schemes.TreePather).
func (l *URL) TreePath() string {
	var b strings.Builder
	if l.Home {
		b.WriteString("~/")
	}
	for i, s := range l.Segs {
		if i > 0 {
			b.WriteByte('/')
		}
		b.WriteString(schemes.Escape(s, segmentReserved))
	}
	return b.String()
}

// IsDir says the URL names a directory by its syntax: its path ends in
// "/" (or is the root or the home directory).
func (l *URL) IsDir() bool { return len(l.Segs) == 0 || l.Segs[len(l.Segs)-1] == "" }

// RemotePath is the path sent to the server: absolute ("/pub/f"), or
// relative to the home directory, which the server resolves against the
// login's directory (OpenSSH's sftp-server starts in the home directory;
// "." is the home directory itself).
func (l *URL) RemotePath() string {
	p := strings.Join(l.Segs, "/")
	if l.Home {
		if p == "" {
			return "."
		}
		return p
	}
	return "/" + p
}

// name is the last non-empty segment, "" for the root or home.
func (l *URL) name() string {
	for i := len(l.Segs) - 1; i >= 0; i-- {
		if l.Segs[i] != "" {
			return l.Segs[i]
		}
	}
	return ""
}

// LocalName is the last segment, decoded (schemes.BaseName); "" for a
// path ending in "/".
func (l *URL) LocalName() string {
	if l.IsDir() {
		return ""
	}
	return schemes.BaseName(l.Segs[len(l.Segs)-1])
}

// child is the URL of the entry name in the directory l names, with l's
// login, host and port and no fragment: a directory's ends in "/".
func (l *URL) child(name string, dir bool) *URL {
	segs := l.Segs
	if len(segs) > 0 && segs[len(segs)-1] == "" {
		segs = segs[:len(segs)-1]
	}
	segs = append(segs[:len(segs):len(segs)], name)
	if dir {
		segs = append(segs, "")
	}
	c := &URL{Home: l.Home, Segs: segs}
	g := *l.u
	g.Fragment, g.HasPath = nil, true
	c.u = &g
	p := c.TreePath()
	g.Opaque, g.Path = "/"+p, p
	return c
}

// Fields is the JSON object of `urlget parse`: {"home": bool, "path": "..."}.
func (l *URL) Fields() any { return fields{Home: l.Home, Path: l.RemotePath()} }

type fields struct {
	Home bool   `json:"home"`
	Path string `json:"path"`
}
