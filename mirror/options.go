package mirror

import (
	"fmt"
	"path"
	"strings"
)

// Options say how Run mirrors. The zero value is a plain incremental
// mirror: four transfers at a time, no deletions, partial files continued.
type Options struct {
	// Parallel is how many listings and transfers run at once (-P); 0
	// means 4. A mirror reads one server, so it is also the most
	// connections the run opens to it: FTP keeps one login per
	// connection for the whole run, as long as the Client keeps that
	// many idle. Run does not change the Client it is given: above the
	// Client's default of 16 (transport.DefaultMaxIdlePerKey), set its
	// MaxIdleConnsPerHost (or its Conns' limit) to Parallel, or the
	// connections given back past 16 are closed and made again (an FTP
	// login, an HTTP keep-alive connection) for later files.
	Parallel int
	// Delete removes local files and directories the remote no longer
	// has, after every transfer has ended, and only in directories whose
	// listing was read whole and understood.
	Delete bool
	// MaxDelete, when MaxDeleteSet, stops the deletions when more than
	// this many would be made: nothing is deleted and Run fails. It also
	// allows emptying a directory whose remote listing came back empty,
	// which is refused otherwise (an empty listing of a directory with
	// local files looks more like a server fault than a deliberate
	// emptying).
	MaxDelete    int
	MaxDeleteSet bool
	// DryRun walks and plans, reports what would be fetched, skipped and
	// deleted, and changes nothing.
	DryRun bool
	// Include and Exclude are path.Match patterns on the slash-separated
	// path relative to the top ("a/*.txt"); a pattern without "/" also
	// matches the last segment alone ("*.iso"). A file is mirrored when
	// it matches an Include (if there are any) and no Exclude; a
	// directory is walked unless it matches an Exclude. Deletions obey
	// the same rules: an excluded local file is left alone.
	Include, Exclude []string
	// MaxDepth limits how deep the walk goes: for trees listed by a file
	// system (ftp, file) the directory levels below the top, for crawls
	// (http index pages, gopher menus) the links followed from the start
	// page, whatever the paths say (a chain /n1 → /n2 → … is as deep as
	// it is long). 0 means the default (unlimited for ftp and file, 10
	// for crawls, which can loop), negative means unlimited.
	MaxDepth int
	// MaxListings stops the walk after this many listings: the
	// directories, menus and pages beyond are not walked, and the run
	// fails (KindSafety) saying so. 0 means the default
	// (DefaultMaxListings for crawls, which a server can make endless;
	// unlimited for ftp and file), negative means unlimited.
	MaxListings int
	// MaxEntries is the most entries one listing may hold: past it the
	// listing is abandoned (what came before is mirrored, nothing in that
	// directory is deleted) and the run fails (KindSafety). 0 means
	// DefaultMaxEntries, negative means unlimited.
	MaxEntries int
	// Restart makes partial files of an earlier run start over instead
	// of being continued (--continue=false).
	Restart bool
	// NoIndexPages keeps no page of a tree whose directories are pages
	// (schemes.Pages: HTML index pages), which a run otherwise keeps as
	// DIR/index.html (PageName). Pages an earlier run kept are then left
	// as they are, as excluded files are: Delete does not remove them.
	NoIndexPages bool
	// FollowSymlinks follows remote symbolic links whose target stays
	// inside the mirrored tree (their target is mirrored under the
	// link's name); others are always skipped.
	FollowSymlinks bool
	// Shard, when its Count is set, makes the run one share of a mirror
	// split across machines: it fetches and deletes only the files the
	// Shard owns (see Shard for the rules), walking every listing. The
	// zero value mirrors everything.
	Shard Shard
	// Events receives every event of the run, one call at a time (calls
	// never overlap), in the order they happen. nil discards them.
	Events func(Event)
	// Progress, if set, is called as a transfer's data arrives (at least
	// every 250 ms while it flows), from the transfer's goroutine: it must
	// be safe for concurrent use.
	Progress func(rel string, done, total int64)
	// Planned, if set, is told what the run has planned to fetch so far,
	// each time a file is planned and once more when the walk is over
	// (Walked set): for a progress display's percentage and time left.
	// Calls never overlap with each other or with Events.
	Planned func(p Plan)
}

// The defaults of the walk's bounds: generous for real trees (a
// directory of a million files lists; so does a gopher site of ten
// thousand menus), and what stops a server that never ends one.
const (
	DefaultCrawlDepth  = 10 // links from the start page, for crawls, which can loop
	DefaultMaxListings = 10_000
	DefaultMaxEntries  = 1_000_000
)

// limit is a bound's value with its default: 0 is def, negative is none
// (-1).
func limit(v, def int) int {
	switch {
	case v == 0:
		return def
	case v < 0:
		return -1
	}
	return v
}

// parallel is Options.Parallel with its default.
func (o *Options) parallel() int {
	if o.Parallel <= 0 {
		return 4
	}
	return o.Parallel
}

// check refuses patterns path.Match cannot read, before anything starts.
func (o *Options) check() error {
	for _, list := range [][]string{o.Include, o.Exclude} {
		for _, p := range list {
			if _, err := path.Match(p, ""); err != nil {
				return fmt.Errorf("pattern %q: %w", p, err)
			}
		}
	}
	if err := o.Shard.check(); err != nil {
		return err
	}
	if o.MaxDeleteSet && o.MaxDelete < 0 {
		return fmt.Errorf("max-delete %d: want 0 or more", o.MaxDelete)
	}
	return nil
}

// matches says whether rel matches pattern p: the whole relative path,
// or, for a pattern without "/", its last segment.
func matches(p, rel string) bool {
	if ok, _ := path.Match(p, rel); ok {
		return true
	}
	if !strings.Contains(p, "/") {
		ok, _ := path.Match(p, path.Base(rel))
		return ok
	}
	return false
}

// wantFile says whether the file at rel is mirrored under the patterns.
func (o *Options) wantFile(rel string) bool {
	if o.excluded(rel) {
		return false
	}
	if len(o.Include) == 0 {
		return true
	}
	for _, p := range o.Include {
		if matches(p, rel) {
			return true
		}
	}
	return false
}

// excluded says whether rel matches an Exclude pattern.
func (o *Options) excluded(rel string) bool {
	for _, p := range o.Exclude {
		if matches(p, rel) {
			return true
		}
	}
	return false
}

// Plan is what a run has planned to fetch so far.
type Plan struct {
	Files int   // files to fetch
	Bytes int64 // their sizes, where the listings gave them
	// Walked says the walk is over: no more files will be planned.
	Walked bool
}
