package mirror

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
)

// deletion is a local file or directory the remote no longer has.
type deletion struct {
	rel  string
	dir  bool
	size int64
}

// deleteStale removes, with Delete, what the remote no longer has: only
// in directories whose listing was read whole and understood, never the
// mirror's own files, never what the patterns exclude, and not at all when
// there are more than MaxDelete. A directory whose remote listing came
// back empty while it holds files here is emptied only when MaxDelete was
// given: that looks more like a server fault than a deliberate emptying.
func (e *engine) deleteStale(ctx context.Context) {
	if !e.opt.Delete {
		return
	}
	if ctx.Err() != nil {
		e.sum.NoDelete = "the run was interrupted"
		return
	}
	var plan []deletion
	incomplete := 0
	for _, st := range e.states {
		if !st.complete {
			incomplete++
			continue
		}
		locals, err := e.local.names(st.rel)
		if err != nil {
			e.fail(st.rel, nil, err)
			continue
		}
		var stale []deletion
		for _, fi := range locals {
			name := fi.Name()
			rel := join(st.rel, name)
			if st.names[name] || e.remote[rel] || reserved(name) || e.opt.excluded(rel) || (!fi.IsDir() && !e.opt.wantFile(rel)) {
				continue
			}
			d := deletion{rel: rel, dir: fi.IsDir()}
			if fi.Mode().IsRegular() {
				d.size = fi.Size()
			}
			stale = append(stale, d)
		}
		if st.entries == 0 && len(stale) > 0 && !e.opt.MaxDeleteSet {
			e.emit(Event{Type: EventSkip, Path: st.rel, Reason: fmt.Sprintf(
				"the remote listing is empty and %d entries are here: not emptied without --max-delete", len(stale))})
			continue
		}
		plan = append(plan, stale...)
	}
	if incomplete > 0 {
		e.sum.NoDelete = fmt.Sprintf("nothing deleted in %d directories whose listing failed or was not understood", incomplete)
	}
	if e.opt.MaxDeleteSet && len(plan) > e.opt.MaxDelete {
		e.fail("", nil, fmt.Errorf("%d deletions planned, more than --max-delete %d: nothing deleted", len(plan), e.opt.MaxDelete))
		e.sum.NoDelete = "more deletions than --max-delete"
		return
	}
	slices.SortFunc(plan, func(a, b deletion) int {
		if a.rel < b.rel {
			return -1
		}
		if a.rel > b.rel {
			return 1
		}
		return 0
	})
	for _, d := range plan {
		if e.opt.DryRun {
			e.emit(Event{Type: EventDelete, Path: d.rel, Bytes: d.size, Reason: "not on the remote"})
			continue
		}
		var err error
		if d.dir {
			err = e.local.root.RemoveAll(d.rel)
		} else {
			err = e.local.root.Remove(d.rel)
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			e.fail(d.rel, nil, err)
			continue
		}
		e.emit(Event{Type: EventDelete, Path: d.rel, Bytes: d.size, Reason: "not on the remote"})
	}
}
