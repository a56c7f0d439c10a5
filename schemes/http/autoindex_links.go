package http

import (
	"fmt"
	"hash/maphash"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// linkRules decides which links of an index page are its entries: a link
// is one when it resolves (against the page's directory; a <base> is not
// read) to the page's scheme, host and port, with no query and no
// fragment, and to the directory's path plus exactly one segment,
// optionally followed by "/" (a directory). So the sort links of an index
// ("?C=N;O=D"), links up ("../", "/"), deeper, to the page itself, to
// other servers, and mailto: and javascript: links make none. A name that
// comes again in the page is given once, the first time.
type linkRules struct {
	page *URL
	// dir is the path of the page's directory, escaped and canonical
	// (normalizePath), with its leading "/" and ending in "/": the
	// page's path, with "/" appended when it lacks one (List treats the
	// URL as the directory, as ftp's List does).
	dir string
	// base is the directory's URL, which relative links resolve against.
	base string

	// seen holds a 128-bit key for each name given (two hashes with
	// seeds drawn for this page): 16 bytes a name however long the
	// names are, where a set of the names themselves could grow to
	// maxIndexEntries × maxIndexToken bytes. The seeds are random, so a
	// server cannot choose names that collide; two names of one page
	// collide with probability below 2^-88.
	seeds [2]maphash.Seed
	seen  map[[2]uint64]struct{}
	n     int // entries given
}

func newLinkRules(page *URL) *linkRules {
	p := normalizePath(page.Path)
	if p != "" && !strings.HasSuffix(p, "/") {
		p += "/"
	}
	g := page.g
	g.Fragment = nil
	return &linkRules{page: page, dir: "/" + p, base: schemes.FormatLocator(&g, false, "/"+p),
		seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}, seen: map[[2]uint64]struct{}{}}
}

// entry is the entry the link href makes, nil when it makes none, or an
// error when the page has given maxIndexEntries entries already.
//
// The entry's Locator is the resolved link parsed once, by this
// package's parser, with the page's user and password (relative links
// keep them anyway; an absolute link to the same server gets them in
// place of its own): it can be fetched as it is, as the Lister contract
// wants. Its Name is the segment decoded, through schemes.SafeName; as in
// ftp's listings, "." and ".." make no entry, and a name that is not safe
// as a local file name ("a/b" from "a%2Fb", or one holding a control
// character) is given as Title with no Name.
func (l *linkRules) entry(href string) (*schemes.Entry, error) {
	href = strings.TrimSpace(href) // HTML strips the whitespace around a URL
	if href == "" || strings.ContainsAny(href, "?#") {
		return nil, nil // the page itself, a query (a sort link), a fragment
	}
	abs, err := schemes.Resolve(l.base, href)
	if err != nil {
		return nil, nil
	}
	g, err := schemes.Parse(abs)
	if err != nil || g.Scheme != l.page.g.Scheme {
		return nil, nil // unparsable, or another scheme (mailto:, javascript: included)
	}
	g.DefaultPort = l.page.g.DefaultPort // the same scheme's, which Parse alone does not know
	if g.Host != l.page.g.Host || g.EffectivePort() != l.page.g.EffectivePort() {
		return nil, nil // another server
	}
	g.User, g.Password = l.page.g.User, l.page.g.Password
	loc, err := Parse(g)
	if err != nil || loc.Search != nil {
		return nil, nil
	}
	rest, ok := strings.CutPrefix("/"+loc.g.Path, l.dir)
	seg, isDir := strings.CutSuffix(rest, "/")
	if !ok || seg == "" || strings.Contains(seg, "/") {
		return nil, nil // up, elsewhere on the server, deeper, or the directory itself
	}
	name, err := schemes.Unescape(seg)
	if err != nil || name == "." || name == ".." || l.saw(name) {
		return nil, nil
	}
	if l.n++; l.n > maxIndexEntries {
		return nil, l.fail(fmt.Sprintf("the index page lists more than %d entries (the limit)", maxIndexEntries))
	}
	e := &schemes.Entry{Kind: schemes.EntryFile, Size: -1, Locator: loc}
	if isDir {
		e.Kind = schemes.EntryDir
	}
	if hasControl(name) {
		e.Title = name
	} else {
		e.SetName(name)
	}
	return e, nil
}

// saw reports whether name was given before, and records it.
func (l *linkRules) saw(name string) bool {
	k := [2]uint64{maphash.String(l.seeds[0], name), maphash.String(l.seeds[1], name)}
	if _, ok := l.seen[k]; ok {
		return true
	}
	l.seen[k] = struct{}{}
	return false
}

// dirName is the directory's own name (its last segment, decoded) when
// it is safe as a local name, else "": the listing Response's Name.
func (l *linkRules) dirName() string {
	p := strings.TrimSuffix(l.dir, "/")
	name, err := schemes.Unescape(p[strings.LastIndexByte(p, '/')+1:])
	if err != nil || hasControl(name) {
		return ""
	}
	name, _ = schemes.SafeName(name)
	return name
}

// fail is the error for a page past one of the listing's limits.
func (l *linkRules) fail(msg string) error {
	return &schemes.Error{Scheme: l.page.g.Scheme, Phase: "list", Kind: schemes.KindProtocol, Msg: msg}
}

// hasControl reports whether s holds a C0 control character or DEL:
// schemes.SafeName lets them through, but no name a mirror writes should
// hold one.
func hasControl(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7F })
}
