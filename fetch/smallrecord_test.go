package fetch

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlget/urlget/schemes"
)

// TestRecordBeforeTheBodyUnlessSmall: NAME.part carries its resume record
// before the first byte of the body lands, unless the copy's size is
// known and at most smallCopy (issue 36: the attribute cost more than a
// small file's transfer); either way NAME ends without one, even where an
// earlier run left its record on an empty NAME.part. (A small
// copy cut short gets its record when the download fails:
// TestPartialFileCarriesResumeRecord.)
func TestRecordBeforeTheBodyUnlessSmall(t *testing.T) {
	for _, tc := range []struct {
		name     string
		size     int
		noSize   bool
		leftover bool // NAME.part is there, empty, with an earlier run's record
		want     bool // a record on NAME.part while the body is read
	}{
		{"small", smallCopy, false, false, false},
		{"past small", smallCopy + 1, false, false, true},
		{"small, size unknown", 10, true, false, true},
		{"small, over a leftover's record", 10, false, true, true},
	} {
		dest := filepath.Join(t.TempDir(), "out.bin")
		var during *bool
		h := &fakeHandler{data: map[string]string{"x": strings.Repeat("a", tc.size)}, noSize: tc.noSize}
		h.wrap = func(r io.Reader) io.Reader {
			return &firstRead{r: r, at: func() {
				f, err := os.Open(dest + PartSuffix)
				if err != nil {
					t.Errorf("%s: the body is read before NAME.part exists: %v", tc.name, err)
					return
				}
				defer f.Close()
				has := readRecord(f) != nil
				during = &has
			}}
		}
		if tc.leftover {
			// An empty NAME.part a killed run left, with its record.
			f, err := os.Create(dest + PartSuffix)
			if err != nil {
				t.Fatal(err)
			}
			writeRecord(f, schemes.ResumeRecord{Size: 1})
			f.Close()
		}
		c := newClient(h)
		if _, err := c.Download(context.Background(), "t:x", dest, DownloadOptions{}); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		switch {
		case during == nil:
			t.Fatalf("%s: the body was never read", tc.name)
		case *during != tc.want && tc.want:
			t.Errorf("%s: no record on NAME.part while the body was read (does this file system keep user.* extended attributes?)", tc.name)
		case *during != tc.want:
			t.Errorf("%s: a record on NAME.part before the body: a small copy's waits for a failure", tc.name)
		}
		f, err := os.Open(dest)
		if err != nil {
			t.Fatal(err)
		}
		if rec := readRecord(f); rec != nil {
			t.Errorf("%s: NAME kept the record %+v", tc.name, rec)
		}
		f.Close()
	}
}

// firstRead calls at before its first Read.
type firstRead struct {
	r    io.Reader
	at   func()
	done bool
}

func (f *firstRead) Read(p []byte) (int, error) {
	if !f.done {
		f.done = true
		f.at()
	}
	return f.r.Read(p)
}
