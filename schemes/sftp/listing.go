package sftp

import (
	"context"
	"io/fs"
	"path"

	"github.com/urlget/urlget/schemes"
)

// listDir reads the directory at p (SSH_FXP_READDIR until the server
// says there is no more) and lists its entries in the server's order,
// without "." and "..". The session goes back to the pool once it is
// read: the entries hold nothing of it.
//
// Unlike the other schemes' listings (schemes.Listing: parsed as they
// arrive, never held whole), this one is read whole before its first
// entry is given: pkg/sftp v1.13.12 reads a directory only through
// Client.ReadDir/ReadDirContext, which collect every entry (its opendir
// and the READDIR exchange are unexported, and a *sftp.File has no
// ReadDir). So the bounds of the callers — an FS's entries per
// directory, a mirror's MaxEntries — cut what they take from the
// listing, not what is held while it is read; a streaming READDIR needs
// a client library that offers one.
func (h *Handler) listDir(ctx context.Context, s *session, loc *URL, p string) (*schemes.Response, error) {
	s.tr.Sent("READDIR " + p)
	infos, err := s.sftp.ReadDirContext(ctx, p)
	if err != nil {
		return nil, opError(loc, "list", p, err)
	}
	entries := make([]schemes.Entry, 0, len(infos))
	for _, fi := range infos {
		name := fi.Name()
		if name == "." || name == ".." {
			continue
		}
		e := entryOf(loc, name, fi)
		if e.Kind == schemes.EntryLink {
			if t, err := s.sftp.ReadLink(path.Join(p, name)); err == nil {
				e.Target = t
			}
		}
		entries = append(entries, e)
	}
	s.tr.Received("READDIR: " + itoa(len(entries)) + " entries")
	s.release()
	return &schemes.Response{Listing: schemes.ListingOf(entries), Kind: schemes.EntryDir, Size: -1}, nil
}

// entryOf is the entry of name, as fi describes it, in the directory
// loc names: its kind, size (-1 for a directory), time (to the second)
// and permissions (Extra "mode", as ls -l writes them).
func entryOf(loc *URL, name string, fi fs.FileInfo) schemes.Entry {
	e := schemes.Entry{Kind: schemes.EntryFile, Size: fi.Size(), ModTime: fi.ModTime(), Precision: precision}
	switch m := fi.Mode(); {
	case m.IsDir():
		e.Kind, e.Size = schemes.EntryDir, -1
	case m&fs.ModeSymlink != 0:
		e.Kind = schemes.EntryLink
	case !m.IsRegular():
		e.Kind = schemes.EntryUnknown
	}
	if e.ModTime.IsZero() {
		e.Precision = 0
	}
	e.SetName(name)
	if e.Name == "" {
		e.Title = name
	}
	e.Locator = loc.child(name, e.Kind == schemes.EntryDir)
	e.Extra.Set("mode", fi.Mode().String())
	return e
}
