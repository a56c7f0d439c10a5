// Package ftp serves ftp and ftps URLs (RFC 1738 §3.2). URL is the typed
// value: the working directories to CWD into, the name to retrieve or list,
// and the optional ";type=" typecode; parsing it does no I/O. Handler
// carries out the access algorithm on connections from the request's
// Dialer: login (anonymous with a mail address unless the URL names a
// user), one CWD per decoded directory component, then TYPE and RETR, NLST
// for ";type=d", or a LIST/MLSD listing for a name ending in "/", streamed
// as typed entries. It also lists any URL as a directory (List) and
// describes a file without retrieving it (Stat).
package ftp

import (
	"fmt"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// segmentReserved are the characters RFC 1738 §3.2.2 reserves inside a cwd
// or name component: they are always written %XX. The BNF's fsegment allows
// "?", ":", "@", "&" and "=" literally, so those stay as they are.
const segmentReserved = "/;"

// URL is a parsed ftp or ftps URL:
//
//	ftp://user:password@host:port/<cwd1>/.../<cwdN>/<name>;type=<typecode>
//
// Cwd and Name are decoded (raw bytes: "%2F" gives "/", "%0D%0A" gives CR
// LF; a handler checks them before putting them on a command line).
type URL struct {
	// Cwd are the directory components, each the argument of one CWD
	// command, in order. A component may be empty: "ftp://h//etc/motd"
	// has Cwd ["", "etc"] and means "CWD " with a null argument first.
	Cwd []string
	// Name is the last component: the file to RETR, or with Type 'd' the
	// argument of NLST. It may be empty ("ftp://h/pub/").
	Name string
	// Type is the typecode in lower case, 'a', 'i' or 'd', or 0 when the
	// URL has no ";type=" and the client must guess (§3.2.3).
	Type byte

	u *schemes.URL
	// canon is the canonical url-path (path's), kept by at, which sets
	// the parts once: each entry of a listing of millions is escaped
	// once, not again each time it is formatted (Redacted, TreePath).
	canon string
}

var _ schemes.Locator = (*URL)(nil)

// Parse reads the ftp-specific parts of a generic URL whose scheme is ftp or
// ftps. Errors are *schemes.Error of KindUsage naming the part at fault:
// "scheme", "host", "user", "cwd", "name" or "typecode".
//
// A ";" is allowed only to start the ";type=" suffix of the last
// component; anywhere else it is an error, because §3.2.2 reserves ";"
// in cwd and name components (a name with a ";" is written %3B).
func Parse(u *schemes.URL) (*URL, error) {
	if u.Scheme != "ftp" && u.Scheme != "ftps" {
		return nil, u.SyntaxError("scheme", fmt.Sprintf("scheme %q is not ftp or ftps", u.Scheme))
	}
	u.DefaultPort = schemes.PortOf(declared, u.Scheme)
	if !u.Authority || u.Host == "" {
		return nil, u.SyntaxError("host", "missing host (want "+u.Scheme+"://host/path)")
	}
	f := &URL{Cwd: []string{}, u: u}
	if !u.HasPath {
		return f, nil
	}
	segs := strings.Split(u.Path, "/")
	last := len(segs) - 1
	if i := strings.IndexByte(segs[last], ';'); i >= 0 {
		t, err := parseTypecode(u, segs[last][i+1:])
		if err != nil {
			return nil, err
		}
		f.Type, segs[last] = t, segs[last][:i]
	}
	for i, s := range segs {
		part := "cwd"
		if i == last {
			part = "name"
		}
		if strings.IndexByte(s, ';') >= 0 {
			return nil, u.SyntaxError(part, fmt.Sprintf(`literal ";" in %s component %q (write it as %%3B)`, part, s))
		}
		d, err := schemes.Unescape(s)
		if err != nil {
			return nil, u.SyntaxError(part, fmt.Sprintf("bad %s component %q: %v", part, s, err))
		}
		if i == last {
			f.Name = d
		} else {
			f.Cwd = append(f.Cwd, d)
		}
	}
	return f, nil
}

// parseTypecode reads what follows the last ";" of the url-path, which must
// be "type=" and one of a, i, d. "type" and the code are matched without
// regard to case (the BNF lists "A", "I", "D" too) and the code may be
// escaped like any unreserved character ("%61" is "a").
func parseTypecode(u *schemes.URL, param string) (byte, error) {
	key, code, ok := strings.Cut(param, "=")
	if !ok || !strings.EqualFold(key, "type") {
		return 0, u.SyntaxError("name",
			fmt.Sprintf(`bad parameter ";%s" (only ";type=" may follow the name; write a ";" in a name as %%3B)`, param))
	}
	d, err := schemes.Unescape(code)
	if err == nil && len(d) == 1 {
		switch c := d[0] | 0x20; c { // ASCII lower case; other bytes cannot match
		case 'a', 'i', 'd':
			return c, nil
		}
	}
	return 0, u.SyntaxError("typecode", fmt.Sprintf("bad typecode %q (want a, i or d)", code))
}

// Generic returns the scheme-independent parts (user, password, host, port).
func (f *URL) Generic() *schemes.URL { return f.u }

// String formats the URL in canonical form (schemes.FormatLocator) from
// its typed fields: each component re-escaped from its decoded value with
// "/" and ";" always written %XX and nothing else but what must be, the
// typecode in lower case, and the "/" after the host always present (RFC
// 1738 §3.2.2 lets the whole url-path be omitted: "ftp://h" and "ftp://h/"
// are the same login directory). So every spelling of the same CWD and
// RETR arguments gives one string, and the commands sent for it are the
// same. It includes the password.
func (f *URL) String() string { return schemes.FormatLocator(f.u, false, f.path()) }

// Redacted is String with the password written as "****".
func (f *URL) Redacted() string { return schemes.FormatLocator(f.u, true, f.path()) }

// path is the canonical url-path with its leading "/".
func (f *URL) path() string {
	if f.canon != "" {
		return f.canon
	}
	p := "/" + f.TreePath()
	if f.Type != 0 {
		p += ";type=" + string(f.Type)
	}
	return p
}

// TreePath is the url-path without its leading "/" and its ";type=": the
// directories and the name (schemes.TreePather).
func (f *URL) TreePath() string {
	if f.canon != "" {
		p := f.canon[1:]
		if f.Type != 0 {
			p = p[:len(p)-len(";type=")-1]
		}
		return p
	}
	var b strings.Builder
	for _, c := range f.Cwd {
		b.WriteString(schemes.Escape(c, segmentReserved))
		b.WriteByte('/')
	}
	b.WriteString(schemes.Escape(f.Name, segmentReserved))
	return b.String()
}

// at returns the URL of an item in the directory dir (each segment one
// CWD), with f's scheme, user, password, host and port and no fragment:
// a file's when name is set, a directory's (listed, its name ending in
// "/") when name is "". It is built from typed parts, never from a
// formatted (and so possibly redacted) string, so that fetching it logs in
// as f does.
func (f *URL) at(dir []string, name string, typ byte) *URL {
	return f.atPath(dir, name, typ, "")
}

// atPath is at with the item's url-path, when the caller made it already
// ("" if not).
func (f *URL) atPath(dir []string, name string, typ byte, path string) *URL {
	item := &URL{Cwd: dir, Name: name, Type: typ}
	g := *f.u
	g.Fragment, g.HasPath = nil, true
	item.u = &g
	// The generic parts read as Parse would have left them.
	if path == "" {
		path = item.path()
	}
	g.Opaque, g.Path = path, path[1:]
	item.canon = path
	return item
}

// TypeCode is the typecode as a string: "a", "i", "d", or "" when absent.
func (f *URL) TypeCode() string {
	if f.Type == 0 {
		return ""
	}
	return string(f.Type)
}

// Path joins Cwd and Name with "/" for display (decoded, so it is
// ambiguous when a component holds a "/"; never send it to a server).
func (f *URL) Path() string {
	return strings.Join(append(append([]string(nil), f.Cwd...), f.Name), "/")
}

// LocalName is the name component, decoded (schemes.BaseName): the
// ";type=" typecode is no part of it, and a name ending in "/" (a
// directory to list) gives "". A decoded "/" in the name ("a%2Fb", one
// RETR argument) names the file after what follows it.
func (f *URL) LocalName() string { return schemes.BaseName(f.Name) }

// Fields is the JSON object printed by `urlget parse`:
// {"cwd": [...], "name": "...", "type": "a"|"i"|"d"|""}.
func (f *URL) Fields() any {
	cwd := f.Cwd
	if cwd == nil {
		cwd = []string{}
	}
	return fields{Cwd: cwd, Name: f.Name, Type: f.TypeCode()}
}

type fields struct {
	Cwd  []string `json:"cwd"`
	Name string   `json:"name"`
	Type string   `json:"type"`
}
