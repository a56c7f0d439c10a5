package fetch

import (
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/urlget/urlget/internal/lockfile"
	"github.com/urlget/urlget/schemes"
)

// PartSuffix is appended to a download's final name for its work file:
// NAME.part holds the data until it is complete and checked, and is kept
// after a failure so that a later run with Resume continues it.
const PartSuffix = ".part"

// targetMode is where a download's bytes go.
type targetMode int

const (
	// intoPart: NAME.part, renamed to NAME when complete and checked.
	intoPart targetMode = iota
	// appendDest: NAME itself, a partial copy another tool left, which
	// the server continues (curl's -C -).
	appendDest
	// inPlace: a destination that is not a regular file (a device, a
	// FIFO, a terminal, /dev/stdout), written as it is.
	inPlace
)

// target is the destination of one Download and what it holds.
type target struct {
	mode targetMode
	dest string   // NAME, as the caller named it
	part string   // NAME.part
	as   string   // what NAME.part becomes instead of NAME: a name the server chose (DownloadOptions.ServerName)
	f    *os.File // the file written: NAME.part, NAME, or the in-place destination
	// lock is NAME.part, open and flocked for the whole download: the one
	// lock of the target, whatever file is written.
	lock    *os.File
	held    int64           // bytes of the resource the file holds
	base    int64           // appendDest: NAME's size before this run
	partial schemes.Partial // what is known of the bytes held, for the resume rule
	// stale: NAME.part holds an earlier run's bytes that this run does
	// not continue; they are dropped when the first byte arrives.
	stale   bool
	wrote   int64     // bytes this run wrote
	listing bool      // a listing was rendered into the file
	hint    string    // how to continue a kept partial copy (DownloadOptions.ContinueHint)
	hash    hash.Hash // inPlace: the bytes as they went out, when there is a checksum
	// spans are the ranges NAME.part holds when it is a segmented copy
	// (its record says so; held is their total), nil for a copy written
	// from its start; segs is how many connections made it.
	spans spans
	segs  int
	// ranged: the file is a byte range of the resource, which is no
	// partial copy a later run could continue: no record is stored, and
	// a failure drops what arrived.
	ranged bool
	// unstored: partial.Record is not on NAME.part yet (see record); a
	// failure that keeps bytes stores it.
	unstored bool
}

// openTarget classifies dest and opens what Download writes.
func (c *Client) openTarget(loc schemes.Locator, dest string, resume, partOnly bool, suffix string) (*target, error) {
	if suffix == "" {
		suffix = PartSuffix
	} else if suffix[0] != '.' || strings.ContainsRune(suffix, '/') {
		return nil, &schemes.Error{Scheme: loc.Generic().Scheme, Phase: "open", Kind: schemes.KindUsage, URL: loc.Redacted(),
			Msg: fmt.Sprintf("work file suffix %q: it must start with \".\" and hold no \"/\"", suffix)}
	}
	special, err := notRegular(dest)
	if err != nil {
		return nil, refusal(loc, dest, err)
	}
	if special {
		if resume {
			return nil, &schemes.Error{Scheme: loc.Generic().Scheme, Phase: "open", Kind: schemes.KindUsage, URL: loc.Redacted(),
				Msg: fmt.Sprintf("%s is not a regular file: it is written as it is, and there is nothing to continue (drop -C -)", dest)}
		}
		return openInPlace(loc, dest)
	}
	t := &target{mode: intoPart, dest: dest, part: dest + suffix}
	if t.lock, err = openPart(t.part); err != nil {
		return nil, refusal(loc, t.part, err)
	}
	t.f = t.lock
	st, err := t.f.Stat()
	if err != nil {
		return nil, t.fail(localError(loc, "open", err))
	}
	switch {
	case st.Size() > 0 && resume:
		t.held = st.Size()
		rec := readPartRecord(t.f)
		t.partial = schemes.Partial{ModTime: st.ModTime(), Work: true}
		if rec != nil {
			t.partial.Record = &rec.ResumeRecord
		}
		if rec != nil && rec.Segments > 0 {
			t.adoptSpans(rec, st.Size())
			c.notify("%s: resuming the %d bytes missing of %d (a copy made in segments)", t.part, rec.Size-t.held, rec.Size)
			break
		}
		c.notify("%s: resuming at byte %d", t.part, t.held)
	case st.Size() > 0:
		t.stale = true
		c.notify("found %s from an earlier run; starting over — use -C - to continue it", t.part)
	case resume && !partOnly:
		if err := c.adoptDest(t); err != nil {
			return nil, t.fail(refusal(loc, dest, err))
		}
	}
	// A file just opened is at its start: only a held copy needs the
	// seek (one call less a file, issue 36).
	if t.held > 0 {
		if _, err := t.f.Seek(t.held, io.SeekStart); err != nil {
			return nil, t.fail(localError(loc, "open", err))
		}
	}
	return t, nil
}

// adoptDest makes an existing, non-empty NAME the partial copy when there
// is no NAME.part (another tool's, as curl's -C - continues it): NAME is
// appended to in place if the server continues it, under the lock of
// NAME.part. NAME is opened read-write and positioned at its end rather
// than opened O_APPEND: splice(2) and copy_file_range(2) refuse O_APPEND
// files, and the lock already keeps other writers out.
func (c *Client) adoptDest(t *target) error {
	st, err := os.Lstat(t.dest)
	if err != nil || !st.Mode().IsRegular() || st.Size() == 0 {
		return nil // nothing to continue
	}
	f, err := openNoFollow(t.dest, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	if st, err = f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = errNotRegular
		}
		return err
	}
	t.mode, t.f = appendDest, f
	t.held, t.base = st.Size(), st.Size()
	t.partial = schemes.Partial{ModTime: st.ModTime()} // no record: not urlget's copy
	c.notify("%s: resuming at byte %d (no %s: continuing the file itself)", t.dest, t.held, filepath.Base(t.part))
	return nil
}

func openInPlace(loc schemes.Locator, dest string) (*target, error) {
	f, err := os.OpenFile(dest, os.O_WRONLY|oNoCTTY, 0)
	if err != nil {
		return nil, localError(loc, "open", err)
	}
	// A descriptor name (/dev/stdout) can lead to a regular file, the
	// shell's "> out" or ">> out": write after what it holds, so that
	// neither is overwritten from the start by a second description.
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		if _, err := f.Seek(0, io.SeekEnd); err != nil {
			f.Close()
			return nil, localError(loc, "open", err)
		}
	}
	return &target{mode: inPlace, dest: dest, f: f}, nil
}

var (
	errSymlink    = errors.New("is a symbolic link: urlget never writes through one")
	errNotRegular = errors.New("is not a regular file")
	errIsDir      = errors.New("is a directory")
	errInUse      = errors.New("is in use by another urlget")
)

// refusal turns the errors of opening a target into the kinds the rules
// give them: a symbolic link or a foreign file where urlget writes is
// KindSafety, a directory there is KindLocal (a local file that cannot
// be written, as curl's 23 has it), a target another run holds is
// KindUsage.
func refusal(loc schemes.Locator, name string, err error) error {
	kind := schemes.KindOther
	switch {
	case errors.Is(err, errSymlink), errors.Is(err, errNotRegular):
		kind = schemes.KindSafety
	case errors.Is(err, errIsDir):
		kind = schemes.KindLocal
	case errors.Is(err, errInUse):
		kind = schemes.KindUsage
	default:
		return localError(loc, "open", err)
	}
	return &schemes.Error{Scheme: loc.Generic().Scheme, Phase: "open", Kind: kind, URL: loc.Redacted(),
		Msg: name + " " + err.Error()}
}

// notRegular says whether dest is written in place: it exists and is
// (or is a symbolic link to) neither a regular file nor a directory, or it
// names a descriptor (/dev/stdout). It refuses a directory, and a
// symbolic link to a regular file or to nothing.
func notRegular(dest string) (bool, error) {
	st, err := os.Lstat(dest)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return false, err
	case st.Mode().IsRegular():
		return false, nil
	case st.IsDir():
		return false, errIsDir
	case st.Mode()&fs.ModeSymlink == 0:
		return true, nil // a device, FIFO or socket
	}
	to, err := os.Stat(dest)
	switch {
	case err == nil && to.IsDir():
		return false, errIsDir
	case namesDescriptor(dest):
		return true, nil
	case err == nil && !to.Mode().IsRegular():
		return true, nil
	}
	return false, errSymlink
}

// descriptorName matches the names of the open descriptors the system
// provides, which may lead to a regular file (the shell's redirection) and
// are still to be written as they are: they are the system's links, not
// ones planted in a directory.
var descriptorName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^/(dev/(std(in|out|err)|fd/[0-9]+)|proc/(self|thread-self|[0-9]+)/fd/[0-9]+)$`)
})

func namesDescriptor(name string) bool {
	return descriptorName().MatchString(filepath.Clean(name))
}

// openNoFollow opens name without following a symbolic link in its last
// component (oNoFollow; an Lstat check where the system lacks it).
func openNoFollow(name string, flag int, perm fs.FileMode) (*os.File, error) {
	if oNoFollow == 0 {
		if st, err := os.Lstat(name); err == nil && st.Mode()&fs.ModeSymlink != 0 {
			return nil, errSymlink
		}
	}
	f, err := openFile(name, flag|oNoFollow, perm)
	if err != nil {
		// ELOOP on Linux, EMLINK or EFTYPE elsewhere: ask the file system.
		if st, lerr := os.Lstat(name); lerr == nil && st.Mode()&fs.ModeSymlink != 0 {
			return nil, errSymlink
		}
		return nil, err
	}
	return f, nil
}

// openPart opens (creating it) and locks NAME.part. It must be a regular
// file with one link: a FIFO, device or hard link planted there is
// refused. After the lock is taken, the name must still lead to the file
// locked: the run that held it may have renamed it to NAME or removed it
// meanwhile, and then the lock is on the wrong file; open again.
func openPart(part string) (*os.File, error) {
	f, err := lockfile.Named(
		func() (*os.File, error) { return openNoFollow(part, os.O_RDWR|os.O_CREATE, 0o666) },
		func() (fs.FileInfo, error) { return os.Lstat(part) },
		func(st fs.FileInfo) error {
			if !st.Mode().IsRegular() || links(st) != 1 {
				return errNotRegular
			}
			return nil
		})
	if errors.Is(err, lockfile.ErrLocked) {
		err = errInUse
	}
	return f, err
}
