package file

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

func TestStat(t *testing.T) {
	dir := t.TempDir()
	mt := time.Date(2019, 8, 7, 6, 5, 4, 321, time.UTC)
	f := filepath.Join(dir, "f.txt")
	os.WriteFile(f, []byte("12345"), 0o644)
	os.Chtimes(f, mt, mt)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	os.Symlink("f.txt", filepath.Join(dir, "link"))
	os.Symlink("sub", filepath.Join(dir, "dirlink"))
	sock := filepath.Join(dir, "sock")
	if ln, err := net.Listen("unix", sock); err == nil {
		defer ln.Close()
	} else {
		sock = ""
	}
	for _, c := range []struct {
		path string
		kind schemes.EntryKind
		size int64
		name string
	}{
		{"/f.txt", schemes.EntryFile, 5, "f.txt"},
		{"/sub", schemes.EntryDir, -1, "sub"},
		{"/sub/", schemes.EntryDir, -1, "sub"},
		{"/link", schemes.EntryLink, -1, "link"},
		{"/dirlink/", schemes.EntryDir, -1, "dirlink"}, // a trailing "/" follows the link
		{"/sock", schemes.EntryUnknown, -1, "sock"},
	} {
		if c.path == "/sock" && sock == "" {
			continue // no Unix sockets here
		}
		req, _ := request(t, fileURL(dir)+c.path)
		r, err := (&Handler{}).Stat(context.Background(), req)
		if err != nil {
			t.Errorf("%s: %v", c.path, err)
			continue
		}
		if r.Kind != c.kind || r.Size != c.size || r.Name != c.name || r.ModTime.IsZero() || r.Precision != time.Nanosecond ||
			r.Body != nil || r.Listing != nil {
			t.Errorf("%s: Stat = %+v, want kind %v size %d name %q", c.path, r, c.kind, c.size, c.name)
		}
		if c.path == "/f.txt" && !r.ModTime.Equal(mt) {
			t.Errorf("%s: ModTime %v, want %v to the nanosecond", c.path, r.ModTime, mt)
		}
	}
	req, _ := request(t, fileURL(dir)+"/missing")
	if _, err := (&Handler{}).Stat(context.Background(), req); schemes.KindOf(err) != schemes.KindNotFound {
		t.Errorf("Stat(missing) = %v, want KindNotFound", err)
	}
}
