package fetch

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"time"

	"github.com/urlget/urlget/schemes"
)

// Interface guards: what FS's Open returns.
var (
	_ fs.ReadDirFile = (*fsDir)(nil)
	_ fs.File        = (*fsFile)(nil)
	_ io.ReadSeeker  = (*fsSeekFile)(nil)
	_ fs.FileInfo    = (*fsInfo)(nil)
)

// fsInfo is an fs.FileInfo of what a listing said of an entry.
type fsInfo struct {
	name  string
	entry schemes.Entry
}

// Name is the entry's name in the FS.
func (i *fsInfo) Name() string { return i.name }

// Size is the listed size: -1 unknown for a file, 0 unknown for a
// directory.
func (i *fsInfo) Size() int64 {
	if i.entry.Kind == schemes.EntryDir {
		return max(i.entry.Size, 0)
	}
	return i.entry.Size
}

// Mode is the kind with fixed permissions, which listings rarely tell.
func (i *fsInfo) Mode() fs.FileMode {
	switch i.entry.Kind {
	case schemes.EntryDir:
		return fs.ModeDir | 0o555
	case schemes.EntryLink:
		return fs.ModeSymlink | 0o777
	}
	return 0o444
}

// ModTime is the listed time, exact to the entry's Precision.
func (i *fsInfo) ModTime() time.Time { return i.entry.ModTime }

// IsDir says whether the entry is a directory.
func (i *fsInfo) IsDir() bool { return i.entry.Kind == schemes.EntryDir }

// Sys is the schemes.Entry.
func (i *fsInfo) Sys() any { return i.entry }

// fsDir is an open directory of an FS. Its entries are read at the
// first ReadDir.
type fsDir struct {
	fsys   *FS
	path   string
	node   fsNode
	kids   fsKids
	read   bool // kids was listed
	off    int
	closed bool
}

// Stat describes the directory.
func (d *fsDir) Stat() (fs.FileInfo, error) { return d.node.info(), nil }

// Read fails: a directory has no bytes.
func (d *fsDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.path, Err: errFSIsDir}
}

// Close ends the reading of the directory.
func (d *fsDir) Close() error { d.closed = true; return nil }

// ReadDir returns the next n entries (all that are left when n <= 0), as
// fs.ReadDirFile says.
func (d *fsDir) ReadDir(n int) ([]fs.DirEntry, error) {
	if d.closed {
		return nil, &fs.PathError{Op: "readdir", Path: d.path, Err: fs.ErrClosed}
	}
	if !d.read {
		kids, err := d.fsys.tree.children(d.fsys.ctx, d.fsys.c, d.node.entry.Locator)
		if err != nil {
			return nil, &fs.PathError{Op: "readdir", Path: d.path, Err: err}
		}
		d.kids, d.read = kids, true
	}
	rest := d.kids[d.off:]
	if n > 0 && len(rest) == 0 {
		return nil, io.EOF
	}
	if n > 0 && len(rest) > n {
		rest = rest[:n]
	}
	d.off += len(rest)
	return rest.dirEntries(), nil
}

// fsFile is an open file of an FS: the transfer of its body starts at the
// first Read, and starts again at the wanted offset after a Seek.
type fsFile struct {
	fsys *FS
	path string
	node fsNode

	body   io.ReadCloser
	br     *bufio.Reader // over body: small reads cost no system call each
	pos    int64         // the offset of the next byte of body
	off    int64         // the offset the next Read wants
	closed bool
}

// Stat describes the file as its directory listed it.
func (f *fsFile) Stat() (fs.FileInfo, error) { return f.node.info(), nil }

// Read reads the body, starting the transfer at the wanted offset first
// if none is under way there.
func (f *fsFile) Read(p []byte) (int, error) {
	if f.closed {
		return 0, &fs.PathError{Op: "read", Path: f.path, Err: fs.ErrClosed}
	}
	if f.body == nil || f.pos != f.off {
		if size := f.node.entry.Size; size >= 0 && f.off >= size {
			return 0, io.EOF // sought to the end: nothing to transfer
		}
		if err := f.start(); err != nil {
			return 0, fsPathError("read", f.path, err)
		}
	}
	n, err := f.br.Read(p)
	f.pos += int64(n)
	f.off += int64(n)
	return n, fsPathError("read", f.path, err)
}

// start (re)starts the transfer at f.off: resuming where the scheme
// Resumes (the listed size and time say the resource is unchanged),
// else from the start, reading up to f.off.
func (f *fsFile) start() error {
	f.stop()
	c, e := f.fsys.c, f.node.entry
	from := Request{URL: e.Locator, Exact: true, Listed: &e}
	if f.off > 0 && c.Caps(e.Locator).Has(schemes.Resumes) {
		from.Offset = f.off
		from.Partial.Record = &schemes.ResumeRecord{Size: e.Size}
		if e.Precision > 0 && e.Precision <= time.Second {
			// A listed time coarser than the server's own (FTP LIST's
			// day against MDTM's second) would read as a change, and
			// every seek would transfer the file from its start.
			from.Partial.Record.ModTime = e.ModTime
		}
	}
	resp, err := c.Do(f.fsys.ctx, &from)
	if err != nil {
		return err
	}
	if resp.Body == nil {
		resp.Close()
		return errFSIsDir
	}
	f.body, f.pos = resp.Body, resp.Offset
	if f.br == nil {
		f.br = bufio.NewReaderSize(resp.Body, 32<<10)
	} else {
		f.br.Reset(resp.Body)
	}
	if skip := f.off - f.pos; skip > 0 {
		n, err := io.CopyN(io.Discard, f.br, skip)
		f.pos += n
		if errors.Is(err, io.EOF) {
			return io.EOF // shorter than listed
		}
		return err
	}
	return nil
}

// stop ends the transfer under way, if any: closing the body stops it
// and gives the connection back.
func (f *fsFile) stop() {
	if f.body != nil {
		f.body.Close()
		f.body = nil
	}
}

// Close stops the transfer.
func (f *fsFile) Close() error {
	f.stop()
	f.closed = true
	return nil
}

// fsSeekFile is an fsFile whose size is known, so that it can Seek
// (relative to its end too).
type fsSeekFile struct{ *fsFile }

// Seek sets the offset of the next Read; the transfer starts again there
// when that Read comes.
func (f *fsSeekFile) Seek(offset int64, whence int) (int64, error) {
	if f.closed {
		return 0, &fs.PathError{Op: "seek", Path: f.path, Err: fs.ErrClosed}
	}
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += f.off
	case io.SeekEnd:
		offset += f.node.entry.Size
	default:
		return 0, &fs.PathError{Op: "seek", Path: f.path, Err: fs.ErrInvalid}
	}
	if offset < 0 {
		return 0, &fs.PathError{Op: "seek", Path: f.path, Err: fs.ErrInvalid}
	}
	f.off = offset
	return offset, nil
}
