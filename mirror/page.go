package mirror

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/urlget/urlget/schemes"
)

// PageName is the name under which a run keeps the page of each
// directory of a tree whose containers are pages (Caps Pages: an HTML
// index page, hand-made or a server's), as wget -m keeps it: the page of
// "site/" is "site/index.html". Gopher menus and the listings
// of FTP and file directories are the server's lists of entries, not
// documents anyone wrote, and are not kept. Options.NoIndexPages keeps
// none.
const PageName = "index.html"

// pageWork is the work file a page is written to while its listing is
// read, beside where it goes. A remote file NAME is written through
// NAME+WorkSuffix, and no NAME ending in WorkSuffix is taken from a
// listing (localName): this name, PageName+WorkSuffix followed by
// WorkSuffix again, is therefore no remote file's work file, not even
// that of a real index.html the same listing names. Like every name
// ending in WorkSuffix it is the mirror's own, and never deleted.
const pageWork = PageName + WorkSuffix + WorkSuffix

// Reasons of a page's events.
const (
	reasonPageNew     = "index page: new"
	reasonPageChanged = "index page: changed"
)

// page is the copy of one listing's page on its way to DIR/index.html:
// schemes.Request.Page, written by the handler as the listing is read.
// Its Write never fails, so that keeping the page never costs the
// listing: the first failure is kept, nothing more is written, and the
// page is not kept (end reports why).
type page struct {
	e   *engine
	rel string // where it goes: DIR/index.html
	dir string // DIR
	max int64  // the Client's MaxFileSize, 0 for none

	f   *os.File  // the work file, opened at the first byte; never in a dry run
	sum hash.Hash // a dry run's SHA-256 of the page, compared with the local copy's
	n   int64
	err error
	// taken says the listing named an entry at rel (a real index.html
	// the server lists): that entry is mirrored, and the page is not.
	taken bool
}

// newPage is the copy of the page of the directory rel, or nil when no
// page is kept there: the tree has no pages, NoIndexPages, the
// patterns leave DIR/index.html out, or another shard owns it.
func (e *engine) newPage(rel string) *page {
	p := join(rel, PageName)
	if !e.pages || e.opt.NoIndexPages || !e.opt.wantFile(p) || !e.opt.Shard.Owns(p) {
		return nil
	}
	pg := &page{e: e, rel: p, dir: rel, max: e.c.MaxFileSize}
	if e.opt.DryRun {
		pg.sum = sha256.New()
	}
	return pg
}

func (pg *page) Write(b []byte) (int, error) {
	if pg.err != nil {
		return len(b), nil
	}
	if pg.max > 0 && pg.n+int64(len(b)) > pg.max {
		pg.err = &schemes.Error{Phase: "limit", Kind: schemes.KindSafety,
			Msg: fmt.Sprintf("the index page is larger than the maximum file size of %d bytes: not kept", pg.max)}
		return len(b), nil
	}
	pg.n += int64(len(b))
	if pg.sum != nil {
		pg.sum.Write(b)
		return len(b), nil
	}
	if pg.f == nil {
		pg.f, pg.err = pg.open()
		if pg.err != nil {
			return len(b), nil
		}
	}
	if _, err := pg.f.Write(b); err != nil {
		pg.err = localFailure("cannot write the local file "+pg.work(), err)
	}
	return len(b), nil
}

// work is the work file's path.
func (pg *page) work() string { return join(pg.dir, pageWork) }

// open makes the directory and the work file, truncating what an earlier
// run that ended abruptly left; through the root, never through a link.
func (pg *page) open() (*os.File, error) {
	if err := pg.e.local.ensureDir(pg.dir); err != nil {
		return nil, err
	}
	f, err := pg.e.local.root.OpenFile(pg.work(), os.O_WRONLY|os.O_CREATE|os.O_TRUNC|noFollow, 0o644)
	if err != nil {
		return nil, localFailure("cannot write the local file "+pg.work(), err)
	}
	return f, nil
}

// drop gives the page up: the work file goes.
func (pg *page) drop() {
	if pg.f != nil {
		pg.f.Close()
		pg.f = nil
		pg.e.local.root.Remove(pg.work())
	}
}

// end keeps the page once its listing is over: whole says the listing
// was read to its end and closed without an error, at is the page's URL
// after redirects, mod its time (zero when the server gave none). A
// page that did not come whole, or not from a scheme with pages, or
// whose place the listing gave to an entry of its own, is dropped
// without a word (the listing's failure says the rest). A page the same
// as the local copy leaves it as it is, time included; another replaces
// it and gets the server's time.
func (pg *page) end(ctx context.Context, whole bool, at schemes.Locator, mod time.Time) {
	defer pg.drop()
	if !whole || pg.taken || ctx.Err() != nil || !pg.e.c.Caps(at).Has(schemes.Pages) {
		return
	}
	url := at.Redacted()
	if pg.err != nil {
		pg.e.fail(pg.rel, at, pg.err)
		return
	}
	changed, reason, err := pg.keep(mod)
	switch {
	case err != nil:
		pg.e.fail(pg.rel, at, err)
	case changed:
		pg.e.emit(Event{Type: EventGet, Path: pg.rel, URL: url, Bytes: pg.n, Reason: reason})
	default:
		pg.e.emit(Event{Type: EventSkip, Path: pg.rel, URL: url, Reason: ReasonUnchanged})
	}
}

// keep puts the page in place unless the local copy holds the same bytes
// (a dry run only compares), and says whether it changed and how.
func (pg *page) keep(mod time.Time) (changed bool, reason string, err error) {
	local := pg.e.local
	fi, err := local.stat(pg.rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		reason = reasonPageNew
	case err != nil:
		return false, "", localFailure("cannot read the local file "+pg.rel, err)
	case !fi.Mode().IsRegular():
		return false, "", localFailure(fmt.Sprintf("%s is a %s here, not a file: left as it is", pg.rel, kindOf(fi)), nil)
	default:
		reason = reasonPageChanged
	}
	if pg.sum != nil {
		if reason == reasonPageNew {
			return true, reason, nil
		}
		same, err := pg.sameAsLocal()
		return !same, reason, err
	}
	if pg.f == nil { // an empty page: nothing was written
		if pg.f, err = pg.open(); err != nil {
			return false, "", err
		}
	}
	if err := pg.f.Close(); err != nil {
		pg.f = nil
		local.root.Remove(pg.work())
		return false, "", localFailure("cannot write the local file "+pg.work(), err)
	}
	pg.f = nil
	changed, err = pg.e.replaceIfChanged(pg.rel, pg.work())
	if err != nil || !changed {
		local.root.Remove(pg.work())
		return false, "", err
	}
	if !mod.IsZero() {
		local.root.Chtimes(pg.rel, mod, mod) // as a file gets the server's time; a page without one keeps now
	}
	return true, reason, nil
}

// sameAsLocal says whether the local copy's SHA-256 is the page's.
func (pg *page) sameAsLocal() (bool, error) {
	f, err := pg.e.local.root.OpenFile(pg.rel, os.O_RDONLY|noFollow, 0)
	if err != nil {
		return false, localFailure("cannot read the local file "+pg.rel, err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return false, localFailure("cannot read the local file "+pg.rel, err)
	}
	return bytes.Equal(h.Sum(nil), pg.sum.Sum(nil)), nil
}
