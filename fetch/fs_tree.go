package fetch

import (
	"container/list"
	"context"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/urlget/urlget/schemes"
)

// fsCacheEntries is how many listed entries an FS keeps in all (each
// directory counts one more than its entries): about 15 MB of entries and
// their URLs at most, whatever the tree.
const fsCacheEntries = 1 << 16

// fsMaxDirEntries bounds the entries of one listing an FS reads (a
// ReadDir holds them all), so that no server can make it hold more.
const fsMaxDirEntries = 1 << 18

// fsKid is one entry of a directory of the FS, under its name there.
type fsKid struct {
	name  string
	entry schemes.Entry
	// followed is what a link points to, once the server was asked;
	// guarded by the fsTree's mu.
	followed *schemes.Entry
}

// fsKids is a directory's entries, sorted by name, one per name. It is
// never changed once made (only a link's followed, under the lock).
type fsKids []*fsKid

// find returns the entry named name, or nil.
func (k fsKids) find(name string) *fsKid {
	i, ok := slices.BinarySearchFunc(k, name, func(kid *fsKid, name string) int { return strings.Compare(kid.name, name) })
	if !ok {
		return nil
	}
	return k[i]
}

// dirEntries is k as fs.DirEntry values.
func (k fsKids) dirEntries() []fs.DirEntry {
	out := make([]fs.DirEntry, len(k))
	for i, kid := range k {
		out[i] = fs.FileInfoToDirEntry(&fsInfo{name: kid.name, entry: kid.entry})
	}
	return out
}

// fsTree is the listings an FS has read, by directory URL, kept within
// fsCacheEntries, the least recently used dropped first. It is shared by
// the FS's goroutines.
type fsTree struct {
	mu    sync.Mutex
	dirs  map[string]*list.Element // of *fsCached, by the URL listed (String)
	lru   list.List                // most recently used first
	total int                      // entries held, one more per directory
}

type fsCached struct {
	key  string
	kids fsKids
}

func newFSTree() *fsTree { return &fsTree{dirs: make(map[string]*list.Element)} }

// children returns the entries of the directory loc, from the cache or
// read from the server. Two goroutines that miss at once both read it:
// the same listing, and rarely.
func (t *fsTree) children(ctx context.Context, c *Client, loc schemes.Locator) (fsKids, error) {
	key := loc.String()
	t.mu.Lock()
	if el, ok := t.dirs[key]; ok {
		t.lru.MoveToFront(el)
		kids := el.Value.(*fsCached).kids
		t.mu.Unlock()
		return kids, nil
	}
	t.mu.Unlock()
	kids, err := readFSDir(ctx, c, loc)
	if err != nil {
		return nil, err
	}
	t.store(key, kids)
	return kids, nil
}

// store keeps kids under key if they fit, dropping the directories used
// least recently to make room.
func (t *fsTree) store(key string, kids fsKids) {
	cost := len(kids) + 1
	if cost > fsCacheEntries {
		return // read again each time: no cache could hold it
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.dirs[key]; ok {
		return // another goroutine's read of it came first
	}
	t.dirs[key] = t.lru.PushFront(&fsCached{key: key, kids: kids})
	t.total += cost
	for t.total > fsCacheEntries {
		old := t.lru.Remove(t.lru.Back()).(*fsCached)
		delete(t.dirs, old.key)
		t.total -= len(old.kids) + 1
	}
}

// follow returns what the link kid points to: its own entry with the
// kind, size and time of the target, which the scheme's Stat tells where
// it can; where it cannot, the link is taken for a file (Open retrieves
// through it).
func (t *fsTree) follow(ctx context.Context, c *Client, kid *fsKid) (schemes.Entry, error) {
	t.mu.Lock()
	if f := kid.followed; f != nil {
		t.mu.Unlock()
		return *f, nil
	}
	t.mu.Unlock()
	e := kid.entry
	e.Kind = schemes.EntryFile
	if c.Caps(e.Locator).Has(schemes.Stats) {
		resp, err := c.Do(ctx, &Request{Method: MethodStat, URL: e.Locator})
		if err != nil {
			return schemes.Entry{}, err
		}
		st := resp.Entry()
		if st.Kind == schemes.EntryDir {
			e.Kind = schemes.EntryDir
		}
		e.Size, e.ModTime, e.Precision = st.Size, st.ModTime, st.Precision
	}
	t.mu.Lock()
	kid.followed = &e
	t.mu.Unlock()
	return e, nil
}

// readFSDir lists loc and keeps the entries that are part of the tree
// (fsName, and for a crawl fsPlace.parentOf), the first of each name,
// sorted by name.
func readFSDir(ctx context.Context, c *Client, loc schemes.Locator) (fsKids, error) {
	resp, err := c.Do(ctx, &Request{Method: MethodList, URL: loc})
	if err != nil {
		return nil, err
	}
	defer resp.Close()
	scheme := resp.URL.Generic().Scheme
	if resp.Listing == nil {
		return nil, &schemes.Error{Scheme: scheme, Phase: "fs", Kind: schemes.KindUsage, URL: resp.URL.Redacted(),
			Msg: "not a directory: the server sent no listing"}
	}
	// A crawl's entries may point anywhere: only those one segment below
	// the page or menu (after redirects) are in it.
	var dir *fsPlace
	if c.Caps(resp.URL).Has(schemes.Crawls) {
		p := placeOf(resp.URL)
		dir = &p
	}
	var kids fsKids
	seen := make(map[string]bool)
	n := 0
	for e, err := range schemes.Entries(resp.Listing) {
		if err != nil {
			return nil, err
		}
		if n++; n > fsMaxDirEntries {
			return nil, &schemes.Error{Scheme: scheme, Phase: "fs", Kind: schemes.KindSafety, URL: resp.URL.Redacted(),
				Msg: fmt.Sprintf("the listing holds more than %d entries (the limit of a directory of an FS)", fsMaxDirEntries)}
		}
		name, ok := fsName(e)
		if !ok || seen[name] || dir != nil && !dir.parentOf(e.Locator) {
			continue
		}
		seen[name] = true
		kids = append(kids, &fsKid{name: name, entry: e})
	}
	if err := resp.Listing.Close(); err != nil {
		return nil, err
	}
	slices.SortFunc(kids, func(a, b *fsKid) int { return strings.Compare(a.name, b.name) })
	return kids, nil
}

// fsName is the name e has in an FS, and whether it has one: a file,
// directory or link (or an NLST name of unknown kind, taken for a file)
// with a URL, under Entry.Name or its Locator's LocalName, when that is
// one valid fs path element free of "\".
func fsName(e schemes.Entry) (string, bool) {
	switch e.Kind {
	case schemes.EntryFile, schemes.EntryDir, schemes.EntryLink, schemes.EntryUnknown:
	default:
		return "", false
	}
	if e.Locator == nil {
		return "", false
	}
	name := e.Name
	if name == "" {
		name = e.Locator.LocalName()
	}
	if name == "." || !fs.ValidPath(name) || strings.ContainsAny(name, `/\`) {
		return "", false
	}
	return name, true
}

// fsPlace is where a URL is in its server's tree: its scheme, host and
// port, and the decoded segments of its path (schemes.TreePather's, for
// a scheme whose url-path holds more than the place).
type fsPlace struct {
	origin string
	segs   []string
}

// placeOf is loc's place, in canonical form (case, escapes decoded) so
// that two spellings of one path compare alike.
func placeOf(loc schemes.Locator) fsPlace {
	g := loc.Generic()
	if cg, err := schemes.Parse(loc.String()); err == nil {
		cg.DefaultPort = g.DefaultPort // the scheme's, which Parse alone does not know
		g = cg
	}
	p := g.Path
	if tp, ok := loc.(schemes.TreePather); ok {
		p = tp.TreePath()
	}
	pl := fsPlace{origin: g.Scheme + "://" + g.Host + ":" + strconv.Itoa(g.EffectivePort())}
	if p = strings.Trim(p, "/"); p != "" {
		pl.segs = strings.Split(p, "/")
	}
	for i, seg := range pl.segs {
		if d, err := schemes.Unescape(seg); err == nil {
			pl.segs[i] = d // "%64" is "d": compared decoded
		}
	}
	return pl
}

// parentOf says whether loc is one segment below d on d's server (and
// that segment is no "." or "..", escaped or not).
func (d fsPlace) parentOf(loc schemes.Locator) bool {
	if loc == nil {
		return false
	}
	c := placeOf(loc)
	if c.origin != d.origin || len(c.segs) != len(d.segs)+1 || !slices.Equal(c.segs[:len(d.segs)], d.segs) {
		return false
	}
	last := c.segs[len(d.segs)]
	return last != "" && last != "." && last != ".."
}
