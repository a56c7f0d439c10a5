package file

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

// TestResume runs the one resume rule on a file whose mtime is old (2020)
// and whose ctime is now, as for a file just unpacked or replaced with its
// old time: continuing needs a partial copy made after the ctime.
func TestResume(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	os.WriteFile(p, []byte("0123456789"), 0o644)
	mt := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(p, mt, mt); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(p)
	ctime := changeTime(fi)
	later := time.Now().Add(time.Hour) // a copy made after the ctime
	between := mt.Add(time.Hour)       // a copy made after the mtime, before the ctime
	rec := func(mod time.Time, size int64) *schemes.ResumeRecord {
		return &schemes.ResumeRecord{ModTime: mod, Size: size}
	}
	for _, c := range []struct {
		name      string
		off       int64
		partial   schemes.Partial
		needCtime bool // the case says nothing where the system keeps no ctime
		offset    int64
		info      string
	}{
		{name: "no record, copy newer than mtime and ctime", off: 4,
			partial: schemes.Partial{ModTime: later}, offset: 4, info: "not newer"},
		{name: "no record, mtime older but ctime newer than the copy: start over", off: 4, needCtime: true,
			partial: schemes.Partial{ModTime: between}, info: "newer than the partial copy"},
		{name: "no record, copy older than the mtime: start over", off: 4,
			partial: schemes.Partial{ModTime: mt.Add(-time.Hour)}, info: "newer than the partial copy"},
		{name: "a byte range (no partial copy): from its first byte, no resume rule", off: 4, offset: 4},
		{name: "record matches the mtime and size, file unchanged since the copy", off: 4,
			partial: schemes.Partial{ModTime: later, Record: rec(mt, 10)}, offset: 4, info: "matches"},
		{name: "record matches, but the file changed after the copy (ctime): start over", off: 4, needCtime: true,
			partial: schemes.Partial{ModTime: between, Record: rec(mt, 10)}, info: "changed since"},
		{name: "record of another mtime: start over", off: 4,
			partial: schemes.Partial{ModTime: later, Record: rec(mt.Add(-time.Hour), 10)}, info: "changed since"},
		{name: "record of another size: start over", off: 4,
			partial: schemes.Partial{ModTime: later, Record: rec(mt, 11)}, info: "size changed"},
		{name: "offset past the end: the file is shorter, start over", off: 11,
			partial: schemes.Partial{ModTime: later}, info: "shorter"},
		{name: "offset at the end: complete, nothing more", off: 10,
			partial: schemes.Partial{ModTime: later}, offset: 10},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.needCtime && ctime.IsZero() {
				t.Skip("no ctime on this system")
			}
			req, tr := request(t, fileURL(p))
			req.Offset, req.Partial = c.off, c.partial
			r, err := (&Handler{}).Fetch(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			want := "0123456789"[c.offset:]
			if got := readAll(t, r); got != want || r.Offset != c.offset || r.Size != 10 || !r.ModTime.Equal(mt) {
				t.Errorf("body %q at %d (ModTime %v), want %q at %d with the mtime", got, r.Offset, r.ModTime, want, c.offset)
			}
			if !strings.Contains(tr.String(), c.info) {
				t.Errorf("trace lacks %q:\n%s", c.info, tr)
			}
			if c.offset == 0 && !strings.Contains(tr.String(), "from the start") {
				t.Errorf("trace does not say it starts over:\n%s", tr)
			}
		})
	}
}

// TestChangeTime: where the system keeps a ctime, Chtimes leaves it at
// the time of the change, not the mtime given.
func TestChangeTime(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	os.WriteFile(p, nil, 0o644)
	old := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	before := time.Now().Add(-time.Minute)
	os.Chtimes(p, old, old)
	fi, _ := os.Stat(p)
	ct := changeTime(fi)
	if ct.IsZero() {
		t.Skip("no ctime on this system")
	}
	if ct.Before(before) {
		t.Errorf("ctime %v, want about now", ct)
	}
	if got := remoteTime(fi, time.Time{}); !got.Equal(ct) {
		t.Errorf("remoteTime without a copy time = %v, want the ctime %v", got, ct)
	}
	if got := remoteTime(fi, time.Now().Add(time.Hour)); !got.Equal(old) {
		t.Errorf("remoteTime with a later copy = %v, want the mtime %v", got, old)
	}
}
