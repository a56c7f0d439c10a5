package mirror

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"strings"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// dirJob is a remote directory to list, and where it goes locally.
type dirJob struct {
	loc  schemes.Locator
	rel  string
	hops int // listings from the start's to this one (0 for the start)
}

// dirState is what the listing of one directory said, for the deletions
// after the transfers: which names the remote has, and whether the listing
// can be trusted to say what it lacks.
type dirState struct {
	rel string
	// page is the copy of the listing's page while it is read (nil when
	// none is kept), so that an entry of the listing at its place takes
	// it (page.taken).
	page *page
	// complete: the listing was read to its end without an error and
	// every line of it was understood. Nothing is deleted in a
	// directory whose listing is not complete.
	complete bool
	entries  int // entries the listing held that name something in the tree
}

// list lists one directory and sends each entry where it belongs: a
// directory to the queue, a file to the plan, anything else to the log.
func (e *engine) list(ctx context.Context, j dirJob) {
	begin := time.Now()
	st := &dirState{rel: j.rel, page: e.newPage(j.rel)}
	e.mu.Lock()
	e.states = append(e.states, st)
	if e.pages {
		// DIR/index.html is the directory's page, kept or not: never
		// stale (with NoIndexPages or an --exclude it is left as it
		// is, as an excluded file is).
		e.presentIn(j.rel, PageName)
	}
	e.mu.Unlock()
	req := &fetch.Request{Method: fetch.MethodList, URL: j.loc, WantModTime: true}
	if st.page != nil {
		req.Page = st.page
	}
	resp, err := e.c.Do(ctx, req)
	if err != nil {
		st.page = nil
		e.fail(j.rel, j.loc, err)
		return
	}
	whole := false
	if pg := st.page; pg != nil {
		defer func() {
			st.page = nil // the state outlives the listing; the copy need not
			pg.end(ctx, whole, resp.URL, resp.ModTime)
		}()
	}
	if resp.Listing == nil {
		resp.Close()
		e.fail(j.rel, j.loc, &schemes.Error{Scheme: j.loc.Generic().Scheme, Phase: "list", Kind: schemes.KindProtocol,
			URL: j.loc.Redacted(), Msg: "the server sent no listing"})
		return
	}
	l := resp.Listing
	defer l.Close()
	n, raw, named := 0, 0, 0
	for {
		ent, err := l.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			e.fail(j.rel, j.loc, fmt.Errorf("listing cut short after %d entries: %w", n, err))
			return
		}
		if n++; e.maxEntries >= 0 && n > e.maxEntries {
			e.emit(Event{Type: EventError, Path: j.rel, URL: j.loc.Redacted(), Bound: BoundEntries,
				Err: &schemes.Error{Scheme: j.loc.Generic().Scheme, Phase: "list", Kind: schemes.KindSafety,
					URL: j.loc.Redacted(), Setting: SettingMaxEntries, Msg: fmt.Sprintf("the listing holds more than %d entries: "+
						"the rest is not mirrored, and nothing in this directory is deleted", e.maxEntries)}})
			return
		}
		if ent.Kind == schemes.EntryRaw {
			raw++
		}
		if e.entry(ctx, j, st, ent) {
			named++
		}
	}
	if err := l.Close(); err != nil {
		e.fail(j.rel, j.loc, fmt.Errorf("listing not confirmed after %d entries: %w", n, err))
		return
	}
	st.complete, st.entries = raw == 0, named
	if !e.opt.DryRun {
		// The directory is mirrored even when nothing in it is (an
		// empty one, or none of its files wanted).
		if err := e.local.ensureDir(j.rel); err != nil {
			e.fail(j.rel, j.loc, err)
			return
		}
		// A work file of a file by this name (an earlier run's, cut
		// short) is of no use now that the name is a directory, and
		// no later run would continue it or remove it. It is the
		// work of the shard that owns the name.
		if e.opt.Shard.Owns(j.rel) {
			e.local.removeWork(j.rel)
		}
	}
	whole = true
	e.emit(Event{Type: EventListed, Path: j.rel, URL: j.loc.Redacted(), Bytes: int64(n), Duration: time.Since(begin)})
}

// entry decides what one listed entry becomes, and says whether it names
// something in the tree (a file, directory or link with a usable path).
func (e *engine) entry(ctx context.Context, j dirJob, st *dirState, ent schemes.Entry) bool {
	switch ent.Kind {
	case schemes.EntryInfo:
		return false // a gopher menu's text: names nothing
	case schemes.EntryRaw:
		e.emit(Event{Type: EventSkip, Path: j.rel, URL: j.loc.Redacted(),
			Reason: fmt.Sprintf("listing line not understood: %q (nothing is deleted in this directory)", ent.Title)})
		return false
	}
	if ent.Kind != schemes.EntryDir && ent.Kind != schemes.EntryFile && ent.Kind != schemes.EntryLink {
		e.emit(Event{Type: EventSkip, Path: join(j.rel, ent.Name), URL: redacted(ent.Locator),
			Reason: fmt.Sprintf("%q: a %s item, not a file or directory", ent.Label(), ent.Kind)})
		return false
	}
	if ent.Locator != nil && !e.scope.contains(ent.Locator) {
		if !e.crawl || ent.Kind != schemes.EntryDir || !e.scope.above(ent.Locator) {
			e.emit(Event{Type: EventSkip, Path: join(j.rel, ent.Name), URL: redacted(ent.Locator),
				Reason: fmt.Sprintf("%q: outside the mirrored tree", ent.Label())})
		}
		return false // a menu's or an index page's link to a parent says nothing
	}
	if ent.Locator != nil && !e.crawl && !inDir(j.loc, ent.Locator) {
		// A search's hits (an LDAP subtree search as the start) name
		// entries at every depth: each is mirrored from the listing of
		// the directory it is in, once.
		e.emit(Event{Type: EventSkip, Path: join(j.rel, ent.Name), URL: redacted(ent.Locator),
			Reason: fmt.Sprintf("%q: not in this directory (mirrored from its own, if below)", ent.Label())})
		return false
	}
	rel, err := e.relOf(j, ent)
	if err != nil {
		e.mu.Lock()
		e.presentIn(j.rel, ent.Label()) // a local file of that name is not stale
		e.mu.Unlock()
		e.emit(Event{Type: EventSkip, Path: j.rel, URL: redacted(ent.Locator), Reason: err.Error()})
		return false
	}
	e.named(rel)
	if st.page != nil && rel == st.page.rel {
		st.page.taken = true // the listing's own index.html, mirrored as any entry
	}
	skip := func(reason string) {
		e.emit(Event{Type: EventSkip, Path: rel, URL: redacted(ent.Locator), Reason: reason})
	}
	if ent.Locator == nil {
		skip(fmt.Sprintf("a %s entry with no URL", ent.Kind))
		return false
	}
	switch ent.Kind {
	case schemes.EntryDir:
		switch {
		case rel == "":
			// The start directory itself (an index page's link to
			// itself, a menu item for the menu).
		case e.opt.excluded(rel):
			skip("excluded")
		case e.tooDeep(j, rel):
			e.emit(Event{Type: EventSkip, Path: rel, URL: redacted(ent.Locator), Reason: e.depthReason(), Bound: BoundDepth, Setting: SettingMaxDepth})
		default:
			ok, why := e.visit(ent.Locator, rel, "already walked in this run")
			switch {
			case !ok && why != "":
				skip(why)
			case !ok:
			case !e.firstVisitRel(rel):
				skip("already walked in this run")
			default:
				e.queueDir(dirJob{loc: ent.Locator, rel: rel, hops: j.hops + 1})
			}
		}
	case schemes.EntryFile:
		switch {
		case !e.opt.wantFile(rel):
			skip("excluded")
		case !e.crawl:
			// A file system lists a file in its directory only,
			// under the name that is its place here: a listing of a
			// million files keeps no key for each.
			e.plan(ctx, rel, ent)
		default:
			// A crawl's menus and pages can all link to one file.
			if ok, why := e.visit(ent.Locator, rel, "already fetched in this run"); ok {
				e.plan(ctx, rel, ent)
			} else if why != "" {
				skip(why)
			}
		}
	case schemes.EntryLink:
		if !e.opt.FollowSymlinks {
			e.emit(Event{Type: EventSkip, Path: rel, URL: redacted(ent.Locator), Reason: "symbolic link, not followed", Setting: SettingFollowSymlinks})
			return false
		}
		e.follow(ctx, j, rel, ent)
	}
	return rel != ""
}

// relOf is where an entry goes locally: for a listing of a file system
// (ftp, file), its name in the listed directory; for a crawl (HTML links,
// gopher menus, whose items may point anywhere in the tree), the path of
// its URL below the start directory, so that an item reached from a menu
// elsewhere lands where the tree has it, and two menus that list one item
// agree on its place. Every segment must be one safe name.
func (e *engine) relOf(j dirJob, ent schemes.Entry) (string, error) {
	if !e.crawl || ent.Locator == nil {
		name, err := localName(ent)
		if err != nil {
			return "", err
		}
		return join(j.rel, name), nil
	}
	segs, err := e.scope.below(ent.Locator)
	if err != nil {
		return "", fmt.Errorf("%q: %v", ent.Label(), err)
	}
	for _, s := range segs {
		if _, err := localName(schemes.Entry{Name: s, Title: ent.Label()}); err != nil {
			return "", err
		}
	}
	return strings.Join(segs, "/"), nil
}

// plan compares a remote file with the local one and queues the fetch,
// or says why there is none.
func (e *engine) plan(ctx context.Context, rel string, ent schemes.Entry) {
	if !e.opt.Shard.Owns(rel) {
		e.evmu.Lock()
		e.sum.Others++ // another shard's: counted, not reported one by one
		e.evmu.Unlock()
		return
	}
	j := fileJob{entry: ent, rel: rel}
	fi, err := e.local.stat(rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		j.reason = "new"
	case err != nil:
		e.fail(rel, ent.Locator, localFailure("cannot read the local file "+rel, err))
		return
	case !fi.Mode().IsRegular():
		e.fail(rel, ent.Locator, localFailure(fmt.Sprintf("%s is a %s here, not a file: left as it is", rel, kindOf(fi)), nil))
		return
	case ent.Size >= 0 && fi.Size() != ent.Size:
		j.reason = fmt.Sprintf("size differs (%d here, %d there)", fi.Size(), ent.Size)
	case !ent.ModTime.IsZero() && !ent.SameTime(fi.ModTime(), 0):
		j.reason = "modification time differs"
	case !ent.ModTime.IsZero():
		e.emit(Event{Type: EventSkip, Path: rel, URL: ent.Locator.Redacted(), Reason: ReasonUnchanged})
		return
	case e.c.Caps(ent.Locator).Has(schemes.Conditional):
		// No time listed (an index page without dates): the server
		// sends it only if it changed since the local copy's time, which
		// is the server's Last-Modified of the copy fetched before.
		j.reason, j.since = "no time listed: asked with If-Modified-Since", fi.ModTime()
	default:
		// No time listed (plain gopher): fetch it, and replace the local
		// file only if it changed.
		j.reason, j.compare = "no time listed: fetched to compare", true
	}
	if e.opt.DryRun {
		e.emit(Event{Type: EventGet, Path: rel, URL: ent.Locator.Redacted(), Bytes: max(ent.Size, 0), Reason: j.reason})
		return
	}
	e.queueFile(ctx, j)
}

// tooDeep says whether the directory rel, found in the listing of j, is
// beyond MaxDepth: for a crawl, one link more than j; else its path.
func (e *engine) tooDeep(j dirJob, rel string) bool {
	if e.depth < 0 {
		return false
	}
	if e.crawl {
		return j.hops+1 > e.depth
	}
	return depth(rel) > e.depth
}

// depthReason is the skip's reason for a directory tooDeep refuses.
func (e *engine) depthReason() string {
	if e.crawl {
		return fmt.Sprintf("more than %d links from the start", e.depth)
	}
	return fmt.Sprintf("deeper than %d levels", e.depth)
}

// redacted is loc's redacted form, "" for none.
func redacted(loc schemes.Locator) string {
	if loc == nil {
		return ""
	}
	return loc.Redacted()
}

// follow mirrors what a remote symbolic link points to under the link's
// name, when the target stays inside the tree: a directory is walked
// (unless it is walked anyway: a link never makes the run list a
// directory twice, so a link to "." or to a parent loops no more), a file
// is fetched through the link. The target's kind is asked of the server
// (Stat).
func (e *engine) follow(ctx context.Context, j dirJob, rel string, link schemes.Entry) {
	skip := func(reason string) {
		e.emit(Event{Type: EventSkip, Path: rel, URL: redacted(link.Locator), Reason: reason})
	}
	if link.Target == "" {
		skip("symbolic link with no target shown")
		return
	}
	target, err := e.resolve(j.loc, link.Target, false)
	if err != nil {
		skip(fmt.Sprintf("symbolic link to %q: %v", link.Target, err))
		return
	}
	if climbsOut(j.rel, link.Target) || !e.scope.contains(target) {
		skip(fmt.Sprintf("symbolic link to %q, outside the mirrored tree", link.Target))
		return
	}
	st, err := e.c.Do(ctx, &fetch.Request{Method: fetch.MethodStat, URL: target})
	if err != nil {
		e.fail(rel, link.Locator, fmt.Errorf("symbolic link to %q: %w", link.Target, err))
		return
	}
	desc := st.Entry()
	switch desc.Kind {
	case schemes.EntryDir:
		dirLoc, err := e.resolve(j.loc, link.Target, true)
		switch {
		case err != nil:
			skip(fmt.Sprintf("symbolic link to %q: %v", link.Target, err))
		case e.opt.excluded(rel):
			skip("excluded")
		case e.tooDeep(j, rel):
			e.emit(Event{Type: EventSkip, Path: rel, URL: redacted(link.Locator), Reason: e.depthReason(), Bound: BoundDepth, Setting: SettingMaxDepth})
		default:
			if ok, why := e.visit(dirLoc, rel, fmt.Sprintf("symbolic link to %q, a directory walked anyway", link.Target)); ok {
				e.queueDir(dirJob{loc: dirLoc, rel: rel, hops: j.hops + 1})
			} else if why != "" {
				skip(why)
			}
		}
	case schemes.EntryFile:
		desc.Name, desc.Locator = link.Name, link.Locator
		if !e.opt.wantFile(rel) {
			skip("excluded")
			return
		}
		e.plan(ctx, rel, desc)
	default:
		skip(fmt.Sprintf("symbolic link to %q, a %s", link.Target, desc.Kind))
	}
}

// resolve is the URL of target, a link's target as the server showed it,
// from the directory dir; as a directory (a trailing "/") if asDir.
func (e *engine) resolve(dir schemes.Locator, target string, asDir bool) (schemes.Locator, error) {
	base := dir.String()
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	segs := strings.Split(target, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	ref := strings.Join(segs, "/")
	if asDir && !strings.HasSuffix(ref, "/") {
		ref += "/"
	}
	abs, err := schemes.Resolve(base, ref)
	if err != nil {
		return nil, err
	}
	return e.c.Parse(abs)
}

// climbsOut says whether a relative link target, seen from the directory
// rel, climbs above the top of the tree: resolving it as a URL would stop
// at the server's root and look inside.
func climbsOut(rel, target string) bool {
	if strings.HasPrefix(target, "/") {
		return false // absolute: the scope decides
	}
	level := depth(rel)
	for _, seg := range strings.Split(target, "/") {
		switch seg {
		case "", ".":
		case "..":
			if level--; level < 0 {
				return true
			}
		default:
			level++
		}
	}
	return false
}
