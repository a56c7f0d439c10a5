package mirror

import (
	"context"
	"fmt"
	"sync"
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
// only when its content differs. Within one run no URL is listed or
// fetched twice. A run that is interrupted leaves whole files under final
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
	l, err := openLocal(dst)
	if err != nil {
		return nil, &schemes.Error{Scheme: src.Generic().Scheme, Phase: "mirror", Kind: schemes.KindUsage, Msg: err.Error()}
	}
	defer l.close()
	e := newEngine(c, src, l, opt)
	begin := time.Now()
	e.walkAndTransfer(ctx)
	e.deleteStale(ctx)
	e.sum.Duration = time.Since(begin)
	e.sum.DryRun = opt.DryRun
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
	depth int  // the most directory levels walked below the top; < 0 for no limit
	crawl bool // the tree is crawled (HTML links, gopher menus): local paths come from URLs

	evmu sync.Mutex // serializes Options.Events and the Summary

	mu      sync.Mutex
	wake    *sync.Cond
	dirs    []dirJob        // directories waiting to be listed
	files   *fileQueue      // files waiting to be fetched
	busy    int             // jobs being carried out
	listing int             // listings among them
	seen    map[string]bool // URLs listed or fetched
	rels    map[string]bool // local directories walked
	remote  map[string]bool // relative paths the remote has (for deletions)
	states  []*dirState     // the directories listed, for deletion

	sum     Summary
	first   error
	planned Plan // what is planned so far; under evmu
}

func newEngine(c *fetch.Client, start schemes.Locator, l *local, opt Options) *engine {
	e := &engine{c: c, opt: opt, local: l, start: start, scope: newScope(start), seen: map[string]bool{},
		rels: map[string]bool{"": true}, remote: map[string]bool{}, files: newFileQueue()}
	e.wake = sync.NewCond(&e.mu)
	e.depth = opt.MaxDepth
	if e.depth == 0 {
		e.depth = defaultDepth(start.Generic().Scheme)
	}
	e.crawl = crawled(start.Generic().Scheme)
	return e
}

// emit hands ev to Options.Events and counts it, one at a time.
func (e *engine) emit(ev Event) {
	e.evmu.Lock()
	defer e.evmu.Unlock()
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
	if e.opt.Events != nil {
		e.opt.Events(ev)
	}
}

// fail reports err about rel.
func (e *engine) fail(rel string, loc schemes.Locator, err error) {
	ev := Event{Type: EventError, Path: rel, Err: err}
	if loc != nil {
		ev.URL = loc.Redacted()
	}
	e.emit(ev)
}

// firstVisit marks loc as visited and says whether it was not before:
// the same remote object reached twice (links, menu loops) is handled
// once.
func (e *engine) firstVisit(loc schemes.Locator) bool {
	key := loc.String()
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.seen[key] {
		return false
	}
	e.seen[key] = true
	return true
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

// present records that the remote has rel (and the directories above it).
func (e *engine) present(rel string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for ; rel != "" && !e.remote[rel]; rel = dir(rel) {
		e.remote[rel] = true
	}
}

// walkAndTransfer lists the tree and fetches what the plan says, with
// Parallel workers sharing one queue: listings first, so that the tree
// is known early and the workers never run dry while it is walked.
func (e *engine) walkAndTransfer(ctx context.Context) {
	e.firstVisit(e.start)
	e.dirs = append(e.dirs, dirJob{loc: e.start, rel: ""})
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
		var f *fileJob
		if n := len(e.dirs); n > 0 && e.canList() {
			e.listing++
			e.files.leave(cur, &on)
			d = &dirJob{}
			*d, e.dirs = e.dirs[n-1], e.dirs[:n-1]
		} else {
			j, _ := e.files.pop(&cur, &on)
			f = &j
		}
		e.busy++
		e.mu.Unlock()
		if d != nil {
			e.list(ctx, *d)
		} else {
			e.transfer(ctx, *f)
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
// and fewer than maxListings are under way. Listings are not spread over
// every worker: each would open (and log in) a connection of its own, and
// a run that finds nothing to fetch would pay a login per worker for
// listings that one or two connections serve faster; the workers that
// transfer open theirs as files come. The caller holds e.mu.
func (e *engine) canList() bool {
	return len(e.dirs) > 0 && e.listing < max(2, e.opt.parallel()/4)
}

// queueDir adds a directory to list.
func (e *engine) queueDir(j dirJob) {
	e.mu.Lock()
	e.dirs = append(e.dirs, j)
	e.wake.Signal()
	e.mu.Unlock()
}

// queueFile adds a file to fetch.
func (e *engine) queueFile(j fileJob) {
	e.mu.Lock()
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
