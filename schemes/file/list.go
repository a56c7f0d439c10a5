package file

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/urlget/urlget/schemes"
)

// readDirBatch is how many names one read of a directory returns: a
// directory of millions of names is streamed, never held whole.
const readDirBatch = 256

// timePrecision is the Precision of the times this package reports. The
// file system's times are read as they are kept, to the nanosecond where
// it keeps nanoseconds (ext4, XFS, APFS, NTFS in 100 ns); one that keeps
// less (FAT's 2 s, ext3's 1 s) gives times already truncated, which still
// compare equal to themselves, and every comparison of times (Entry's
// SameTime, the resume rule) is at least a second coarse anyway.
const timePrecision = time.Nanosecond

// directory answers a fetch or list of the directory f names, whose open
// file is dir: a Response whose Listing streams the entries, in the order
// the file system returns them (callers sort), and that owns dir.
func directory(ctx context.Context, f *URL, dir *os.File, fi fs.FileInfo) *schemes.Response {
	return &schemes.Response{
		Listing:   listing(ctx, f, dir),
		Kind:      schemes.EntryDir,
		Size:      -1,
		ModTime:   fi.ModTime(),
		Precision: timePrecision,
		Name:      baseName(f.Path),
	}
}

// listing streams the entries of the directory f, open as dir, reading
// readDirBatch names at a time. Entries describe the directory items
// themselves (lstat), so that a symbolic link is EntryLink with its Target
// rather than whatever it points to. Closing the listing closes dir.
func listing(ctx context.Context, f *URL, dir *os.File) schemes.Listing {
	dirPath := strings.TrimSuffix(f.Path, "/")
	var batch []os.DirEntry
	var readErr error // what ended the last read, for after its entries
	next := func() (schemes.Entry, error) {
		if err := ctx.Err(); err != nil {
			return schemes.Entry{}, ctxError(f, "readdir", err)
		}
		for len(batch) == 0 {
			if readErr != nil {
				if errors.Is(readErr, io.EOF) {
					return schemes.Entry{}, io.EOF
				}
				return schemes.Entry{}, fsError(f, "readdir", readErr)
			}
			batch, readErr = dir.ReadDir(readDirBatch)
		}
		de := batch[0]
		batch = batch[1:]
		return entry(f.Host, dirPath+"/"+de.Name(), de), nil
	}
	return schemes.ListingFunc(next, dir.Close)
}

// entry describes the directory item de, whose full path is full. An item
// removed while the directory is listed keeps its name, of kind unknown.
func entry(host, full string, de os.DirEntry) schemes.Entry {
	e := schemes.Entry{Kind: schemes.EntryUnknown, Size: -1}
	e.SetName(de.Name())
	if info, err := de.Info(); err == nil {
		e.Kind, e.Size = kindOf(info)
		e.ModTime, e.Precision = info.ModTime(), timePrecision
		if e.Kind == schemes.EntryLink {
			e.Target, _ = os.Readlink(full)
		}
	}
	if e.Kind == schemes.EntryDir {
		full += "/"
	}
	e.Locator = newURL(host, full, nil)
	return e
}

// kindOf is what fi's mode says the item is, with its size when it has a
// meaningful one (regular files; -1 otherwise). Devices, FIFOs and sockets
// are EntryUnknown: they hold no document (Fetch refuses them) and are no
// container.
func kindOf(fi fs.FileInfo) (schemes.EntryKind, int64) {
	switch m := fi.Mode(); {
	case m.IsRegular():
		return schemes.EntryFile, fi.Size()
	case m.IsDir():
		return schemes.EntryDir, -1
	case m&fs.ModeSymlink != 0:
		return schemes.EntryLink, -1
	}
	return schemes.EntryUnknown, -1
}
