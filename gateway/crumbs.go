package gateway

import (
	"cmp"
	"html/template"
	"net/url"
	"slices"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// crumb is one step of a listing page's breadcrumbs: a container above
// the page's, by name, and the href of its page ("" for the page itself).
type crumb struct {
	Name string
	Href template.URL
}

// crumbs returns the breadcrumbs of the listing of loc, a directory (a
// menu, a group): its server's root, then each directory of its place on
// the server, then loc itself, the last crumb, without a link. It returns
// nil at a server's root (a url-path of nothing but "/"), where no crumb
// would be a link, and for a URL without an authority (news:group).
//
// The gateway knows no scheme's tree, so the steps come from the syntax
// that RFC 1738 §3.1 gives every hierarchical URL: the url-path's "/"
// separates the directories. A scheme whose url-path holds more than the
// place (schemes.TreePather: ftp's ";type=", gopher's item type) keeps
// what is before the place as it is, so that a gopher menu's ancestors
// are menus too. Each step is parsed by the Client's registry and is a
// link only when the scheme takes it (a WAIS URL without a database, a
// Prospero URL without an object, is no URL: that crumb is text), so no
// link leads where the scheme itself would refuse to go. A step's name is
// its path segment, unescaped for reading; its href is LocatorAddress of
// the parsed step, without a password (a proxy's page links to the URL
// itself, as its entries do).
//
// A scheme whose tree is not spelled with "/" (schemes.Parented: an LDAP
// DN, whose parent is named by its last RDNs) names each step itself:
// the crumbs are the containers its Parent gives, up to the top, each
// named by its LocalName (the server's root when it has none).
func (s *Server) crumbs(loc schemes.Locator, proxy bool) []crumb {
	if p, ok := loc.(schemes.Parented); ok {
		return s.parentCrumbs(loc, p, proxy)
	}
	raw := stripped(loc)
	scheme, rest, _ := strings.Cut(raw, ":")
	rest, ok := strings.CutPrefix(rest, "//")
	if raw == "" || opaque(scheme) || !ok {
		return nil
	}
	rest, _, _ = strings.Cut(rest, "?") // a search's words are no place
	auth, path, _ := strings.Cut(rest, "/")
	root := scheme + "://" + auth + "/"
	lead, tree := "", path
	if tp, ok := loc.(schemes.TreePather); ok {
		// The place ends the url-path (what is not the place comes
		// before it: gopher's type) or starts it (after it: ftp's
		// ";type=").
		switch tree = tp.TreePath(); {
		case strings.HasSuffix(path, tree):
			lead = path[:len(path)-len(tree)]
		case !strings.HasPrefix(path, tree):
			return nil // not where String puts it: no steps to take
		}
	}
	if strings.Trim(tree, "/") == "" {
		return nil // a root ("/" is the root's spelling on some servers)
	}
	out := []crumb{s.step(root, root, raw, proxy)}
	for i := 0; i < len(tree); i++ {
		if tree[i] != '/' || i == 0 || tree[i-1] == '/' {
			continue // an empty segment names no directory a person knows
		}
		seg := tree[:i+1]
		c := s.step(root+lead+seg, segmentName(seg), raw, proxy)
		if c.Href != "" && c.Href != out[len(out)-1].Href {
			out = append(out, c)
		}
	}
	if !slices.ContainsFunc(out, func(c crumb) bool { return c.Href != "" }) {
		return nil
	}
	return append(out, crumb{Name: cmp.Or(segmentName(tree), schemes.Printable(raw, 0))})
}

// maxCrumbs bounds the steps parentCrumbs walks up through: a page of
// a place deeper than this shows the nearest ones.
const maxCrumbs = 64

// parentCrumbs are the crumbs of loc, whose scheme names its parents
// (crumbs): the containers above it, the top first, then loc itself, the
// last crumb, without a link; nil at the top, or when no step is a link.
func (s *Server) parentCrumbs(loc schemes.Locator, p schemes.Parented, proxy bool) []crumb {
	here := stripped(loc)
	var above []crumb
	for range maxCrumbs {
		up, ok := p.Parent()
		if !ok {
			break
		}
		above = append(above, s.step(stripped(up), schemes.Printable(up.LocalName(), 0), here, proxy))
		if p, ok = up.(schemes.Parented); !ok {
			break
		}
	}
	if !slices.ContainsFunc(above, func(c crumb) bool { return c.Href != "" }) {
		return nil
	}
	slices.Reverse(above)
	return append(above, crumb{Name: cmp.Or(schemes.Printable(loc.LocalName(), 0), schemes.Printable(here, 0))})
}

// step is the crumb named name for the URL u, linked when the registry
// parses u and it is not the page's own URL, here.
func (s *Server) step(u, name, here string, proxy bool) crumb {
	c := crumb{Name: cmp.Or(name, schemes.Printable(u, 0))}
	loc, err := s.c.Parse(u)
	if err != nil || stripped(loc) == here {
		return c
	}
	href := LocatorAddress(loc)
	if proxy {
		href = stripped(loc)
	}
	c.Href = template.URL(href)
	return c
}

// segmentName is the last path segment of p, unescaped where that gives
// text, and printable: what a person reads as a directory's name. A
// directory's keeps its "/", as its entry in a listing does.
func segmentName(p string) string {
	dir := strings.HasSuffix(p, "/")
	p = strings.TrimSuffix(p, "/")
	p = p[strings.LastIndexByte(p, '/')+1:]
	if u, err := url.PathUnescape(p); err == nil {
		p = u
	}
	if p = schemes.Printable(p, 0); dir {
		p += "/"
	}
	return p
}

// up is the crumb a page's "Up to" link leads to: the nearest container
// above it that has a page, or nil at the top.
func up(cs []crumb) *crumb {
	for i := len(cs) - 2; i >= 0; i-- {
		if cs[i].Href != "" {
			return &cs[i]
		}
	}
	return nil
}
