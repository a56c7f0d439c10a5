package mirror

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"syscall"

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
	// emptied: a shard's directory, removed only if empty (with
	// everything in it when false: the run is not split); others: files
	// of other shards are left in it (a dry run does not say it would
	// go).
	emptied, others bool
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
		for _, d := range stale {
			own, _ := e.ownPart(d)
			plan = append(plan, own...)
		}
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
	slices.SortFunc(plan, func(a, b deletion) int { return cmp.Compare(a.key(), b.key()) })
	for _, d := range plan {
		if e.opt.DryRun {
			if !d.others {
				e.emit(Event{Type: EventDelete, Path: d.rel, Bytes: d.size, Reason: "not on the remote"})
			}
			continue
		}
		var err error
		if d.dir && !d.emptied {
			err = e.local.root.RemoveAll(d.rel)
		} else {
			err = e.local.root.Remove(d.rel)
		}
		if d.emptied && err != nil && (errors.Is(err, fs.ErrNotExist) || notEmpty(err)) {
			continue // another shard's files are still in it, or another shard removed it
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			e.fail(d.rel, nil, localFailure("cannot delete the local "+kindName(d.dir)+" "+d.rel, err))
			continue
		}
		e.emit(Event{Type: EventDelete, Path: d.rel, Bytes: d.size, Reason: "not on the remote"})
	}
}

// key orders the deletions: by path, a directory after what is in it
// (a shard's directory is removed only once emptied).
func (d deletion) key() string {
	if d.dir {
		return d.rel + "/\xff"
	}
	return d.rel
}

// ownPart is what of the stale d this run deletes, and whether that is
// all of it. A run not split deletes d whole. A shard deletes a file it
// owns (Shard.Owns of its path; a work file goes with the file it is
// for); of a directory, its own files, then each directory in it,
// deepest first, and the directory itself, each removed only if empty
// (rmdir, which no file another shard still has there survives): the
// last shard to empty a directory removes it, whichever that is, so one
// round of the shards leaves what one unsplit run does (see Shard).
func (e *engine) ownPart(d deletion) ([]deletion, bool) {
	sh := e.opt.Shard
	if sh.Count <= 1 {
		return []deletion{d}, true
	}
	if !d.dir {
		if !sh.Owns(strings.TrimSuffix(d.rel, WorkSuffix)) {
			return nil, false
		}
		return []deletion{d}, true
	}
	fis, err := e.local.names(d.rel)
	if err != nil {
		return nil, false
	}
	var out []deletion
	all := true
	for _, fi := range fis {
		if reserved(fi.Name()) && !strings.HasSuffix(fi.Name(), WorkSuffix) {
			all = false // a lock: another run's
			continue
		}
		sub := deletion{rel: join(d.rel, fi.Name()), dir: fi.IsDir()}
		if fi.Mode().IsRegular() {
			sub.size = fi.Size()
		}
		own, whole := e.ownPart(sub)
		out = append(out, own...)
		all = all && whole
	}
	d.emptied, d.others = true, !all
	return append(out, d), all
}

// notEmpty says whether err is rmdir's refusal of a directory that
// holds something (ENOTEMPTY, or EEXIST where POSIX allows it).
func notEmpty(err error) bool {
	return errors.Is(err, syscall.ENOTEMPTY) || errors.Is(err, syscall.EEXIST)
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
