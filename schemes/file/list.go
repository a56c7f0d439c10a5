package file

import (
	"context"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// directory answers a fetch of a directory: its entries, and as Body the
// listing rendered one name a line, directories with a trailing "/".
func (h *Handler) directory(ctx context.Context, f *URL, fi fs.FileInfo) (*schemes.Response, error) {
	entries, err := readDir(ctx, f)
	if err != nil {
		return nil, err
	}
	text := render(entries)
	return &schemes.Response{
		Body:    io.NopCloser(strings.NewReader(text)),
		Size:    int64(len(text)),
		Type:    "text/plain; charset=utf-8",
		ModTime: fi.ModTime(),
		Name:    baseName(f.Path),
		Entries: entries,
	}, nil
}

// readDir lists the directory f names. Entries describe the directory
// items themselves (lstat), so a symbolic link is EntryLink with its Target
// rather than whatever it points to. Sizes are known for regular files
// only; -1 otherwise.
func readDir(ctx context.Context, f *URL) ([]schemes.Entry, error) {
	des, err := os.ReadDir(f.Path) // sorted by name
	if err != nil {
		return nil, fsError(f, "readdir", err)
	}
	dirPath := strings.TrimSuffix(f.Path, "/")
	entries := make([]schemes.Entry, 0, len(des))
	for _, de := range des {
		if err := ctx.Err(); err != nil {
			return nil, ctxError(f, "readdir", err)
		}
		e := schemes.Entry{Name: de.Name(), Kind: schemes.EntryOther, Size: -1}
		full := dirPath + "/" + de.Name()
		if info, err := de.Info(); err == nil {
			e.ModTime = info.ModTime()
			switch mode := info.Mode(); {
			case mode.IsRegular():
				e.Kind, e.Size = schemes.EntryFile, info.Size()
			case mode.IsDir():
				e.Kind = schemes.EntryDir
			case mode&fs.ModeSymlink != 0:
				e.Kind = schemes.EntryLink
				e.Target, _ = os.Readlink(full)
			}
		} // else: removed while we listed it; keep the name, kind "other"
		item := &URL{Host: f.Host, Path: full}
		if e.Kind == schemes.EntryDir {
			item.Path += "/"
		}
		item.g = schemes.URL{Scheme: "file", Authority: true, Host: f.Host, HasPath: true, Path: escapePath(item.Path)}
		e.URL = item.g.String()
		entries = append(entries, e)
	}
	return entries, nil
}

// render writes one name a line, directories with a trailing "/". Control
// characters in names become "?" (as ls does on a terminal) so that a name
// holding a newline cannot pose as two entries; Entries keep the real names.
func render(entries []schemes.Entry) string {
	var b strings.Builder
	for _, e := range entries {
		for i := 0; i < len(e.Name); i++ {
			c := e.Name[i]
			if c < 0x20 || c == 0x7F {
				c = '?'
			}
			b.WriteByte(c)
		}
		if e.Kind == schemes.EntryDir {
			b.WriteByte('/')
		}
		b.WriteByte('\n')
	}
	return b.String()
}
