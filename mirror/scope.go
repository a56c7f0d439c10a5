package mirror

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// scope is the part of a server a mirror may read: the start URL's
// scheme, host and port, and the paths below its directory. Listings of
// ftp and file directories only name what is below them; HTML links and
// gopher menu items can name anything, and a crawl must not leave the tree
// it was asked to copy (nor climb to a parent).
type scope struct {
	scheme, host string
	port         int
	prefix       string // the start directory's path, ending in "/" ("" for the top of the server)
}

// newScope is the scope of the directory start designates.
func newScope(start schemes.Locator) scope {
	g := canonical(start)
	p := place(start, g)
	if p != "" && !strings.HasSuffix(p, "/") {
		p += "/"
	}
	return scope{scheme: g.Scheme, host: g.Host, port: g.EffectivePort(), prefix: p}
}

// contains says whether loc is inside the scope (the start directory
// itself included). A URL whose scheme spells its tree otherwise than
// with "/" (schemes.Parented: an LDAP DN) is inside when it, or one of
// the containers its Parent names, is the start directory.
func (s scope) contains(loc schemes.Locator) bool {
	if _, ok := loc.(schemes.Parented); ok {
		return s.nests(loc)
	}
	g := canonical(loc)
	if g.Scheme != s.scheme || g.Host != s.host || g.EffectivePort() != s.port {
		return false
	}
	p := place(loc, g)
	if climbs(p) {
		return false
	}
	return strings.HasPrefix(p, s.prefix) || p+"/" == s.prefix
}

// maxNesting bounds the containers nests walks up through: a DN of more
// levels than this is taken for outside any tree.
const maxNesting = 256

// nests says whether loc or a container above it (schemes.Parented) is
// the start directory, on the scope's server.
func (s scope) nests(loc schemes.Locator) bool {
	for range maxNesting {
		g := canonical(loc)
		if g.Scheme != s.scheme || g.Host != s.host || g.EffectivePort() != s.port {
			return false
		}
		if p := place(loc, g); p == s.prefix || p+"/" == s.prefix {
			return true
		}
		pl, ok := loc.(schemes.Parented)
		if !ok {
			return false
		}
		if loc, ok = pl.Parent(); !ok {
			return false
		}
	}
	return false
}

// inDir says whether loc, named by the listing of dir, is in dir: for a
// URL whose scheme names its parents (schemes.Parented), when its Parent
// is dir, on dir's server; for others always, as a file system's listing
// names nothing else.
func inDir(dir, loc schemes.Locator) bool {
	pl, ok := loc.(schemes.Parented)
	if !ok {
		return true
	}
	up, ok := pl.Parent()
	if !ok {
		return false
	}
	d, u := canonical(dir), canonical(up)
	return d.Scheme == u.Scheme && d.Host == u.Host && d.EffectivePort() == u.EffectivePort() &&
		strings.Trim(place(dir, d), "/") == strings.Trim(place(up, u), "/")
}

// climbs says whether path p has a "." or ".." segment (escaped or not):
// a prefix says nothing of where such a path leads.
func climbs(p string) bool {
	for _, seg := range strings.Split(p, "/") {
		if d, err := url.PathUnescape(seg); err == nil {
			seg = d
		}
		if seg == "." || seg == ".." {
			return true
		}
	}
	return false
}

// canonical is loc's generic parts in canonical form (escapes, case),
// so that two spellings of one path compare alike.
func canonical(loc schemes.Locator) *schemes.URL {
	if g, err := schemes.Parse(loc.String()); err == nil {
		g.DefaultPort = loc.Generic().DefaultPort // the scheme's, which Parse alone does not know
		return g
	}
	return loc.Generic()
}

// place is where in the server's tree loc is, g being its canonical
// generic parts: its url-path, less what its scheme says is not the place
// (schemes.TreePather: ftp's ";type=", gopher's item type, which differs
// between a menu and the items in it).
func place(loc schemes.Locator, g *schemes.URL) string {
	if tp, ok := loc.(schemes.TreePather); ok {
		return tp.TreePath()
	}
	return g.Path
}

// below is the decoded path segments of loc below the scope's directory
// (none for the directory itself). loc must be inside the scope.
func (s scope) below(loc schemes.Locator) ([]string, error) {
	p := strings.TrimPrefix(place(loc, canonical(loc)), s.prefix)
	p = strings.Trim(p, "/")
	if p == "" {
		return nil, nil
	}
	var segs []string
	for _, seg := range strings.Split(p, "/") {
		d, err := url.PathUnescape(seg)
		if err != nil {
			return nil, fmt.Errorf("path segment %q: %v", seg, err)
		}
		segs = append(segs, d)
	}
	return segs, nil
}

// above says whether loc is a directory above the scope's (a parent link
// of a menu or an index page): on the scope's server, its path a prefix of
// the scope's directory.
func (s scope) above(loc schemes.Locator) bool {
	g := canonical(loc)
	if g.Scheme != s.scheme || g.Host != s.host || g.EffectivePort() != s.port {
		return false
	}
	p := place(loc, g)
	if !strings.HasSuffix(p, "/") {
		p += "/"
	}
	return strings.HasPrefix(s.prefix, p) || p == "/"
}
