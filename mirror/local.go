package mirror

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/urlget/urlget/internal/lockfile"
	"github.com/urlget/urlget/schemes"
)

// local is the destination tree, reached only through an os.Root: a name
// cannot lead outside it, and a symbolic link inside it is never
// written through (a directory on the way that is a link is refused).
type local struct {
	top      string // the destination as the caller named it
	root     *os.Root
	lock     *os.File
	lockName string // LockName, or a shard's (ShardLockName)

	mu   sync.Mutex
	made map[string]bool // directories known to be real directories
}

// errInUse is openLocal's error when another run holds the destination.
var errInUse = errors.New("is in use by another urlget mirror")

// openLocal opens (creating it if need be) the destination directory and
// takes its lock, the file lockName in it: a second run into it fails at
// once.
func openLocal(top, lockName string) (*local, error) {
	if fi, err := os.Lstat(top); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		// The top is the caller's to choose; a link there is followed
		// as they named it. Below it nothing is.
	} else if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(top, 0o755); err != nil {
			return nil, err
		}
	} else if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(top)
	if err != nil {
		return nil, err
	}
	lock, err := takeLock(root, lockName)
	if err != nil {
		root.Close()
		if errors.Is(err, lockfile.ErrLocked) {
			return nil, fmt.Errorf("%s %w (%s is locked)", top, errInUse, lockName)
		}
		return nil, fmt.Errorf("lock %s: %w", filepath.Join(top, lockName), err)
	}
	l := &local{top: top, root: root, lock: lock, lockName: lockName, made: map[string]bool{"": true}}
	if other := l.otherRun(); other != "" {
		l.close()
		return nil, fmt.Errorf("%s %w (%s is locked: an unsplit run, or a shard of another split)", top, errInUse, other)
	}
	return l, nil
}

// takeLock opens (creating it) and locks the file name in root. A run removes
// its lock file as it ends (close), so the file locked may have lost its
// name meanwhile — unlinked by the run that held it, perhaps replaced by a
// third run's: once locked, the name must still lead to the file locked,
// else the lock guards nothing and the open is tried again.
func takeLock(root *os.Root, name string) (*os.File, error) {
	return lockfile.Named(
		func() (*os.File, error) { return root.OpenFile(name, os.O_RDWR|os.O_CREATE|noFollow, 0o644) },
		func() (fs.FileInfo, error) { return root.Lstat(name) },
		nil)
}

// otherRun is the lock file of a run that must not write the directory
// beside this one, held now, or "": an unsplit run's and a shard's
// exclude each other, and so do shards of different counts (their
// shares overlap); the shards of one split (I-of-N, one N) do not. Each
// run looks after taking its own lock, so of two that start together the
// later to look sees the other. A lock file no run holds (a crashed
// run's) is locked for a moment and let go; a run taking that very file
// then may find it held, and fails at once as for any run in the way.
// The top directory is read a few entries at a time: it may be large.
func (l *local) otherRun() string {
	d, err := l.root.Open(".")
	if err != nil {
		return ""
	}
	defer d.Close()
	for {
		names, err := d.Readdirnames(256)
		for _, name := range names {
			if name != LockName && !strings.HasPrefix(name, LockName+".") || name == l.lockName || sameSplit(name, l.lockName) {
				continue
			}
			f, err := l.root.OpenFile(name, os.O_RDONLY|noFollow, 0)
			if err != nil {
				continue // gone meanwhile, or no file
			}
			err = lockfile.Lock(f)
			f.Close()
			if errors.Is(err, lockfile.ErrLocked) {
				return name
			}
		}
		if err != nil || len(names) == 0 {
			return ""
		}
	}
}

// sameSplit says whether the lock files a and b are those of two shards
// of one split (LockName.I-of-N, one N).
func sameSplit(a, b string) bool {
	count := func(name string) string {
		if !strings.HasPrefix(name, LockName+".") {
			return ""
		}
		_, n, _ := strings.Cut(name, "-of-")
		return n
	}
	return count(a) != "" && count(a) == count(b)
}

// close removes the lock file and releases the lock and the root: a run
// leaves no file of its own behind. The name goes while the lock is still
// held, so that a run that opened the file before can tell, once it has
// the lock, that it locked a file no longer named (takeLock).
func (l *local) close() {
	l.root.Remove(l.lockName)
	l.lock.Close()
	l.root.Close()
}

// path is the name of rel for the fetch Client, which opens the file
// itself (with O_NOFOLLOW on its last component); ensureDir has checked
// every directory on the way.
func (l *local) path(rel string) string { return filepath.Join(l.top, filepath.FromSlash(rel)) }

// ensureDir makes the directory rel and those above it, each a real
// directory: a symbolic link or a file in the way is an error, never
// followed or replaced.
func (l *local) ensureDir(rel string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.ensureDirLocked(rel)
}

func (l *local) ensureDirLocked(rel string) error {
	if l.made[rel] {
		return nil
	}
	if err := l.ensureDirLocked(dir(rel)); err != nil {
		return err
	}
	err := l.root.Mkdir(rel, 0o755)
	if err != nil && !errors.Is(err, fs.ErrExist) {
		return localFailure("cannot make the local directory "+rel, err)
	}
	fi, err := l.root.Lstat(rel)
	if err != nil {
		return localFailure("cannot make the local directory "+rel, err)
	}
	if !fi.IsDir() {
		return localFailure(fmt.Sprintf("%s is in the way: it is a %s, not a directory (not followed, not replaced)", rel, kindOf(fi)), nil)
	}
	l.made[rel] = true
	return nil
}

// localFailure is a file or directory of the local tree that cannot be
// read, made or removed (what says which, and why when err is nil):
// KindLocal, exit 23, for it is the destination's doing, never the
// server's. err stays in the chain, and reads as the system's reason
// alone, what naming the path.
func localFailure(what string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = schemes.Reason(pe.Err.Error(), err)
	}
	return &schemes.Error{Phase: "local", Kind: schemes.KindLocal, Msg: what, Err: err}
}

// kindOf names what fi is, for messages.
func kindOf(fi fs.FileInfo) string {
	switch m := fi.Mode(); {
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m.IsDir():
		return "directory"
	case m.IsRegular():
		return "file"
	}
	return "special file"
}

// removeWork removes the work file of rel, if there is one and it is a
// regular file.
func (l *local) removeWork(rel string) {
	if fi, err := l.root.Lstat(rel + WorkSuffix); err == nil && fi.Mode().IsRegular() {
		l.root.Remove(rel + WorkSuffix)
	}
}

// stat describes rel without following a link.
func (l *local) stat(rel string) (fs.FileInfo, error) { return l.root.Lstat(rel) }

// names lists the directory rel, in no particular order; nil when it does
// not exist.
func (l *local) names(rel string) ([]fs.FileInfo, error) {
	name := rel
	if name == "" {
		name = "."
	}
	f, err := l.root.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var all []fs.FileInfo
	for {
		des, err := f.ReadDir(256)
		for _, de := range des {
			if fi, err := de.Info(); err == nil {
				all = append(all, fi)
			}
		}
		if err == io.EOF || len(des) == 0 {
			return all, nil
		}
		if err != nil {
			return all, err
		}
	}
}

// sameContent says whether the files a and b hold the same bytes.
func (l *local) sameContent(a, b string) (bool, error) {
	fa, err := l.root.Open(a)
	if err != nil {
		return false, err
	}
	defer fa.Close()
	fb, err := l.root.Open(b)
	if err != nil {
		return false, err
	}
	defer fb.Close()
	sa, err := fa.Stat()
	if err != nil {
		return false, err
	}
	sb, err := fb.Stat()
	if err != nil {
		return false, err
	}
	if sa.Size() != sb.Size() {
		return false, nil
	}
	// Same size: compare block by block, to the end of either.
	ba, bb := make([]byte, 64<<10), make([]byte, 64<<10)
	for {
		na, ea := io.ReadFull(fa, ba)
		nb, eb := io.ReadFull(fb, bb)
		if na != nb || !bytes.Equal(ba[:na], bb[:nb]) {
			return false, nil
		}
		if ea != nil || eb != nil {
			if done(ea) && done(eb) {
				return true, nil
			}
			return false, errors.Join(notDone(ea), notDone(eb))
		}
	}
}

// done says whether err from io.ReadFull means the file ended.
func done(err error) bool { return err == io.EOF || err == io.ErrUnexpectedEOF }

// notDone is err unless it means the file ended.
func notDone(err error) error {
	if done(err) {
		return nil
	}
	return err
}
