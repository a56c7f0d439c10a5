package ftp

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

// TestRangeREST: a byte range (an Offset without a partial copy) is sent
// with REST after SIZE, and no MDTM: there is no copy to judge; the last
// N bytes start where SIZE says; a range past the end is refused before
// any data connection, the login kept.
func TestRangeREST(t *testing.T) {
	for _, tc := range []struct {
		name   string
		req    schemes.Request
		noSIZE bool
		cmds   []string
		body   string
		offset int64
		fails  bool
	}{
		{name: "from a byte on", req: schemes.Request{Offset: 4},
			cmds: []string{"TYPE I", "SIZE f.bin", "EPSV", "REST 4", "RETR f.bin"}, body: "456789", offset: 4},
		{name: "first bytes: no REST, the caller cuts", req: schemes.Request{Length: 3},
			cmds: []string{"TYPE I", "SIZE f.bin", "EPSV", "RETR f.bin"}, body: "0123456789"},
		{name: "last bytes", req: schemes.Request{Suffix: 3},
			cmds: []string{"TYPE I", "SIZE f.bin", "EPSV", "REST 7", "RETR f.bin"}, body: "789", offset: 7},
		{name: "more last bytes than there are", req: schemes.Request{Suffix: 30},
			cmds: []string{"TYPE I", "SIZE f.bin", "EPSV", "RETR f.bin"}, body: "0123456789"},
		{name: "last bytes without SIZE: all of it", req: schemes.Request{Suffix: 3}, noSIZE: true,
			cmds: []string{"TYPE I", "SIZE f.bin", "EPSV", "RETR f.bin"}, body: "0123456789"},
		// EPSV goes with SIZE (pipeline.go): its port is left unused.
		{name: "past the end", req: schemes.Request{Offset: 10}, cmds: []string{"TYPE I", "SIZE f.bin", "EPSV"}, fails: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t)
			f.files["f.bin"] = "0123456789"
			if tc.noSIZE {
				f.replies["SIZE f.bin"] = "502 Command not implemented."
			}
			e := newEnv(t)
			req := e.req(t, f.url("f.bin"))
			req.Offset, req.Length, req.Suffix = tc.req.Offset, tc.req.Length, tc.req.Suffix
			if tc.fails {
				_, err := e.h.Fetch(context.Background(), req)
				var rns *schemes.RangeNotSatisfiable
				if !errors.As(err, &rns) || rns.Size != 10 || e.idle() != 1 {
					t.Fatalf("err %v, idle %d; want the range refused, the login kept", err, e.idle())
				}
			} else {
				b, resp := e.fetch(t, req)
				if b != tc.body || resp.Offset != tc.offset || resp.Size != 10 && !tc.noSIZE {
					t.Errorf("%q at %d (size %d), want %q at %d", b, resp.Offset, resp.Size, tc.body, tc.offset)
				}
				if strings.Contains(e.trace.String(), "partial copy") {
					t.Errorf("a range judged as a partial copy:\n%s", e.trace)
				}
			}
			wantCmds(t, f, append(anonLogin, tc.cmds...)...)
		})
	}
}

// TestRangeTypeA: a byte range in TYPE A names no bytes of the file: it
// is refused, not sent converted.
func TestRangeTypeA(t *testing.T) {
	f := newFake(t)
	f.files["f.bin"] = "0123456789"
	e := newEnv(t)
	req := e.req(t, f.url("f.bin;type=a"))
	req.Offset = 2
	if _, err := e.h.Fetch(context.Background(), req); schemes.KindOf(err) != schemes.KindUnsupported {
		t.Fatalf("err %v, want KindUnsupported", err)
	}
}

// TestTimeConditionMDTM: as curl, MDTM decides a time condition, and a
// file that does not meet it is never sent (no RETR, no data connection),
// the reply code the MDTM's, the login kept.
func TestTimeConditionMDTM(t *testing.T) {
	mdtm := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) // the fake's
	retr := []string{"TYPE I", "SIZE f.bin", "MDTM f.bin", "EPSV", "RETR f.bin"}
	stop := []string{"TYPE I", "SIZE f.bin", "MDTM f.bin"}
	for _, tc := range []struct {
		name                 string
		ims, ius             time.Time
		cmds                 []string
		notModified, changed bool
	}{
		{name: "modified since", ims: mdtm.Add(-time.Second), cmds: retr},
		{name: "not modified since", ims: mdtm, cmds: stop, notModified: true},
		{name: "not modified after", ius: mdtm, cmds: retr},
		{name: "modified after", ius: mdtm.Add(-time.Second), cmds: stop, changed: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t)
			f.files["f.bin"] = "0123456789"
			e := newEnv(t)
			req := e.req(t, f.url("f.bin"))
			req.IfModifiedSince, req.IfUnmodifiedSince = tc.ims, tc.ius
			b, resp := e.fetch(t, req)
			sent := !tc.notModified && !tc.changed
			if (b != "") != sent || resp.NotModified != tc.notModified || resp.Changed != tc.changed || !resp.ModTime.Equal(mdtm) {
				t.Errorf("%q not modified %v changed %v time %v", b, resp.NotModified, resp.Changed, resp.ModTime)
			}
			if !sent && (resp.Status != 213 || e.idle() != 1) {
				t.Errorf("status %d, idle %d; want MDTM's 213, the login kept", resp.Status, e.idle())
			}
			wantCmds(t, f, append(anonLogin, tc.cmds...)...)
			if plan, _ := e.h.Explain(req); !strings.Contains(strings.Join(plan, "|"), "MDTM f.bin") {
				t.Errorf("Explain %q asks no MDTM", plan)
			}
		})
	}
}
