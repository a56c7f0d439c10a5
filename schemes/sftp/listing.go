package sftp

import (
	"context"
	"io"
	"io/fs"
	"path"

	"github.com/urlget/urlget/schemes"
)

// listDir lists the directory at p in the server's order, without "."
// and "..", as the names arrive: over the session's directory channel
// (dirchan.go), with READDIRs sent ahead, so that a listing of any
// length is never held whole, and its end is seen without a round trip
// of its own. The listing holds the session until it is closed. A server
// that will not open a second sftp channel (sshd's MaxSessions 1) is
// read through pkg/sftp instead, whole (listWhole).
func (h *Handler) listDir(ctx context.Context, s *session, loc *URL, p string) (*schemes.Response, error) {
	s.tr.Sent("READDIR " + p)
	if s.dirs == nil && !s.noDirs {
		d, err := openDirChannel(s.ssh)
		if err != nil {
			if !s.alive() || ctx.Err() != nil {
				return nil, listError(ctx, s, loc, p, err)
			}
			s.tr.Info("no second sftp channel (" + err.Error() + "): directories are read whole")
			s.noDirs = true
		}
		s.dirs = d
	}
	if s.noDirs {
		return h.listWhole(ctx, s, loc, p)
	}
	r, err := s.dirs.readDir(p)
	if err != nil {
		return nil, listError(ctx, s, loc, p, err)
	}
	n := 0
	next := func() (schemes.Entry, error) {
		for {
			fi, err := r.next()
			if err == io.EOF {
				s.tr.Received("READDIR: " + itoa(n) + " entries")
				return schemes.Entry{}, io.EOF
			}
			if err != nil {
				return schemes.Entry{}, listError(ctx, s, loc, p, err)
			}
			if fi.name == "." || fi.name == ".." {
				continue
			}
			n++
			return h.entry(s, loc, p, fi), nil
		}
	}
	done := func() error {
		r.close()
		s.dropBrokenDirs()
		s.release()
		return nil
	}
	return &schemes.Response{Listing: schemes.ListingFunc(next, done), Kind: schemes.EntryDir, Size: -1}, nil
}

// listError maps a listing's failure; a directory channel out of step is
// closed (the next listing opens another).
func listError(ctx context.Context, s *session, loc *URL, p string, err error) error {
	s.dropBrokenDirs()
	if ctx.Err() != nil {
		return schemes.IOError(loc.u.Scheme, "list", ctx.Err())
	}
	return opError(loc, "list", p, err)
}

// listWhole reads the directory at p through pkg/sftp, whose
// Client.ReadDirContext collects every name before the first is given
// (its opendir and READDIR are unexported), and gives the session back
// once it is read.
func (h *Handler) listWhole(ctx context.Context, s *session, loc *URL, p string) (*schemes.Response, error) {
	infos, err := s.sftp.ReadDirContext(ctx, p)
	if err != nil {
		return nil, opError(loc, "list", p, err)
	}
	entries := make([]schemes.Entry, 0, len(infos))
	for _, fi := range infos {
		if name := fi.Name(); name != "." && name != ".." {
			entries = append(entries, h.entry(s, loc, p, fi))
		}
	}
	s.tr.Received("READDIR: " + itoa(len(entries)) + " entries")
	s.release()
	return &schemes.Response{Listing: schemes.ListingOf(entries), Kind: schemes.EntryDir, Size: -1}, nil
}

// entry is the entry of fi in the directory p; a symbolic link's target
// is asked for (READLINK).
func (h *Handler) entry(s *session, loc *URL, p string, fi fs.FileInfo) schemes.Entry {
	e := entryOf(loc, fi.Name(), fi)
	if e.Kind == schemes.EntryLink {
		if t, err := s.sftp.ReadLink(path.Join(p, fi.Name())); err == nil {
			e.Target = t
		}
	}
	return e
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
