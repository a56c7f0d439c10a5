package mirror

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// shrinkFew is how many deletions in one directory are made whatever the
// listing looks like: past it, a listing that names fewer than half of
// the entries the local copy holds is not believed (see deleteStale).
const shrinkFew = 5

// deletion is a local file or directory the remote no longer has.
type deletion struct {
	rel  string
	dir  bool
	size int64
}

// deleteStale removes, with Delete, what the remote no longer has: only
// in directories whose listing was read whole and understood, never the
// mirror's own files, never what the patterns exclude, and not at all when
// there are more than MaxDelete.
//
// Two guards stand for the cases a listing cannot show on the wire (an
// FTP listing cut at a line end and then confirmed with 226 reads like a
// whole one): a directory whose remote listing came back empty while it
// holds files here is not emptied, and one whose listing names fewer
// than half of the entries here, with more than shrinkFew to delete, is
// not deleted from — both unless MaxDelete was given and allows the
// run's deletions (rclone's rule: a listing that suddenly shrinks is
// more likely a broken server than a deliberate removal). Each refusal
// is an error event and fails the run (KindSafety), and the summary's
// NoDelete says it, so that neither a person without -v nor a script
// takes the run for a complete one.
func (e *engine) deleteStale(ctx context.Context) {
	if !e.opt.Delete {
		return
	}
	if ctx.Err() != nil {
		e.sum.NoDelete = "the run was interrupted"
		return
	}
	for _, le := range e.localErrs {
		e.fail(le.rel, nil, le.err)
	}
	var plan []deletion
	incomplete, held := 0, 0
	for _, st := range e.states {
		if !st.complete {
			incomplete++
			continue
		}
		// Read now if the listing named nothing; the workers have
		// ended, so e.mu guards nothing any more.
		d := e.localDirLocked(st.rel)
		stale := e.staleIn(st.rel, d)
		switch {
		case len(stale) == 0:
			continue
		case st.entries == 0 && !e.opt.MaxDeleteSet:
			held++
			e.fail(st.rel, nil, &schemes.Error{Scheme: e.start.Generic().Scheme, Phase: "delete", Kind: schemes.KindSafety,
				Setting: SettingMaxDelete,
				Msg: fmt.Sprintf("the remote listing is empty and %d entries are here: %d deletions held back "+
					"(a listing that comes back empty is more likely cut short by the server)",
					len(stale), len(stale))})
			continue
		case shrunk(d, len(stale)) && !e.opt.MaxDeleteSet:
			held++
			e.fail(st.rel, nil, &schemes.Error{Scheme: e.start.Generic().Scheme, Phase: "delete", Kind: schemes.KindSafety,
				Setting: SettingMaxDelete,
				Msg: fmt.Sprintf("the remote listing names %d of the %d entries here: %d deletions held back "+
					"(a listing this much shorter is more likely cut short by the server)",
					d.total-len(stale), d.total, len(stale))})
			continue
		}
		plan = append(plan, stale...)
	}
	var why []string
	if incomplete > 0 {
		why = append(why, fmt.Sprintf("nothing deleted in %d directories whose listing failed, was cut short or was not understood", incomplete))
	}
	if held > 0 {
		why = append(why, fmt.Sprintf("nothing deleted in %d directories whose listing came back empty or shrank to less than half", held))
	}
	e.sum.NoDelete = strings.Join(why, "; ")
	if e.opt.MaxDeleteSet && len(plan) > e.opt.MaxDelete {
		e.fail("", nil, &schemes.Error{Scheme: e.start.Generic().Scheme, Phase: "delete", Kind: schemes.KindSafety,
			Setting: SettingMaxDelete, Msg: fmt.Sprintf("%d deletions planned, more than the %d allowed: nothing deleted", len(plan), e.opt.MaxDelete)})
		e.sum.NoDelete = "more deletions than allowed"
		return
	}
	slices.SortFunc(plan, func(a, b deletion) int { return cmp.Compare(a.rel, b.rel) })
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
			e.fail(d.rel, nil, localFailure("cannot delete the local "+kindName(d.dir)+" "+d.rel, err))
			continue
		}
		e.emit(Event{Type: EventDelete, Path: d.rel, Bytes: d.size, Reason: "not on the remote"})
	}
}

// kindName is "directory" or "file".
func kindName(dir bool) string {
	if dir {
		return "directory"
	}
	return "file"
}

// staleIn is what the directory rel holds that no listing named and the
// patterns do not protect, as it is on the disk now.
func (e *engine) staleIn(rel string, d *localDir) []deletion {
	var stale []deletion
	for name := range d.unnamed {
		p := join(rel, name)
		fi, err := e.local.stat(p)
		if err != nil {
			continue // gone meanwhile
		}
		if e.opt.excluded(p) || (!fi.IsDir() && !e.opt.wantFile(p)) {
			continue
		}
		del := deletion{rel: p, dir: fi.IsDir()}
		if fi.Mode().IsRegular() {
			del.size = fi.Size()
		}
		stale = append(stale, del)
	}
	return stale
}

// shrunk says whether deleting n of the entries d held would leave fewer
// than half of them, with more than shrinkFew to delete: a listing that
// names so few of them is not believed.
func shrunk(d *localDir, n int) bool {
	return n > shrinkFew && d.total-n < (d.total+1)/2
}
