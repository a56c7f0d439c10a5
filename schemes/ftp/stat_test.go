package ftp

import (
	"context"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

func (e *tenv) stat(t *testing.T, raw string) (*schemes.Response, error) {
	t.Helper()
	resp, err := e.h.Stat(context.Background(), e.req(t, raw))
	if err == nil && (resp.Body != nil || resp.Listing != nil) {
		t.Fatalf("Stat %s returned a body or listing", raw)
	}
	return resp, err
}

// TestStat describes files and directories without retrieving them, with
// MLST when FEAT offers it and with SIZE, MDTM and CWD otherwise, over one
// pooled login.
func TestStat(t *testing.T) {
	mdtm := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tc := range []struct {
		name   string
		mlst   bool
		path   string
		kind   schemes.EntryKind
		size   int64
		mod    time.Time
		rname  string
		cmds   []string
		errKnd schemes.Kind // non-zero: Stat fails with this kind
	}{
		{name: "MLST file", mlst: true, path: "pub/f.bin", kind: schemes.EntryFile, size: 5, mod: mdtm, rname: "f.bin",
			cmds: []string{"CWD pub", "FEAT", "MLST f.bin"}},
		{name: "MLST dir", mlst: true, path: "pub/sub", kind: schemes.EntryDir, size: -1,
			mod: time.Date(2025, 6, 7, 8, 9, 10, 0, time.UTC), rname: "sub", cmds: []string{"CWD pub", "FEAT", "MLST sub"}},
		{name: "MLST current dir", mlst: true, path: "pub/", kind: schemes.EntryDir, size: -1,
			mod: time.Date(2025, 6, 7, 8, 9, 10, 0, time.UTC), rname: "pub", cmds: []string{"CWD pub", "FEAT", "MLST"}},
		{name: "MLST not found", mlst: true, path: "pub/nope", errKnd: schemes.KindNotFound,
			cmds: []string{"CWD pub", "FEAT", "MLST nope"}},
		{name: "SIZE and MDTM", path: "pub/f.bin", kind: schemes.EntryFile, size: 5, mod: mdtm, rname: "f.bin",
			cmds: []string{"CWD pub", "FEAT", "TYPE I", "SIZE f.bin", "MDTM f.bin"}},
		{name: "CWD tells a dir", path: "pub/sub", kind: schemes.EntryDir, size: -1, rname: "sub",
			cmds: []string{"CWD pub", "FEAT", "TYPE I", "SIZE sub", "MDTM sub", "CWD sub"}},
		{name: "current dir", path: "pub/", kind: schemes.EntryDir, size: -1, rname: "pub", cmds: []string{"CWD pub", "FEAT"}},
		{name: "not found", path: "pub/nope", errKnd: schemes.KindNotFound,
			cmds: []string{"CWD pub", "FEAT", "TYPE I", "SIZE nope", "MDTM nope", "CWD nope"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t)
			f.mlst = tc.mlst
			f.files["f.bin"] = "hello"
			f.files["data.bin"] = "data"
			f.dirs["sub"], f.dirs[""] = true, true
			f.replies["CWD nope"] = "550 nope: No such file or directory"
			f.replies["MLST"] = "250-Listing\r\n type=cdir;modify=20250607080910; /home/u/pub\r\n250 End"
			e := newEnv(t)
			resp, err := e.stat(t, f.url(tc.path))
			if tc.errKnd != 0 {
				if schemes.KindOf(err) != tc.errKnd {
					t.Fatalf("err %v, want %v", err, tc.errKnd)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				prec := time.Duration(0)
				if !tc.mod.IsZero() {
					prec = time.Second
				}
				if resp.Kind != tc.kind || resp.Size != tc.size || !resp.ModTime.Equal(tc.mod) || resp.Precision != prec ||
					resp.Name != tc.rname {
					t.Errorf("stat %+v; want kind %v size %d modtime %v ±%v name %q", resp, tc.kind, tc.size, tc.mod, prec, tc.rname)
				}
				if en := resp.Entry(e.req(t, f.url(tc.path)).URL); en.Kind != tc.kind || en.Name != tc.rname {
					t.Errorf("entry %+v", en)
				}
			}
			wantCmds(t, f, append(anonLogin, tc.cmds...)...)
			// The login is pooled, also after a 550: a retrieval follows
			// on the same connection.
			if got, _, err := e.get(t, f.url("data.bin")); err != nil || got != "data" || f.connCount() != 1 {
				t.Errorf("fetch after Stat: %q, %v over %d connections", got, err, f.connCount())
			}
		})
	}
}
