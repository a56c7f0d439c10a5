package fetch

import (
	"crypto/sha256"
	"errors"
	"io"
	"os"
	"time"

	"github.com/urlget/urlget/schemes"
)

// Write appends to the file written (a rendered listing; bodies go
// through a copier straight to t.f, which may splice).
func (t *target) Write(p []byte) (int, error) {
	n, err := t.f.Write(p)
	t.moved(int64(n))
	return n, err
}

// moved counts n bytes written to the file.
func (t *target) moved(n int64) {
	t.held += n
	t.wrote += n
}

// name is the file that holds the partial copy.
func (t *target) name() string {
	if t.mode == intoPart {
		return t.part
	}
	return t.dest
}

// smallCopy is the size of a copy whose resume record is stored only if
// the download fails (record): 64 KiB, a few reads off the socket.
const smallCopy = 64 << 10

// record stores what the data being written is copied from, as NAME.part's
// resume record, and remembers it for a retry within this run. Failing to
// store it (no extended attributes) only means a later run judges the
// partial copy without it. NAME, the user's file, gets none.
//
// It is stored before the first byte lands, so that even a killed run
// leaves a partial copy the rule can judge — except for a copy whose
// size is known and at most smallCopy (size, the resource's or the
// range's bytes; -1 when unknown). Storing a record costs an extended
// attribute set and removed again a file, which on ext4 (a block
// allocated and freed, each journaled) was 0.15 ms of the 0.6 ms a small
// file took over loopback, more than its transfer (issue 36). Such a
// copy's record is stored by fail when the download fails keeping bytes
// (an error, a timeout, Ctrl-C); only a run killed outright within its
// few reads leaves it without one, and then the resume rule judges those
// bytes as another tool's (by the file's time; a copy holding all of
// them is started over), or they are fetched again.
func (t *target) record(rec schemes.ResumeRecord, size int64) {
	t.partial.Record = &rec
	if t.mode != intoPart || t.ranged {
		return
	}
	if size >= 0 && size <= smallCopy {
		t.unstored = true
		return
	}
	writeRecord(t.f, rec)
}

// storeRecord stores a record that record left in memory.
func (t *target) storeRecord() {
	if t.unstored && t.partial.Record != nil {
		writeRecord(t.f, *t.partial.Record)
	}
	t.unstored = false
}

// startOver drops the bytes held, because the server sends the resource
// from its start (or a leftover is not continued). Into NAME.part that is
// a truncation; a NAME being continued is restored to its length before
// this run and left alone, and the new copy goes to NAME.part. (Bytes
// that went to a destination written in place cannot be taken back: the
// caller checks that none did.)
func (t *target) startOver() error {
	switch t.mode {
	case inPlace:
		return nil
	case appendDest:
		if err := t.restore(); err != nil {
			return err
		}
		t.f.Close()
		t.mode, t.f = intoPart, t.lock
	}
	if err := t.f.Truncate(0); err != nil {
		return err
	}
	if _, err := t.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	removeAttr(t.f, recordAttr)
	t.held, t.partial, t.stale, t.unstored = 0, schemes.Partial{}, false, false
	return nil
}

// restore gives NAME back its length before this run.
func (t *target) restore() error {
	if t.mode != appendDest || t.held == t.base {
		return nil
	}
	if err := t.f.Truncate(t.base); err != nil {
		return err
	}
	t.held = t.base
	_, err := t.f.Seek(t.base, io.SeekStart)
	return err
}

// sum returns the SHA-256 of the bytes held.
func (t *target) sum() (string, error) {
	if t.mode == inPlace {
		if t.hash == nil {
			return "", errors.New("the bytes written in place were not summed")
		}
		return hexSum(t.hash)()
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(t.f, 0, t.held)); err != nil {
		return "", err
	}
	return hexSum(h)()
}

// syncFile makes f's data durable; a variable so that tests can see it
// called.
var syncFile = (*os.File).Sync

// commit finishes a download that is complete and checked: the file gets
// the server's time if asked, is made durable if asked (durable), and
// NAME.part becomes NAME, or t.as, a name the server chose, which it
// never replaces (linkNew); then the lock is released.
func (t *target) commit(loc schemes.Locator, stamp, durable bool, mod time.Time) error {
	defer t.close()
	if t.mode == inPlace {
		return nil
	}
	// The record is for a partial copy: NAME gets none. A small copy's
	// was never stored (record), so it is asked for first: removing an
	// attribute that is not there cost ext4 a journal transaction, about
	// 0.03 ms a file (issue 36). A record a killed run left on an empty
	// NAME.part is still found and removed.
	if t.mode == intoPart && hasAttr(t.f, recordAttr) {
		removeAttr(t.f, recordAttr)
	}
	if stamp && !mod.IsZero() {
		if err := setTimes(t.f, mod); err != nil {
			return localError(loc, "remote-time", err)
		}
	}
	if durable {
		if err := syncFile(t.f); err != nil {
			return localError(loc, "sync", err)
		}
	}
	if t.mode == appendDest {
		os.Remove(t.part) // empty: it only held the lock
		return nil
	}
	if t.as != "" && t.as != t.dest {
		return t.linkNew(loc)
	}
	if err := rename(t.part, t.dest); err != nil {
		return localError(loc, "rename", err)
	}
	return nil
}

// fail settles what a failed download leaves, and says how to go on:
//
//   - data that is wrong (a checksum mismatch), unwanted (past
//     MaxFileSize) or not a partial copy (a listing, an error page, a
//     byte range) is dropped: NAME.part
//     removed, a continued NAME restored to its length before this run;
//   - otherwise NAME.part, or the NAME being continued, keeps what
//     arrived, and the error says to continue with -C -;
//   - a NAME.part holding nothing is removed, and a leftover this run did
//     not get to replace is left as it was.
func (t *target) fail(err error) error {
	defer t.close()
	if t.mode == inPlace {
		return err
	}
	// An error page the caller asked to have written (ErrBodyWritten) is
	// no part of a partial copy being continued in place.
	unwanted := errors.Is(err, errTooLarge) || t.listing || errors.Is(err, schemes.ErrBodyWritten) || t.ranged
	if errors.Is(err, errCorrupt) || (unwanted && t.wrote > 0) {
		if t.mode == appendDest {
			t.restore()
		} else {
			t.held = 0
		}
	}
	if t.mode == appendDest || (t.held == 0 && !t.stale) {
		os.Remove(t.part)
	}
	if errors.Is(err, errCorrupt) || unwanted {
		return err
	}
	switch {
	case t.mode == intoPart && t.held > 0:
		t.storeRecord() // a small copy's, which record kept in memory
		return kept(err, t.part, t.hint)
	case t.mode == appendDest && t.held > t.base:
		return kept(err, t.dest, t.hint)
	}
	return err
}

// unchanged ends a download the server answered "not modified": NAME is
// left as it is, and a NAME.part this run made (empty) is removed.
func (t *target) unchanged() error {
	defer t.close()
	if t.mode == intoPart && t.held == 0 && !t.stale {
		os.Remove(t.part)
	}
	return nil
}

func (t *target) close() {
	if t.f != t.lock {
		t.f.Close()
	}
	if t.lock != nil {
		t.lock.Close()
	}
}

// kept adds to err how to continue the partial copy name holds (hint,
// "" for -C -), keeping its *schemes.Error with its kind and fields.
func kept(err error, name, hint string) error {
	var se *schemes.Error
	if !errors.As(err, &se) {
		return &PartialKept{Path: name, Hint: hint, Err: err}
	}
	e := *se
	e.Err = &PartialKept{Path: name, Hint: hint, Err: e.Err}
	return &e
}

// PartialKept is in the chain of a Download error after which the data
// that arrived was kept: Path names the file that holds it (NAME.part,
// or the NAME being continued). Its text ends with how to continue.
type PartialKept struct {
	Path string
	// Hint says how to continue (DownloadOptions.ContinueHint); "" is
	// "continue with -C -".
	Hint string
	Err  error // the cause, if any
}

func (p *PartialKept) Error() string {
	hint := p.Hint
	if hint == "" {
		hint = "continue with -C -"
	}
	note := "the partial copy is kept in " + p.Path + ": " + hint
	if p.Err == nil || schemes.IsBareContextError(p.Err) {
		return note
	}
	return p.Err.Error() + "; " + note
}

// Unwrap returns the cause.
func (p *PartialKept) Unwrap() error { return p.Err }
