package ftp

import (
	"cmp"
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
		{name: "record: made in TYPE A", offset: 4, partial: schemes.Partial{Record: rec(remote, 10, "A")},
			why: "made in TYPE A, whose offsets name no position"},
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
			b, resp := e.fetch(t, req)
			want, wantOff := "0123456789", int64(0)
			if tc.resume {
				want, wantOff = want[tc.offset:], tc.offset
			}
			rest := slices.Contains(f.commands(), "REST "+strconv.FormatInt(tc.offset, 10))
			if b != want || resp.Offset != wantOff || rest != tc.resume {
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

// TestTypeChoice: the TYPE of a retrieval and how Response reports it —
// the URL's typecode, else --ascii/--binary (DefaultType), else the guess:
// TYPE I for a name that does not look like text; for one that does, SYST
// decides (TYPE I from a UNIX server or one that does not answer, TYPE A
// from another system), except in a resumed transfer, which continues in
// TYPE I, where REST's offset means what it says. The trace says who
// decided.
// Partial copies made in TYPE A are never continued; nothing is resumed
// in TYPE A.
func TestTypeChoice(t *testing.T) {
	const wire = "a\r\nb\r\n"
	// Without a connection, the plan names the question and both answers.
	askSYST := []string{"SYST", `TYPE I (no ;type=: "f.txt" looks like text; TYPE A instead if SYST names a system ` +
		`other than UNIX)`, "SIZE f.txt", "EPSV", "RETR f.txt"}
	for _, tc := range []struct {
		name    string
		path    string
		def     byte // Handler.DefaultType
		offset  int64
		record  string // Partial.Record.Mode; "" means no record
		cmds    []string
		body    string
		resumed bool
		mode    string
		guessed bool
		why     string // in the trace
		syst    string // the reply to SYST; "" is "215 VMS", which must not matter
		explain []string
	}{
		{name: "text guessed, UNIX server", path: "f.txt", syst: "215 UNIX Type: L8",
			cmds: []string{"SYST", "TYPE I", "SIZE f.txt", "EPSV", "RETR f.txt"}, body: wire, mode: "I", guessed: true,
			why: "no ;type=: the server is UNIX (SYST), so TYPE I: the exact bytes", explain: askSYST},
		{name: "text guessed, server without SYST", path: "f.txt", syst: "500 SYST not understood",
			cmds: []string{"SYST", "TYPE I", "SIZE f.txt", "EPSV", "RETR f.txt"}, body: wire, mode: "I", guessed: true,
			why: "does not name its system (SYST: 500 SYST not understood), so TYPE I: the exact bytes", explain: askSYST},
		{name: "text guessed, Windows_NT server", path: "f.txt", syst: "215 Windows_NT",
			cmds: []string{"SYST", "TYPE A", "EPSV", "RETR f.txt"}, body: "a\nb\n", mode: "A", guessed: true,
			why: "the server is Windows_NT (SYST), whose text is stored its own way, so TYPE A", explain: askSYST},
		{name: "text guessed, VMS server", path: "f.txt", syst: "215 VMS OpenVMS V8.4",
			cmds: []string{"SYST", "TYPE A", "EPSV", "RETR f.txt"}, body: "a\nb\n", mode: "A", guessed: true,
			why: "the server is VMS (SYST)", explain: askSYST},
		{name: "binary guessed", path: "f.bin", cmds: []string{"TYPE I", "SIZE f.bin", "EPSV", "RETR f.bin"}, body: wire,
			mode: "I", guessed: true, why: `no ;type=: "f.bin" does not look like text, so TYPE I`},
		{name: "text guessed, resumed in TYPE I", path: "f.txt", offset: 2,
			cmds: []string{"TYPE I", "SIZE f.txt", "MDTM f.txt", "EPSV", "REST 2", "RETR f.txt"}, body: wire[2:], resumed: true,
			mode: "I", guessed: true, why: `resuming "f.txt" in TYPE I, the exact bytes: only there does an offset name a position`},
		{name: "text guessed, copy made in TYPE A", path: "f.txt", offset: 2, record: "A",
			cmds: []string{"TYPE I", "SIZE f.txt", "MDTM f.txt", "EPSV", "RETR f.txt"}, body: wire, mode: "I", guessed: true,
			why: "made in TYPE A, whose offsets name no position on the server: retrieving all of it"},
		{name: "text guessed, copy made in TYPE I", path: "f.txt", offset: 2, record: "I",
			cmds: []string{"TYPE I", "SIZE f.txt", "MDTM f.txt", "EPSV", "REST 2", "RETR f.txt"}, body: wire[2:], resumed: true,
			mode: "I", guessed: true, why: "matches the partial copy's record"},
		{name: ";type=a is never resumed", path: "f.bin;type=a", offset: 2, cmds: []string{"TYPE A", "EPSV", "RETR f.bin"},
			body: "a\nb\n", mode: "A", why: "cannot resume a TYPE A transfer"},
		{name: ";type=i on a UNIX server", path: "f.txt;type=i", syst: "215 UNIX Type: L8",
			cmds: []string{"TYPE I", "SIZE f.txt", "EPSV", "RETR f.txt"}, body: wire, mode: "I", why: "the URL's ;type=i: TYPE I"},
		{name: "--ascii", path: "f.bin", def: 'a', cmds: []string{"TYPE A", "EPSV", "RETR f.bin"}, body: "a\nb\n", mode: "A",
			why: "option ascii: TYPE A"},
		{name: "--ascii on a UNIX server", path: "f.txt", def: 'a', syst: "215 UNIX Type: L8",
			cmds: []string{"TYPE A", "EPSV", "RETR f.txt"}, body: "a\nb\n", mode: "A"},
		{name: "--ascii is never resumed", path: "f.bin", def: 'a', offset: 2, cmds: []string{"TYPE A", "EPSV", "RETR f.bin"},
			body: "a\nb\n", mode: "A", why: "cannot resume a TYPE A transfer"},
		{name: "--binary", path: "f.txt", def: 'i', cmds: []string{"TYPE I", "SIZE f.txt", "EPSV", "RETR f.txt"}, body: wire,
			mode: "I", why: "option binary: TYPE I"},
		{name: ";type=i wins over --ascii", path: "f.txt;type=i", def: 'a',
			cmds: []string{"TYPE I", "SIZE f.txt", "EPSV", "RETR f.txt"}, body: wire, mode: "I"},
		{name: ";type=a wins over --binary", path: "f.bin;type=a", def: 'i', cmds: []string{"TYPE A", "EPSV", "RETR f.bin"},
			body: "a\nb\n", mode: "A"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t)
			f.files["f.txt"], f.files["f.bin"] = wire, wire
			f.replies["SYST"] = cmp.Or(tc.syst, "215 VMS")
			e := newEnv(t)
			e.h.DefaultType = tc.def
			req := e.req(t, f.url(tc.path))
			req.Offset = tc.offset
			if tc.record != "" {
				req.Partial.Record = &schemes.ResumeRecord{Size: int64(len(wire)), Mode: tc.record}
			} else if tc.offset > 0 {
				req.Partial.ModTime = time.Now() // another tool's copy: an Offset alone is a byte range
			}
			b, resp := e.fetch(t, req)
			wantCmds(t, f, append(anonLogin, tc.cmds...)...)
			wantOff := int64(0)
			if tc.resumed {
				wantOff = tc.offset
			}
			if b != tc.body || resp.Offset != wantOff || resp.Mode != tc.mode || resp.ModeGuessed != tc.guessed {
				t.Errorf("body %q offset %d mode %q guessed %v; want %q %d %q %v", b, resp.Offset, resp.Mode,
					resp.ModeGuessed, tc.body, wantOff, tc.mode, tc.guessed)
			}
			if tc.why != "" && !strings.Contains(e.trace.String(), tc.why) {
				t.Errorf("trace does not say %q:\n%s", tc.why, e.trace)
			}
			want := tc.explain
			if want == nil {
				want = tc.cmds
			}
			if plan, _ := e.h.Explain(req); !slices.Equal(plan[4:len(plan)-1], want) {
				t.Errorf("Explain %q, want %q", plan[4:len(plan)-1], want)
			}
		})
	}
}

// TestTypeNotesNameOptions: the trace's notes on who chose a TYPE name
// the ascii and binary options as the caller does — the library's words
// for a Handler built in code, the caller's for one built from the
// declaration's Values (urlget's: its flags) — never a flag of their own.
func TestTypeNotesNameOptions(t *testing.T) {
	loc, err := parse(t, "ftp://h/f.txt")
	if err != nil {
		t.Fatal(err)
	}
	for words, want := range map[*schemes.Words][]string{
		{}:           {"option ascii: TYPE A", "option binary: TYPE I", "(;type=a or option ascii asks", "(;type=i or option binary for"},
		&callerWords: {"<ascii>: TYPE A", "<binary>: TYPE I", "(;type=a or <ascii> asks", "(;type=i or <binary> for"},
	} {
		h := &Handler{words: *words}
		var got []string
		for _, def := range []byte{'a', 'i'} {
			h.DefaultType = def
			got = append(got, h.transferType(loc, "", false).note)
		}
		h.DefaultType = 0
		guess := h.transferType(loc, "", false)
		got = append(got, guess.bySystem("f.txt", reply{}, false, *words).note,
			guess.bySystem("f.txt", reply{Code: 215, Lines: []string{"215 VMS"}}, true, *words).note)
		for i, w := range want {
			if !strings.Contains(got[i], w) {
				t.Errorf("note %q, want %q", got[i], w)
			}
		}
	}
}
