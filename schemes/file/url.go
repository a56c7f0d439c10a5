// Package file implements the file URL scheme of RFC 1738 §3.10:
// file://<host>/<path>, a file or directory on the named machine.
//
// A file URL whose host is empty, "localhost" or this machine's name is
// read from the local file system. Any other host is, as in CERN libwww,
// retrieved as ftp://<host>/<path> instead (the handler returns that URL as
// a redirect so the fetch client follows it and says so), unless the
// handler's NoFTP option forbids it.
package file

import (
	"fmt"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// segmentReserved are the characters String escapes inside a path segment:
// "/" separates segments, ";" is not allowed in an fsegment (RFC 1738 §5),
// and "?" is escaped because most URL readers take it to start a query.
const segmentReserved = "/;?"

// URL is a parsed file URL.
//
// Path is DECODED: it is the file name exactly as the operating system sees
// it, always absolute (it starts with "/"), and keeps a trailing "/" when
// the URL had one. Because "/" separates the segments of a file URL, an
// encoded slash ("%2F") inside a segment would have to name a file whose
// name contains "/", which no POSIX file system allows; such URLs are
// rejected at parse time instead of silently naming a different file. NUL
// ("%00") is rejected for the same reason.
type URL struct {
	g schemes.URL // generic parts, normalized to the canonical form String writes
	// Host is the host name as written (lower case); "" when empty or
	// "localhost", which RFC 1738 §3.10 makes the same ("the machine from
	// which the URL is being interpreted"; the draft on URIs in WWW: "A
	// void host field is equivalent to localhost").
	Host string
	// Path is the decoded absolute path.
	Path string
}

var _ schemes.Locator = (*URL)(nil)

// Parse reads the file-specific parts of u.
//
// Besides file://host/path it accepts file:/path, the form many programs
// write (it has no "//" and so no host); it means a local file and is
// normalized to file:///path. file://host with no path at all names the
// root directory "/" (the form RFC 1738's last draft allowed). The host
// "localhost" is read as the empty host, its equivalent. A user name,
// password or port is an error: file URLs have none (RFC 1738 §5).
func Parse(u *schemes.URL) (*URL, error) {
	if u.Scheme != "file" {
		return nil, schemes.SyntaxError(u.Scheme, u.Redacted(), "scheme", fmt.Sprintf("scheme %q is not file", u.Scheme))
	}
	escaped := u.Path
	if !u.Authority {
		// file:/path: no "//", so no host. file:path is relative and
		// names nothing without a base.
		if !strings.HasPrefix(u.Opaque, "/") {
			return nil, schemes.SyntaxError(u.Scheme, u.Redacted(), "path",
				"file URL needs an absolute path (want file:///path)")
		}
		escaped = u.Opaque[1:]
	} else {
		if u.User != nil || u.Password != nil {
			part := "user"
			if u.User == nil {
				part = "password"
			}
			return nil, schemes.SyntaxError(u.Scheme, u.Redacted(), part, "file URL takes no user name or password")
		}
		if u.Port != 0 {
			return nil, schemes.SyntaxError(u.Scheme, u.Redacted(), "port", "file URL takes no port")
		}
	}
	path, err := decodePath(escaped)
	if err != nil {
		return nil, schemes.SyntaxError(u.Scheme, u.Redacted(), "path", err.Error())
	}
	host := u.Host
	if host == "localhost" {
		host = ""
	}
	return newURL(host, path, u.CanonicalFragment()), nil
}

// newURL returns the URL of the decoded absolute path on host, in the
// canonical form String writes.
func newURL(host, path string, fragment *string) *URL {
	f := &URL{Host: host, Path: path}
	f.g = schemes.URL{
		Scheme: "file", Authority: true, Host: host, HasPath: true,
		Path: escapePath(path), Fragment: fragment,
	}
	f.g.Opaque = "/" + f.g.Path
	return f
}

// decodePath turns the escaped url-path (without the "/" after the host)
// into an absolute file name, one segment at a time so that a decoded "/"
// can be told from a separator.
func decodePath(escaped string) (string, error) {
	var b strings.Builder
	for _, s := range strings.Split(escaped, "/") {
		d, err := schemes.Unescape(s)
		if err != nil {
			return "", fmt.Errorf("bad path: %v", err)
		}
		if strings.IndexByte(d, '/') >= 0 {
			return "", fmt.Errorf("path segment %q holds an encoded \"/\" (%%2F), which cannot be part of a file name", s)
		}
		if strings.IndexByte(d, 0) >= 0 {
			return "", fmt.Errorf("path segment %q holds an encoded NUL (%%00), which cannot be part of a file name", s)
		}
		b.WriteByte('/')
		b.WriteString(d)
	}
	return b.String(), nil
}

// escapePath writes an absolute decoded path as a url-path without its
// leading "/".
func escapePath(path string) string {
	segs := strings.Split(strings.TrimPrefix(path, "/"), "/")
	for i, s := range segs {
		segs[i] = schemes.Escape(s, segmentReserved)
	}
	return strings.Join(segs, "/")
}

// Generic returns the generic parts, in the canonical form String writes.
func (f *URL) Generic() *schemes.URL { return &f.g }

// String formats the URL in canonical form (schemes.FormatLocator):
// file://host/path with the path re-escaped from its decoded segments, so
// that every spelling of one file name gives one string; "/", ";" and "?"
// are written %XX in a segment (see segmentReserved), everything else
// only if it must be. A URL read as file:/path, file://localhost/path or
// file://localhost is written file:///path (or file:///).
func (f *URL) String() string { return schemes.FormatLocator(&f.g, false, f.g.Opaque) }

// Redacted is String: a file URL has no password.
func (f *URL) Redacted() string { return f.String() }

// Local reports whether the URL names the machine interpreting it by the
// special forms of RFC 1738 §3.10: an empty host or "localhost" (which
// Parse stores as the empty host). The handler also treats this machine's
// own host name as local.
func (f *URL) Local() bool { return f.Host == "" || f.Host == "localhost" }

// FTP returns ftp://host/path, the URL libwww retrieves instead of a file
// URL on another host. The url-path is carried over unchanged, so, as in
// libwww, the path is taken relative to the FTP login directory.
func (f *URL) FTP() string {
	g := schemes.URL{Scheme: "ftp", Authority: true, Host: f.Host, HasPath: true, Path: f.g.Path}
	return g.String()
}

// LocalName is the path's last segment (schemes.BaseName): "" for a
// directory written with its trailing "/", and for the root.
func (f *URL) LocalName() string { return schemes.BaseName(f.Path) }

// Fields returns {"path": "/decoded/path"}.
func (f *URL) Fields() any {
	return struct {
		Path string `json:"path"`
	}{f.Path}
}
