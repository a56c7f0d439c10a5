package file

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

// TestFetchRange: a byte range is the file from its first byte (the last
// N bytes: from the size less N), with no resume rule applied; one past
// the end is refused with the file's size.
func TestFetchRange(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		req    schemes.Request
		body   string
		offset int64
		plan   string
		fails  bool
	}{
		{req: schemes.Request{Offset: 4}, body: "456789", offset: 4, plan: "seek 4"},
		{req: schemes.Request{Offset: 4, Length: 2}, body: "456789", offset: 4, plan: "seek 4|read 2 bytes"}, // the caller cuts
		{req: schemes.Request{Suffix: 3}, body: "789", offset: 7, plan: "seek to 3 bytes before the end"},
		{req: schemes.Request{Suffix: 30}, body: "0123456789", plan: "seek to 30 bytes before the end"},
		{req: schemes.Request{Offset: 10}, fails: true},
	} {
		req, tr := request(t, fileURL(p))
		req.Offset, req.Length, req.Suffix = tc.req.Offset, tc.req.Length, tc.req.Suffix
		r, err := (&Handler{}).Fetch(context.Background(), req)
		if tc.fails {
			var rns *schemes.RangeNotSatisfiable
			if !errors.As(err, &rns) || rns.Size != 10 {
				t.Errorf("%+v: %v, want a range past the end", tc.req, err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if got := readAll(t, r); got != tc.body || r.Offset != tc.offset || r.Size != 10 {
			t.Errorf("%+v: %q at %d, want %q at %d", tc.req, got, r.Offset, tc.body, tc.offset)
		}
		if tr.String() != "" {
			t.Errorf("%+v: a range noted as a resume:\n%s", tc.req, tr)
		}
		if plan, _ := (&Handler{}).Explain(req); strings.Join(plan[1:], "|") != tc.plan {
			t.Errorf("%+v: Explain %q, want %q", tc.req, plan, tc.plan)
		}
	}
}

// TestFetchTimeCondition: the file's mtime decides a time condition, as
// curl's file: does; a file that does not meet it is not read.
func TestFetchTimeCondition(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("data"), 0o644); err != nil {
		t.Fatal(err)
	}
	mt := time.Date(2024, 1, 2, 3, 4, 5, 600e6, time.UTC)
	if err := os.Chtimes(p, mt, mt); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		ims, ius             time.Time
		notModified, changed bool
	}{
		{ims: mt.Add(-time.Second)},
		{ims: mt.Truncate(time.Second), notModified: true}, // the same second, as curl compares
		{ius: mt},
		{ius: mt.Add(-time.Second), changed: true},
	} {
		req, _ := request(t, fileURL(p))
		req.IfModifiedSince, req.IfUnmodifiedSince = tc.ims, tc.ius
		r, err := (&Handler{}).Fetch(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		body := readAll(t, r)
		sent := !tc.notModified && !tc.changed
		if (body == "data") != sent || r.NotModified != tc.notModified || r.Changed != tc.changed {
			t.Errorf("ims %v ius %v: %q, not modified %v, changed %v", tc.ims, tc.ius, body, r.NotModified, r.Changed)
		}
	}
}
