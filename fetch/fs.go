package fetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// FS is a read-only io/fs view of a remote tree: an FTP or FTPS
// directory, a local file: directory, an HTTP(S) server's index pages, a
// gopher menu, a Prospero directory, a gemini capsule — whatever a
// scheme whose Caps say Lists serves. Client.FS makes one. It implements fs.FS, fs.ReadDirFS,
// fs.StatFS, fs.ReadFileFS and fs.ReadLinkFS, so fs.WalkDir,
// http.FileServer(http.FS(fsys)), template.ParseFS, testing/fstest.TestFS
// and every other consumer of io/fs work on it. It is safe for concurrent
// use.
//
// Names. A directory of the FS is a listing (Client.Do with MethodList) of the
// URL the path leads to; its entries are named by their Entry.Name (the
// protocol's own name: an FTP file name; for gopher, the selector's last
// segment as the server spells it; for an index page, the link's last
// path segment, decoded), else by their Locator's LocalName. A listing's
// entries that could not be an fs path element are left out: a name that
// is empty, ".", "..", or holds "/" or "\" (a separator somewhere); so
// are entries that name no file, directory or link (gopher info lines and
// search items, telnet items, listing lines no parser understood) and
// entries without a URL. When two entries of one listing have one name,
// the first is kept. Where a scheme's containers are documents of links
// that may point anywhere (Caps Crawls: index pages, gopher menus, gemini
// pages), an entry is in the directory only when its URL lies one path
// segment below the directory's own, on the same server: a menu's link to
// its parent, to a deeper item or to another server is not part of the
// tree. A gemini capsule's directories are its pages whose URL ends in
// "/" (the links its listing calls directories); its other pages, links
// and all, are files.
//
// Entries. ReadDir lists a directory sorted by name; an entry's Info is
// what the listing said: IsDir and fs.ModeDir for directories,
// fs.ModeSymlink for symbolic links, permission bits 0555 (directories),
// 0444 (files) or 0777 (links) since listings rarely tell them, Size in
// bytes (-1 when the listing does not tell: gopher menus; 0 for a
// directory), and ModTime with the listing's precision: FTP MLSD to the
// second, FTP LIST to the minute for the last six months and to the day
// before, file: as the local file system keeps it, an nginx or Apache
// index page to the minute, gopher menus none (zero), Prospero what its
// attributes say. Sys returns the schemes.Entry itself (Precision, Title,
// Extra). Stat and Open follow a symbolic link through the server (the
// scheme's Stat, where its Caps say Stats, tells what it points to);
// Lstat and ReadLink do not.
//
// Files. Open of a file checks that its directory lists it; the transfer
// starts at the first Read, so an error of the transfer (a permission
// refused on RETR) comes from Read. Read streams the body; Close stops the
// transfer and gives the connection back to the Client's pool. A file
// whose size is known also has Seek: seeking and reading starts the
// transfer again at the new offset (resuming where the scheme Resumes,
// else reading up to it), which is what http.FileServer needs for
// sniffing a content type and for Range requests. Open of a directory
// gives an fs.ReadDirFile.
//
// Errors are *fs.PathError values whose Err is fs.ErrInvalid for a name
// that is not a valid path (fs.ValidPath) or a directory read as a file,
// fs.ErrNotExist for a name the listing lacks, and otherwise the Client's
// *schemes.Error, which errors.Is matches to fs.ErrNotExist (KindNotFound)
// and fs.ErrPermission (KindPermission).
//
// Snapshot. The FS reads each directory's listing once and keeps it
// while it lives, up to 65536 entries in all (the directories used least
// recently are dropped first, and a listing larger than that is read
// again each time it is needed), so that repeated lookups (fstest reads
// everything several times, a path's every parent is looked up) cost no
// round trip, while memory stays bounded; changes on the server after a
// directory was read may not be seen: make a new FS for a fresh view. A
// listing of more than 262144 entries fails (KindSafety), whatever a
// server sends.
type FS struct {
	c    *Client
	ctx  context.Context
	root fsNode
	tree *fsTree
}

// Interface guards: the io/fs interfaces FS promises.
var (
	_ fs.FS         = (*FS)(nil)
	_ fs.ReadDirFS  = (*FS)(nil)
	_ fs.StatFS     = (*FS)(nil)
	_ fs.ReadFileFS = (*FS)(nil)
	_ fs.ReadLinkFS = (*FS)(nil)
)

// FS returns an io/fs view of the directory rawURL designates (see FS for
// what it holds), for a scheme whose Caps say it Lists; a URL of another
// scheme fails with KindUnsupported before any I/O. FS lists the directory
// at once, so that a URL that names no directory, or cannot be read, fails
// here.
//
// Every operation of the FS (its listings, Stat, Open and every Read of
// an open file) runs under ctx, which the FS holds: io/fs's methods take
// no context, so the one given here is the only way to bound or cancel
// them. Cancelling ctx ends every operation of the FS at once, those in
// progress and those to come; give a ctx that lives as long as the FS is
// used (the Client's MaxTime still bounds each transfer).
func (c *Client) FS(ctx context.Context, rawURL string) (*FS, error) {
	loc, err := c.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	if !c.Caps(loc).Has(schemes.Lists) {
		g := loc.Generic()
		return nil, &schemes.Error{Scheme: g.Scheme, Phase: "fs", Kind: schemes.KindUnsupported, URL: loc.Redacted(),
			Msg: fmt.Sprintf("%s: URLs cannot be listed, so they have no file system view", g.Scheme)}
	}
	f := &FS{c: c, ctx: ctx, tree: newFSTree()}
	// The root's listing tells whether the URL is a directory at all,
	// and (after redirects: an index page's "/pub" to "/pub/") which URL
	// its entries are below.
	if _, err := f.tree.children(ctx, c, loc); err != nil {
		return nil, err
	}
	f.root = fsNode{name: ".", entry: schemes.Entry{Kind: schemes.EntryDir, Size: -1, Locator: loc}}
	return f, nil
}

// fsNode is a name of the FS resolved to the entry its directory listed.
type fsNode struct {
	name  string // the last element of the path, "." for the root
	entry schemes.Entry
}

func (n fsNode) isDir() bool { return n.entry.Kind == schemes.EntryDir }

func (n fsNode) info() fs.FileInfo { return &fsInfo{name: n.name, entry: n.entry} }

// resolve walks name from the root through the directories' listings.
// A symbolic link on the way is followed; the last element is followed
// only if follow is set.
func (f *FS) resolve(op, name string, follow bool) (fsNode, error) {
	if !fs.ValidPath(name) {
		return fsNode{}, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	n := f.root
	if name == "." {
		return n, nil
	}
	elems := strings.Split(name, "/")
	for i, el := range elems {
		last := i == len(elems)-1
		kids, err := f.tree.children(f.ctx, f.c, n.entry.Locator)
		if err != nil {
			return fsNode{}, &fs.PathError{Op: op, Path: name, Err: err}
		}
		k := kids.find(el)
		if k == nil {
			return fsNode{}, &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
		}
		n = fsNode{name: el, entry: k.entry}
		if k.entry.Kind == schemes.EntryLink && (follow || !last) {
			e, err := f.tree.follow(f.ctx, f.c, k)
			if err != nil {
				return fsNode{}, &fs.PathError{Op: op, Path: name, Err: err}
			}
			n.entry = e
		}
		if !last && !n.isDir() {
			return fsNode{}, &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
		}
	}
	return n, nil
}

// Open opens the named file or directory (see FS): a directory is an
// fs.ReadDirFile, a file streams its body from the first Read.
func (f *FS) Open(name string) (fs.File, error) {
	n, err := f.resolve("open", name, true)
	if err != nil {
		return nil, err
	}
	if n.isDir() {
		return &fsDir{fsys: f, path: name, node: n}, nil
	}
	file := &fsFile{fsys: f, path: name, node: n}
	if n.entry.Size >= 0 {
		return &fsSeekFile{file}, nil
	}
	return file, nil
}

// Stat describes the named file from its directory's listing, following
// a symbolic link.
func (f *FS) Stat(name string) (fs.FileInfo, error) {
	n, err := f.resolve("stat", name, true)
	if err != nil {
		return nil, err
	}
	return n.info(), nil
}

// Lstat describes the named file from its directory's listing; a
// symbolic link is described, not followed.
func (f *FS) Lstat(name string) (fs.FileInfo, error) {
	n, err := f.resolve("lstat", name, false)
	if err != nil {
		return nil, err
	}
	return n.info(), nil
}

// ReadLink returns where the named symbolic link points, as the server
// showed it (it may lie outside the FS, or anywhere on the server).
func (f *FS) ReadLink(name string) (string, error) {
	n, err := f.resolve("readlink", name, false)
	if err != nil {
		return "", err
	}
	if n.entry.Kind != schemes.EntryLink || n.entry.Target == "" {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: fs.ErrInvalid}
	}
	return n.entry.Target, nil
}

// ReadDir lists the named directory, sorted by name.
func (f *FS) ReadDir(name string) ([]fs.DirEntry, error) {
	n, err := f.resolve("readdir", name, true)
	if err != nil {
		return nil, err
	}
	if !n.isDir() {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: errFSNotDir}
	}
	kids, err := f.tree.children(f.ctx, f.c, n.entry.Locator)
	if err != nil {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: err}
	}
	return kids.dirEntries(), nil
}

// ReadFile retrieves the named file whole.
func (f *FS) ReadFile(name string) ([]byte, error) {
	n, err := f.resolve("read", name, true)
	if err != nil {
		return nil, err
	}
	if n.isDir() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errFSIsDir}
	}
	file := &fsFile{fsys: f, path: name, node: n}
	defer file.Close()
	var b bytes.Buffer
	// The listed size is a hint, not a promise: no more than a MiB is
	// set aside for it before the bytes arrive.
	b.Grow(int(min(max(n.entry.Size, 0), 1<<20)) + bytes.MinRead)
	if _, err := b.ReadFrom(file); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// errFSIsDir and errFSNotDir are the causes of a directory read as a file and
// of a file listed as a directory: fs.ErrInvalid, in words.
var (
	errFSIsDir  = fmt.Errorf("is a directory: %w", fs.ErrInvalid)
	errFSNotDir = fmt.Errorf("not a directory: %w", fs.ErrInvalid)
)

// fsPathError wraps err (a transfer's) as a *fs.PathError of op on path,
// leaving io.EOF as it is.
func fsPathError(op, path string, err error) error {
	if err == nil || err == io.EOF {
		return err
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return err
	}
	return &fs.PathError{Op: op, Path: path, Err: err}
}
