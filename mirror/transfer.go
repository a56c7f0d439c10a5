package mirror

import (
	"context"
	"fmt"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// fileJob is a remote file to fetch, and why.
type fileJob struct {
	entry  schemes.Entry
	rel    string
	reason string
	// compare: the listing gave neither size nor time, so the new copy
	// replaces the local file only if its content differs.
	compare bool
	// since: the listing gave no time; the server is asked for the file
	// only if it changed after this time, the local copy's (HTTP
	// If-Modified-Since).
	since time.Time
}

// transfer fetches one file into its place. The fetch Client writes it
// through NAME.urlget-part (continued from an earlier run's unless
// Restart), checks it against the size the server or the listing gave,
// gives it the remote time, and renames it to NAME.
func (e *engine) transfer(ctx context.Context, j fileJob, next []schemes.Locator) {
	begin := time.Now()
	loc := j.entry.Locator
	if err := e.local.ensureDir(dir(j.rel)); err != nil {
		e.fail(j.rel, loc, err)
		return
	}
	dest := j.rel
	if j.compare {
		dest = j.rel + WorkSuffix // then compared with NAME
	}
	listed := j.entry
	opt := fetch.DownloadOptions{
		Resume: !e.opt.Restart && !j.compare,
		// NAME is an older whole copy, never a partial one: only the
		// work file is continued.
		ResumePartOnly: true,
		RemoteTime:     !j.compare,
		WorkSuffix:     WorkSuffix,
		ContinueHint:   "run the mirror again to continue it",
	}
	// The bytes as stored, and what the listing said of them; without a
	// listed time, the server sends the file only if it changed after the
	// local copy's time.
	req := &fetch.Request{URL: loc, Listed: &listed, Exact: true, IfModifiedSince: j.since, Next: next}
	if p := e.opt.Progress; p != nil {
		opt.Progress = func(done, total int64) { p(j.rel, done, total) }
	}
	res, err := e.c.DownloadRequest(ctx, req, e.local.path(dest), opt)
	if err != nil {
		if fi, serr := e.local.stat(j.rel); serr == nil && fi.IsDir() {
			// A directory of the same name took the place meanwhile (a
			// listing that names both): the work file would never be
			// renamed, nor removed by a later run.
			e.local.removeWork(j.rel)
			err = fmt.Errorf("%s is a directory here, not a file: left as it is", j.rel)
		}
		e.fail(j.rel, loc, err)
		return
	}
	if res.NotModified {
		e.emit(Event{Type: EventSkip, Path: j.rel, URL: loc.Redacted(), Reason: ReasonUnchanged})
		return
	}
	if j.compare {
		changed, err := e.replaceIfChanged(j.rel, dest)
		if err != nil {
			e.fail(j.rel, loc, err)
			return
		}
		if !changed {
			e.emit(Event{Type: EventSkip, Path: j.rel, URL: loc.Redacted(), Bytes: res.Bytes, Duration: time.Since(begin), Reason: ReasonUnchanged})
			return
		}
	}
	e.emit(Event{Type: EventGet, Path: j.rel, URL: loc.Redacted(), Bytes: res.Bytes, Duration: time.Since(begin), Reason: j.reason})
}

// replaceIfChanged puts the new copy fresh in the place of rel if their
// contents differ (or rel is missing), else removes it: a file that did
// not change keeps its time.
func (e *engine) replaceIfChanged(rel, fresh string) (bool, error) {
	fi, err := e.local.stat(rel)
	if err == nil && fi.Mode().IsRegular() {
		same, err := e.local.sameContent(rel, fresh)
		if err != nil {
			return false, err
		}
		if same {
			return false, e.local.root.Remove(fresh)
		}
	} else if err == nil {
		e.local.root.Remove(fresh)
		return false, fmt.Errorf("%s is a %s here, not a file: left as it is", rel, kindOf(fi))
	}
	return true, e.local.root.Rename(fresh, rel)
}
