package fetch

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
)

const digits = "0123456789"

// rangeCases are the byte ranges Do, Stream and Download deliver exactly,
// whether the handler bounds them (a server that sends ranges), ignores
// their end (FTP's RETR) or sends the whole resource (HTTP's 200).
var rangeCases = []struct {
	name   string
	req    Request // Offset, Length, Suffix
	want   string
	offset int64 // Response.Offset
}{
	{"first bytes", Request{Length: 3}, "012", 0},
	{"middle", Request{Offset: 4, Length: 3}, "456", 4},
	{"from a byte on", Request{Offset: 7}, "789", 7},
	{"to past the end", Request{Offset: 8, Length: 50}, "89", 8},
	{"last bytes", Request{Suffix: 4}, "6789", 6},
	{"more last bytes than there are", Request{Suffix: 40}, digits, 0},
	{"one byte", Request{Offset: 9, Length: 1}, "9", 9},
}

// handlersForRanges are the three ways a handler may answer a range.
var handlersForRanges = []struct {
	name string
	h    func() *fakeHandler
}{
	{"bounded", func() *fakeHandler { return &fakeHandler{data: map[string]string{"x": digits}, bounds: true} }},
	{"end ignored", func() *fakeHandler { return &fakeHandler{data: map[string]string{"x": digits}} }},
	{"whole sent", func() *fakeHandler { return &fakeHandler{data: map[string]string{"x": digits}, noResume: true} }},
}

// TestDoRange: Do's Body is exactly the bytes asked for, starting at
// Response.Offset, however the handler answered; a server that sent the
// whole resource is read past the bytes before the range, with a note.
func TestDoRange(t *testing.T) {
	for _, hc := range handlersForRanges {
		for _, tc := range rangeCases {
			t.Run(hc.name+"/"+tc.name, func(t *testing.T) {
				c := newClient(hc.h())
				var notes []string
				c.Notify = func(m string) { notes = append(notes, m) }
				req := tc.req
				req.URL = mustParse(t, c, "t:x")
				resp, err := c.Do(context.Background(), &req)
				if err != nil {
					t.Fatal(err)
				}
				b, err := io.ReadAll(resp.Body)
				resp.Close()
				if err != nil || string(b) != tc.want || resp.Offset != tc.offset {
					t.Errorf("%q at %d (%v), want %q at %d", b, resp.Offset, err, tc.want, tc.offset)
				}
				whole := hc.name == "whole sent" || hc.name == "end ignored" && tc.req.Suffix > 0 // the fake knows no suffix
				if skipped := whole && tc.offset > 0; skipped != (len(notes) == 1) ||
					skipped && !strings.Contains(notes[0], "not the range asked for") {
					t.Errorf("notes %q", notes)
				}
			})
		}
	}
}

// TestStreamAndDownloadRange: Stream writes the range, Download makes the
// file the range, both counting progress over the range's bytes, and a
// transfer cut short continues after the bytes held, asking for the rest
// of the range only.
func TestStreamAndDownloadRange(t *testing.T) {
	for _, hc := range handlersForRanges {
		for _, tc := range rangeCases {
			t.Run(hc.name+"/"+tc.name, func(t *testing.T) {
				h := hc.h()
				c := newClient(h)
				c.Retries = 1
				req := tc.req
				req.URL = mustParse(t, c, "t:x")
				var last [2]int64
				progress := func(done, total int64) { last = [2]int64{done, total} }
				var out bytes.Buffer
				if _, n, err := c.Stream(context.Background(), &req, &out, progress); err != nil || out.String() != tc.want || n != int64(len(tc.want)) {
					t.Errorf("Stream: %q (%d) %v, want %q", out.String(), n, err, tc.want)
				}
				if want := int64(len(tc.want)); last != [2]int64{want, want} {
					t.Errorf("Stream: last progress %v, want %d of %d", last, want, want)
				}
				dest := filepath.Join(t.TempDir(), "f")
				h.cutAfter = 1 // the first attempt breaks after a byte
				res, err := c.DownloadRequest(context.Background(), &req, dest, DownloadOptions{})
				got, _ := os.ReadFile(dest)
				if err != nil || string(got) != tc.want || res.Size != int64(len(tc.want)) {
					t.Errorf("Download: %q %v, want %q", got, err, tc.want)
				}
				if hc.name == "bounded" && len(tc.want) > 1 && req.Length > 0 {
					if l := h.lengths[len(h.lengths)-1]; l != req.Length-1 {
						t.Errorf("the retry asked for %d bytes, want the rest of the range: %d", l, req.Length-1)
					}
				}
				if _, err := os.Stat(dest + PartSuffix); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("work file left: %v", err)
				}
			})
		}
	}
}

// TestRangeFailures: a range past the end, a suffix of a resource of
// unknown size sent whole, and a range a scheme cannot ask for fail as
// such; a failed range download keeps nothing to continue.
func TestRangeFailures(t *testing.T) {
	for _, tc := range []struct {
		name     string
		h        *fakeHandler
		req      Request
		kind     schemes.Kind
		range416 bool
	}{
		{"past the end", &fakeHandler{data: map[string]string{"x": digits}}, Request{Offset: 10}, schemes.KindProtocol, true},
		{"past the end, sent whole", &fakeHandler{data: map[string]string{"x": digits}, noResume: true}, Request{Offset: 12, Length: 2},
			schemes.KindProtocol, true},
		{"suffix of a size unknown", &fakeHandler{data: map[string]string{"x": digits}, noResume: true, noSize: true},
			Request{Suffix: 3}, schemes.KindProtocol, false},
		{"negative", &fakeHandler{data: map[string]string{"x": digits}}, Request{Offset: -1}, schemes.KindUsage, false},
		{"two forms", &fakeHandler{data: map[string]string{"x": digits}}, Request{Offset: 1, Suffix: 3}, schemes.KindUsage, false},
		{"ranges and a suffix", &fakeHandler{data: map[string]string{"x": digits}},
			Request{Suffix: 3, Ranges: []schemes.ByteRange{{Length: 1}, {Suffix: 1}}}, schemes.KindUsage, false},
		{"several ranges, scheme without them", &fakeHandler{data: map[string]string{"x": digits}},
			Request{Ranges: []schemes.ByteRange{{Length: 1}, {Suffix: 1}}}, schemes.KindUnsupported, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newClient(tc.h)
			req := tc.req
			req.URL = mustParse(t, c, "t:x")
			_, err := c.Do(context.Background(), &req)
			var rns *schemes.RangeNotSatisfiable
			if schemes.KindOf(err) != tc.kind || errors.As(err, &rns) != tc.range416 {
				t.Fatalf("Do: %v, want %v (416: %v)", err, tc.kind, tc.range416)
			}
			dir := t.TempDir()
			if _, err := c.DownloadRequest(context.Background(), &req, filepath.Join(dir, "f"), DownloadOptions{}); schemes.KindOf(err) != tc.kind {
				t.Errorf("Download: %v", err)
			}
			if left, _ := os.ReadDir(dir); len(left) != 0 {
				t.Errorf("Download left %v", left)
			}
		})
	}
}

// TestRangeNeedsTheCapability: a scheme without Ranges is refused before
// anything is asked, naming what it lacks and the setting.
func TestRangeNeedsTheCapability(t *testing.T) {
	h := &fakeHandler{data: map[string]string{"x": digits}}
	r := schemes.NewRegistry()
	r.Register(schemes.Scheme{Name: "t", Handler: h, Caps: schemes.Retrieves,
		Parse: func(u *schemes.URL) (schemes.Locator, error) { return fakeLoc{u}, nil }})
	c := &Client{Registry: r}
	_, err := c.Do(context.Background(), &Request{URL: mustParse(t, c, "t:x"), Offset: 3})
	var se *schemes.Error
	if schemes.KindOf(err) != schemes.KindUnsupported || !errors.As(err, &se) || se.Setting != SettingRange ||
		!strings.Contains(err.Error(), "t: URLs cannot be asked for a byte range") || !strings.Contains(err.Error(), "can: retrieves") {
		t.Fatalf("err %v", err)
	}
	if h.fetches != 0 {
		t.Fatalf("%d fetches", h.fetches)
	}
}

// TestRangeNotWithResumeOrSegments: a range is its own file, which
// Resume and Segments do not apply to.
func TestRangeNotWithResumeOrSegments(t *testing.T) {
	c := newClient(&fakeHandler{data: map[string]string{"x": digits}})
	for _, opt := range []DownloadOptions{{Resume: true}, {Segments: 4}} {
		req := &Request{URL: mustParse(t, c, "t:x"), Offset: 2}
		if _, err := c.DownloadRequest(context.Background(), req, filepath.Join(t.TempDir(), "f"), opt); schemes.KindOf(err) != schemes.KindUsage {
			t.Errorf("%+v: %v", opt, err)
		}
	}
}

// TestTimeConditionsByTheTimeTold: the Client applies a time condition
// to the time a handler tells with the data, as curl simulates a 304:
// nothing is written, an existing file is left as it was, and an unknown
// time is retrieved, with a note in the trace.
func TestTimeConditionsByTheTimeTold(t *testing.T) {
	mod := time.Date(2025, 1, 20, 8, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name                 string
		mod                  time.Time
		ims, ius             time.Time
		sent                 bool
		notModified, changed bool
	}{
		{name: "modified since", mod: mod, ims: mod.Add(-time.Hour), sent: true},
		{name: "not modified since", mod: mod, ims: mod, notModified: true},
		{name: "unmodified since", mod: mod, ius: mod, sent: true},
		{name: "modified after", mod: mod, ius: mod.Add(-time.Second), changed: true},
		{name: "time unknown", ims: mod, sent: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newClient(&fakeHandler{data: map[string]string{"x": digits}, mod: tc.mod})
			tr := schemestest.NewScopeTrace()
			c.Trace = tr
			req := &Request{URL: mustParse(t, c, "t:x"), IfModifiedSince: tc.ims, IfUnmodifiedSince: tc.ius}
			var out bytes.Buffer
			resp, n, err := c.Stream(context.Background(), req, &out, nil)
			if err != nil || (n > 0) != tc.sent || resp.NotModified != tc.notModified || resp.Changed != tc.changed {
				t.Errorf("Stream: %d bytes %v, not modified %v, changed %v", n, err, resp.NotModified, resp.Changed)
			}
			dest := filepath.Join(t.TempDir(), "f")
			os.WriteFile(dest, []byte("old"), 0o644)
			res, err := c.DownloadRequest(context.Background(), req, dest, DownloadOptions{})
			got, _ := os.ReadFile(dest)
			want := "old"
			if tc.sent {
				want = digits
			}
			if err != nil || string(got) != want || res.NotModified != tc.notModified || res.Changed != tc.changed {
				t.Errorf("Download: %q %v %+v", got, err, res)
			}
			if unknown := tc.mod.IsZero(); unknown != strings.Contains(strings.Join(tr.Lines(), "\n"), "tells no modification time") {
				t.Errorf("trace %q", tr.Lines())
			}
		})
	}
}

// TestListOfOneRange: Ranges of one range is that range, for Do, Stream
// and Download alike.
func TestListOfOneRange(t *testing.T) {
	c := newClient(&fakeHandler{data: map[string]string{"x": digits}})
	req := &Request{URL: mustParse(t, c, "t:x"), Ranges: []schemes.ByteRange{{First: 2, Length: 3}}}
	var out bytes.Buffer
	if _, _, err := c.Stream(context.Background(), req, &out, nil); err != nil || out.String() != "234" {
		t.Errorf("Stream: %q %v", out.String(), err)
	}
	dest := filepath.Join(t.TempDir(), "f")
	if _, err := c.DownloadRequest(context.Background(), req, dest, DownloadOptions{}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(dest); string(got) != "234" {
		t.Errorf("Download: %q", got)
	}
}
