package ftp

import (
	"context"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

// TestResumeRule: REST is sent only when Request.MayResume allows it, for
// partial copies with and without urlget's record; otherwise the whole
// file comes with Offset 0 and the trace says why.
func TestResumeRule(t *testing.T) {
	remote := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) // the fake's MDTM
	rec := func(mod time.Time, size int64, mode string) *schemes.ResumeRecord {
		return &schemes.ResumeRecord{ModTime: mod, Size: size, Mode: mode}
	}
	for _, tc := range []struct {
		name    string
		offset  int64
		partial schemes.Partial
		noMDTM  bool // MDTM is refused: the remote's time is unknown
		resume  bool
		why     string // in the trace
	}{
		{name: "copy newer", offset: 4, partial: schemes.Partial{ModTime: remote.Add(time.Hour)}, resume: true, why: "not newer"},
		{name: "copy as old as the remote", offset: 4, partial: schemes.Partial{ModTime: remote}, resume: true, why: "not newer"},
		{name: "remote newer", offset: 4, partial: schemes.Partial{ModTime: remote.Add(-time.Hour)}, why: "is newer than the partial copy"},
		{name: "remote shorter", offset: 11, partial: schemes.Partial{ModTime: remote.Add(time.Hour)}, why: "shorter"},
		{name: "remote time unknown", offset: 4, partial: schemes.Partial{ModTime: remote.Add(-time.Hour)}, noMDTM: true,
			resume: true, why: "as curl would"},
		{name: "record matches", offset: 4, partial: schemes.Partial{Record: rec(remote, 10, "I")}, resume: true, why: "matches"},
		{name: "record: remote changed", offset: 4, partial: schemes.Partial{Record: rec(remote.Add(-time.Hour), 10, "I")},
			why: "changed since"},
		{name: "record: size changed", offset: 4, partial: schemes.Partial{Record: rec(remote, 12, "I")}, why: "size changed"},
		{name: "record: other TYPE", offset: 4, partial: schemes.Partial{Record: rec(remote, 10, "A")}, why: "mode A"},
		{name: "record: remote time unknown", offset: 4, partial: schemes.Partial{Record: rec(remote, 10, "I")}, noMDTM: true,
			resume: true, why: "matches"},
		{name: "record: remote shorter", offset: 11, partial: schemes.Partial{Record: rec(remote, 10, "I")}, why: "shorter"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t)
			f.files["f.bin"] = "0123456789"
			if tc.noMDTM {
				f.replies["MDTM f.bin"] = "550 MDTM not allowed"
			}
			e := newEnv(t)
			req := e.req(t, f.url("f.bin"))
			req.Offset, req.Partial = tc.offset, tc.partial
			resp, err := e.h.Fetch(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			want, wantOff := "0123456789", int64(0)
			if tc.resume {
				want, wantOff = want[tc.offset:], tc.offset
			}
			rest := slices.Contains(f.commands(), "REST "+strconv.FormatInt(tc.offset, 10))
			if string(b) != want || resp.Offset != wantOff || rest != tc.resume {
				t.Errorf("got %q offset %d (REST sent: %v); want %q offset %d", b, resp.Offset, rest, want, wantOff)
			}
			if !strings.Contains(e.trace.String(), tc.why) {
				t.Errorf("trace does not say %q:\n%s", tc.why, e.trace)
			}
			// What a partial copy records for next time.
			wantMod, wantPrec := remote, time.Second
			if tc.noMDTM {
				wantMod, wantPrec = time.Time{}, 0
			}
			if resp.Kind != schemes.EntryFile || resp.Mode != "I" || resp.Size != 10 || !resp.ModTime.Equal(wantMod) ||
				resp.Precision != wantPrec {
				t.Errorf("response %+v", resp)
			}
		})
	}
}

func TestNoResumeInTypeA(t *testing.T) {
	f := newFake(t)
	f.files["f.txt"] = "a\r\nb\r\n"
	e := newEnv(t)
	req := e.req(t, f.url("f.txt"))
	req.Offset = 2
	resp, err := e.h.Fetch(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.Offset != 0 || string(b) != "a\nb\n" || slices.Contains(f.commands(), "REST 2") || resp.Mode != "A" {
		t.Errorf("offset %d body %q mode %q commands %q", resp.Offset, b, resp.Mode, f.commands())
	}
}
