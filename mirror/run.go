package mirror

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"sync"
	"syscall"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// Run mirrors the remote directory src (an ftp or file directory, an http
// index page, a gopher menu) into the local directory dst, creating it if
// need be, and returns what it did. The error is nil only when everything
// was mirrored: a run goes on past a failing file or listing, and then
// returns a *Failed saying how many failed, which wraps the first failure
// (so its schemes.Kind gives the exit status).
//
// A file is skipped when the local copy has the listed size and the
// listed modification time within the listing's precision; otherwise it
// is fetched into NAME.urlget-part (WorkSuffix) beside NAME, checked
// against the size the server or the listing gave, given the remote
// time, and renamed to NAME. An item whose listing gives neither size nor
// time (plain gopher) is fetched again on every run, and replaces NAME
// only when its content differs. Within one run no URL is listed twice,
// and a crawl fetches none twice. A run that is interrupted leaves whole files under final
// names, and work files that the next run continues (unless Restart).
func Run(ctx context.Context, c *fetch.Client, src, dst string, opt Options) (*Summary, error) {
	loc, err := c.Parse(src)
	if err != nil {
		return nil, err
	}
	return RunLocator(ctx, c, loc, dst, opt)
}

// RunLocator is Run for an already parsed URL.
func RunLocator(ctx context.Context, c *fetch.Client, src schemes.Locator, dst string, opt Options) (*Summary, error) {
	if err := opt.check(); err != nil {
		return nil, &schemes.Error{Scheme: src.Generic().Scheme, Phase: "mirror", Kind: schemes.KindUsage, Msg: err.Error()}
	}
	if !c.Caps(src).Has(schemes.Lists) {
		return nil, &schemes.Error{Scheme: src.Generic().Scheme, Phase: "mirror", Kind: schemes.KindUnsupported, URL: src.Redacted(),
			Msg: "urlget cannot list " + src.Generic().Scheme + " URLs, so it cannot mirror them"}
	}
	l, err := openLocal(dst, ShardLockName(opt.Shard))
	if err != nil {
		// Another run's directory is the user's to wait for; a directory
		// that cannot be made or opened is a local error (exit 23).
		if errors.Is(err, errInUse) {
			return nil, &schemes.Error{Scheme: src.Generic().Scheme, Phase: "mirror", Kind: schemes.KindUsage, Msg: err.Error()}
		}
		return nil, localFailure("cannot use the local directory "+dst, err)
	}
	defer l.close()
	e := newEngine(c, src, l, opt)
	begin := time.Now()
	e.walkAndTransfer(ctx)
	e.deleteStale(ctx)
	e.sum.Duration = time.Since(begin)
	e.sum.DryRun = opt.DryRun
	e.sum.Shard = opt.Shard.String()
	if e.sum.Errors > 0 {
		return &e.sum, &Failed{Count: e.sum.Errors, First: e.first}
	}
	return &e.sum, nil
}

// Failed is Run's error when some of the mirror failed.
type Failed struct {
	Count int   // how many files, listings or deletions failed
	First error // the first of them
}

func (f *Failed) Error() string {
	if f.Count == 1 {
		return fmt.Sprintf("mirror incomplete: 1 failure: %v", f.First)
	}
	return fmt.Sprintf("mirror incomplete: %d failures, the first: %v", f.Count, f.First)
}

// Unwrap returns the first failure.
func (f *Failed) Unwrap() error { return f.First }

// engine is the state of one run.
type engine struct {
	c     *fetch.Client
	opt   Options
	local *local
	start schemes.Locator
	scope scope
	// depth is the deepest a walk goes (Options.MaxDepth): directory
	// levels below the top, or for a crawl links followed; < 0 for no
	// limit.
	depth       int
	crawl       bool // the tree is crawled (HTML links, gopher menus): local paths come from URLs
	pages       bool // its containers are pages (schemes.Pages): each is kept as DIR/index.html (see PageName)
	pipelines   bool // the scheme sends requests ahead (schemes.Pipelines): files are taken in batches
	maxListings int  // the most listings a run makes; < 0 for no limit
	maxEntries  int  // the most entries one listing may hold; < 0 for no limit

	evmu sync.Mutex // serializes Options.Events and the Summary

	mu      sync.Mutex
	wake    *sync.Cond
	dirs    []dirJob   // directories waiting to be listed
	files   *fileQueue // files waiting to be fetched
	busy    int        // jobs being carried out
	listing int        // listings among them
	// seen holds a 128-bit key of each URL listed or fetched, under
	// seeds drawn for the run: 16 bytes a URL however long, where the
	// URLs themselves were most of a large crawl's memory; a server
	// cannot choose URLs that collide.
	seen      map[[2]uint64]struct{}
	seeds     [2]maphash.Seed
	rels      map[string]bool      // local directories walked
	locals    map[string]*localDir // local directories met, for deletions (Delete only)
	localErrs []localErr           // local directories that could not be read
	states    []*dirState          // the directories listed, for deletion
	queued    int                  // listings queued so far, the start's included
	stopped   bool                 // the walk reached maxListings
	forgetful bool                 // the walk reached maxVisited
	// held counts the times a listing waited for room in the file
	// queue, a worker transferring nothing meanwhile (see canList).
	held int

	sum     Summary
	first   error
	planned Plan // what is planned so far; under evmu
}

func newEngine(c *fetch.Client, start schemes.Locator, l *local, opt Options) *engine {
	e := &engine{c: c, opt: opt, local: l, start: start, scope: newScope(start), seen: map[[2]uint64]struct{}{},
		seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()},
		rels:  map[string]bool{"": true}, locals: map[string]*localDir{}, files: newFileQueue()}
	e.wake = sync.NewCond(&e.mu)
	e.crawl = c.Caps(start).Has(schemes.Crawls)
	e.pipelines = c.Caps(start).Has(schemes.Pipelines)
	e.pages = c.Caps(start).Has(schemes.Pages)
	e.depth = limit(opt.MaxDepth, -1)
	if e.crawl {
		e.depth = limit(opt.MaxDepth, DefaultCrawlDepth)
	}
	e.maxListings = limit(opt.MaxListings, -1)
	if e.crawl {
		e.maxListings = limit(opt.MaxListings, DefaultMaxListings)
	}
	e.maxEntries = limit(opt.MaxEntries, DefaultMaxEntries)
	return e
}

// emit hands ev to Options.Events and counts it, one at a time.
func (e *engine) emit(ev Event) {
	e.evmu.Lock()
	defer e.evmu.Unlock()
	if ev.Bound != "" {
		e.reached(ev.Bound)
	}
	if ev.Type == EventSkip && !e.opt.Shard.Owns(ev.Path) {
		// Every shard walks alike and meets every skip; the shard
		// owning the path says it, so that the shards' logs and
		// summaries add up to one unsplit run's.
		return
	}
	switch ev.Type {
	case EventListed:
		e.sum.Listed++
	case EventGet:
		e.sum.Got++
		e.sum.Bytes += ev.Bytes
	case EventSkip:
		e.sum.Bytes += ev.Bytes
		if ev.Reason == ReasonUnchanged {
			e.sum.Unchanged++
		} else {
			e.sum.Skipped++
		}
	case EventDelete:
		e.sum.Deleted++
	case EventError:
		e.sum.Errors++
		if e.first == nil {
			e.first = ev.Err
		}
	}
	ev.DryRun = e.opt.DryRun && ev.Type != EventError && ev.Type != EventListed
	ev.Shard = e.opt.Shard
	if e.opt.Events != nil {
		e.opt.Events(ev)
	}
}

// fail reports err about rel. A name longer than the local file system
// takes is skipped instead, and said so: no later run could write it
// either, and a run that fails on it every time is never clean. So is a
// URL whose server asks for something of its own (schemes.Error.Asks:
// input, a client certificate), other than the start: it is no file,
// and no failure of the mirror's. A directory passed by either way
// stays incomplete: nothing in it is deleted.
func (e *engine) fail(rel string, loc schemes.Locator, err error) {
	ev := Event{Type: EventError, Path: rel, URL: redacted(loc), Err: err}
	var se *schemes.Error
	switch {
	case errors.Is(err, syscall.ENAMETOOLONG):
		ev = Event{Type: EventSkip, Path: rel, URL: redacted(loc), Reason: "name too long for the local file system"}
	case rel != "" && errors.As(err, &se) && se.Asks: // the start was named: it fails
		ev = Event{Type: EventSkip, Path: rel, URL: redacted(loc), Reason: ReasonAsks + ": " + se.Msg}
	}
	e.emit(ev)
}

// maxVisited is the most URLs a run keeps track of (16 bytes each, some
// 40 MB in all): past it the walk stops rather than hold more, which only
// a crawl of millions of files reaches. A variable for the tests.
var maxVisited = 2_000_000

// visit marks loc as visited, so that the same remote object reached
// twice (links, menu loops) is handled once. ok is true the first time.
// Otherwise why says why loc is skipped (again, when it was visited
// before), or is "" when visit reported it itself: the run keeps track of
// no more URLs, a failure (KindSafety) at rel the first time the run met
// the bound and a skip after.
func (e *engine) visit(loc schemes.Locator, rel, again string) (ok bool, why string) {
	s := loc.String()
	key := [2]uint64{maphash.String(e.seeds[0], s), maphash.String(e.seeds[1], s)}
	e.mu.Lock()
	if _, seen := e.seen[key]; seen {
		e.mu.Unlock()
		return false, again
	}
	if len(e.seen) < maxVisited {
		e.seen[key] = struct{}{}
		e.mu.Unlock()
		return true, ""
	}
	first := !e.forgetful
	e.forgetful = true
	e.mu.Unlock()
	if !first {
		e.emit(Event{Type: EventSkip, Path: rel, URL: loc.Redacted(), Bound: BoundVisited,
			Reason: fmt.Sprintf("not walked: the run has visited %d URLs, the most it keeps track of", maxVisited)})
		return false, ""
	}
	e.emit(Event{Type: EventError, Path: rel, URL: loc.Redacted(), Bound: BoundVisited,
		Err: &schemes.Error{Scheme: loc.Generic().Scheme, Phase: "mirror", Kind: schemes.KindSafety,
			URL: loc.Redacted(), Msg: fmt.Sprintf("the walk stopped after %d URLs, the most one run keeps track of: "+
				"this and what comes after it are not mirrored", maxVisited)}})
	return false, ""
}

// firstVisitRel marks the local directory rel as walked and says whether
// it was not before: a crawl can reach one directory by two URLs
// (gopher's "1/dir" and "1/dir/").
func (e *engine) firstVisitRel(rel string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.rels[rel] {
		return false
	}
	e.rels[rel] = true
	return true
}

// named records that the remote has rel (present).
func (e *engine) named(rel string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.present(rel)
}

// walkAndTransfer lists the tree and fetches what the plan says, with
// Parallel workers sharing one queue: listings first, so that the tree
// is known early and the workers never run dry while it is walked.
func (e *engine) walkAndTransfer(ctx context.Context) {
	e.visit(e.start, "", "")
	e.dirs = append(e.dirs, dirJob{loc: e.start, rel: ""})
	e.queued = 1
	var wg sync.WaitGroup
	for range e.opt.parallel() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.work(ctx)
		}()
	}
	// A canceled run wakes the workers waiting for jobs.
	stop := context.AfterFunc(ctx, func() {
		e.mu.Lock()
		e.wake.Broadcast()
		e.mu.Unlock()
	})
	wg.Wait()
	stop()
}

// work carries out jobs until there are none left and none running (a
// running listing may add more), or ctx is done.
func (e *engine) work(ctx context.Context) {
	var cur string // the directory this worker fetches files of
	var on bool    // whether it is on one
	for {
		e.mu.Lock()
		for !e.canList() && e.files.n == 0 && e.busy > 0 && ctx.Err() == nil {
			e.wake.Wait()
		}
		if ctx.Err() != nil || (len(e.dirs) == 0 && e.files.n == 0 && e.busy == 0) {
			e.files.leave(cur, &on)
			e.wake.Broadcast()
			e.mu.Unlock()
			return
		}
		if !e.canList() && e.files.n == 0 {
			e.mu.Unlock()
			continue // only listings wait, and enough are under way
		}
		var d *dirJob
		var batch []fileJob
		if n := len(e.dirs); n > 0 && e.canList() {
			e.listing++
			e.files.leave(cur, &on)
			d = &dirJob{}
			*d, e.dirs = e.dirs[n-1], e.dirs[:n-1]
		} else {
			batch = e.takeFiles(&cur, &on)
			e.wake.Broadcast() // a listing may wait for room in the queue
		}
		e.busy++
		e.mu.Unlock()
		if d != nil {
			e.list(ctx, *d)
		} else {
			e.transferAll(ctx, batch)
		}
		e.mu.Lock()
		e.busy--
		if d != nil {
			e.listing--
			if e.listing == 0 && len(e.dirs) == 0 {
				// The last listing ended and none waits: the walk is
				// over (a listing still under way could add more).
				e.evmu.Lock()
				if !e.planned.Walked {
					e.planned.Walked = true
					e.tellPlanLocked()
				}
				e.evmu.Unlock()
			}
		}
		e.wake.Broadcast()
		e.mu.Unlock()
	}
}

// canList says whether a worker may start a listing now: one is waiting,
// fewer than a quarter of the workers (at least 2) are listing, and the
// file queue is less than half full. A full one wants its files fetched
// first; and a listing started with room for half the queue's bound has
// room for the whole of a directory of ordinary size, so it seldom waits
// for room — a worker waiting there transfers nothing, and a tree larger
// than the queue would otherwise be fetched on fewer connections than
// Parallel for most of its run (with -P 8, two of the eight idle).
// Listings are not spread over every
// worker: each would open (and log in) a connection of its own, and a
// run that finds nothing to fetch would pay a login per worker for
// listings that one or two connections serve faster; the workers that
// transfer open theirs as files come. The caller holds e.mu.
func (e *engine) canList() bool {
	return len(e.dirs) > 0 && e.listing < max(2, e.opt.parallel()/4) && e.files.n < maxQueued/2
}

// queueDir adds a directory to list, unless the run has made
// maxListings already: then the walk stops there, which the first such
// directory reports as a failure and the others as skips.
func (e *engine) queueDir(j dirJob) {
	e.mu.Lock()
	if e.maxListings >= 0 && e.queued >= e.maxListings {
		first := !e.stopped
		e.stopped = true
		e.mu.Unlock()
		reason := fmt.Sprintf("not walked: the run has made %d listings", e.maxListings)
		if first {
			e.emit(Event{Type: EventError, Path: j.rel, URL: j.loc.Redacted(), Bound: BoundListings,
				Err: &schemes.Error{Scheme: j.loc.Generic().Scheme, Phase: "mirror", Kind: schemes.KindSafety,
					URL: j.loc.Redacted(), Setting: SettingMaxListings, Msg: fmt.Sprintf("the walk stopped after %d listings: "+
						"this and the directories after it are not mirrored", e.maxListings)}})
			return
		}
		e.emit(Event{Type: EventSkip, Path: j.rel, URL: j.loc.Redacted(), Reason: reason, Bound: BoundListings, Setting: SettingMaxListings})
		return
	}
	e.queued++
	e.dirs = append(e.dirs, j)
	e.wake.Signal()
	e.mu.Unlock()
}

// maxQueued bounds the files waiting to be fetched: a listing that
// finds the queue full waits until a transfer takes one, so what a run
// holds does not grow with a listing's length (a million entries, or a
// listing that never ends), only the pace of the listing slows to that
// of the transfers. A file waiting costs some 2 KB (its entry, URL and
// listing line): 4,096 of them are a few MB, and still a queue that
// Parallel transfers take seconds to drain, where listing one more
// directory takes a round trip or two. A variable for the tests.
var maxQueued = 4096

// queueFile adds a file to fetch, first waiting for room in the queue.
// When every worker is listing, none would make room: the caller then
// fetches a queued file itself (its connection is the listing's, so the
// file takes another).
func (e *engine) queueFile(ctx context.Context, j fileJob) {
	e.mu.Lock()
	if e.files.n >= maxQueued {
		e.held++
	}
	for e.files.n >= maxQueued && ctx.Err() == nil {
		if e.listing < e.opt.parallel() {
			e.wake.Wait()
			continue
		}
		var cur string
		var on bool
		f, _ := e.files.pop(&cur, &on)
		e.files.leave(cur, &on)
		e.mu.Unlock()
		e.transfer(ctx, f, nil)
		e.mu.Lock()
	}
	e.files.push(j)
	e.wake.Signal()
	e.mu.Unlock()
	e.evmu.Lock()
	e.planned.Files++
	e.planned.Bytes += max(j.entry.Size, 0)
	e.tellPlanLocked()
	e.evmu.Unlock()
}

// tellPlanLocked hands the plan to Options.Planned; e.evmu is held.
func (e *engine) tellPlanLocked() {
	if e.opt.Planned != nil {
		e.opt.Planned(e.planned)
	}
}
