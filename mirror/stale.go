package mirror

import (
	"errors"
	"io/fs"
	"path"
)

// localDir is what a run knows of one local directory, for the
// deletions: the local names no listing has named yet. It is read from
// the disk the first time a listing names something in the directory,
// before anything of the run is written there, so a file the run writes
// (which a listing named first) is never among them.
//
// Holding the local names that are not named, rather than every name a
// listing gives, keeps the memory of a run with --delete bounded by the
// local tree (and in practice by what is stale in it), whatever a server
// lists: a listing of millions of names costs nothing here.
type localDir struct {
	unnamed map[string]bool // local names no listing named (true: a directory)
	total   int             // local entries when it was read (the mirror's own files left out)
}

// present records, for the deletions, that the remote has rel: its name
// is taken out of its local directory's unnamed ones, and so are the
// directories above it (a crawl's item can name a path whose directories
// no listing named). Nothing is recorded without Delete. The caller holds
// e.mu.
func (e *engine) present(rel string) {
	if rel != "" {
		e.presentIn(dir(rel), path.Base(rel))
	}
}

// presentIn records that the remote has the entry name in the directory
// rel: present for a name that is no path (one refused as unsafe, whose
// local namesake, if any, is left alone). The caller holds e.mu.
func (e *engine) presentIn(rel, name string) {
	if e.opt.Delete {
		delete(e.localDirLocked(rel).unnamed, name)
	}
}

// localDirLocked is the localDir of rel, read from the disk (and its own
// name recorded as present in its parent) on first use. A directory
// missing here, or unreadable, has no names to delete. The caller holds
// e.mu.
func (e *engine) localDirLocked(rel string) *localDir {
	if d, ok := e.locals[rel]; ok {
		return d
	}
	d := &localDir{unnamed: map[string]bool{}}
	e.locals[rel] = d
	if rel != "" {
		e.present(rel)
	}
	fis, err := e.local.names(rel)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		d.total = -1 // not read: nothing here is deleted
		e.localErrs = append(e.localErrs, localErr{rel, localFailure("cannot read the local directory "+path.Join(".", rel), err)})
		return d
	}
	for _, fi := range fis {
		if reserved(fi.Name()) {
			continue
		}
		d.unnamed[fi.Name()] = fi.IsDir()
		d.total++
	}
	return d
}

// localErr is a local directory that could not be read.
type localErr struct {
	rel string
	err error
}
