package ftp

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/urlget/urlget/internal/schemestest"

	"github.com/urlget/urlget/schemes"
)

// TestPipelineBatch: after the login, PWD, the CWDs, TYPE, SIZE and EPSV
// go in one batch and each reply is read in order; a pooled session sends
// the next file's commands together likewise. With NoPipeline every
// command waits for the reply before it.
func TestPipelineBatch(t *testing.T) {
	f := newFake(t)
	f.files["a"], f.files["b"] = "alpha", "beta"
	e := newEnv(t)
	if got, _, err := e.get(t, f.url("pub/x/a")); err != nil || got != "alpha" {
		t.Fatalf("a: %q, %v\n%s", got, err, e.trace)
	}
	if !schemestest.SentTogether(e.trace.String(), "PWD", "CWD pub", "CWD x", "TYPE I", "SIZE a", "EPSV") {
		t.Errorf("PWD … EPSV not sent together:\n%s", e.trace)
	}
	want := []string{"USER anonymous", "PASS me@example.org", "PWD", "CWD pub", "CWD x", "TYPE I", "SIZE a", "EPSV", "RETR a"}
	if got := f.commands(); !slices.Equal(got, want) {
		t.Fatalf("commands:\n got %q\nwant %q", got, want)
	}
	e.trace.Reset()
	if got, _, err := e.get(t, f.url("pub/y/b")); err != nil || got != "beta" {
		t.Fatalf("b: %q, %v\n%s", got, err, e.trace)
	}
	if !schemestest.SentTogether(e.trace.String(), "CWD /home/u", "CWD pub", "CWD y", "EPSV") {
		t.Errorf("the pooled session's commands not sent together:\n%s", e.trace)
	}
	if n := f.connCount(); n != 1 {
		t.Errorf("%d control connections, want 1", n)
	}

	g := newFake(t)
	g.files["a"] = "alpha"
	e = newEnv(t)
	e.h.NoPipeline = true
	if got, _, err := e.get(t, g.url("pub/a")); err != nil || got != "alpha" {
		t.Fatalf("a, no pipeline: %q, %v\n%s", got, err, e.trace)
	}
	if schemestest.SentTogether(e.trace.String(), "PWD", "CWD pub") {
		t.Errorf("NoPipeline, yet commands went together:\n%s", e.trace)
	}
}

// TestPipelineFailure: a command that fails in the middle of a batch fails
// the request with the very error it has when sent in its turn; the
// replies of the commands after it are read and discarded (RETR is never
// sent), and the session is kept as it would be. A CWD after the failed
// one that succeeded leaves the session where it led (TestPipelineWhere).
func TestPipelineFailure(t *testing.T) {
	for _, tc := range []struct {
		name    string
		url     string
		replies map[string]string
		// kept says the session goes back to the pool, pipelined.
		kept bool
	}{
		{"first CWD refused", "pub/sub/a", map[string]string{"CWD pub": "550 No such directory", "CWD sub": "550 No such directory"}, true},
		{"first CWD refused, the next one taken", "pub/sub/a", map[string]string{"CWD pub": "550 No such directory"}, true},
		{"second CWD refused", "pub/sub/a", map[string]string{"CWD sub": "550 No such directory"}, true},
		{"TYPE refused", "pub/a", map[string]string{"TYPE I": "504 Type not implemented"}, true},
		{"SIZE: no such file", "pub/nope", map[string]string{"SIZE nope": "550 nope: No such file"}, true},
		{"421 in the middle", "pub/a", map[string]string{"TYPE I": "421 Timeout"}, false},
		{"EPSV refused: PASV", "pub/a", map[string]string{"EPSV": "502 EPSV not implemented"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var errs [2]error
			var bodies [2]string
			for i, noPipe := range []bool{true, false} {
				f := newFake(t)
				f.files["a"] = "alpha"
				for k, v := range tc.replies {
					f.replies[k] = v
				}
				e := newEnv(t)
				e.h.NoPipeline = noPipe
				bodies[i], _, errs[i] = e.get(t, f.url(tc.url))
				if noPipe {
					continue
				}
				if errs[0] != nil && slices.Contains(f.commands(), "RETR a") {
					t.Errorf("RETR sent after a failure: %q", f.commands())
				}
				if idle := e.idle(); (idle == 1) != tc.kept {
					t.Errorf("%d idle sessions, want kept %v\n%s", idle, tc.kept, e.trace)
				}
				if strings.Contains(e.trace.String(), "out of step") {
					t.Errorf("a refusal taken for a server out of step:\n%s", e.trace)
				}
			}
			if bodies[0] != bodies[1] || (errs[0] == nil) != (errs[1] == nil) ||
				errs[0] != nil && (errs[0].Error() != errs[1].Error() || schemes.KindOf(errs[0]) != schemes.KindOf(errs[1])) {
				t.Errorf("pipelined %q, %v; in turn %q, %v", bodies[1], errs[1], bodies[0], errs[0])
			}
		})
	}
}

// TestPipelineFallback: a server that answers a batch out of step — a
// reply missing (it dropped what came early), a 500 to a command that came
// early, a reply that answers another command — has its session closed;
// the request is made again with commands in their turn, and so is every
// later one to that server.
func TestPipelineFallback(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(f *fakeFTP)
		msg  string
	}{
		{"drops what came early", func(f *fakeFTP) { f.dropsEarly = true }, "no reply to CWD"},
		{"refuses what came early", func(f *fakeFTP) { f.refusesEarly = true }, "500 Unknown command does not answer CWD"},
		{"a reply of another command", func(f *fakeFTP) { f.replies["TYPE I"] = "213 5" }, "213 5 does not answer TYPE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t)
			f.files["a"], f.files["b"] = "alpha", "beta"
			tc.set(f)
			e := newEnv(t)
			if got, _, err := e.get(t, f.url("pub/a")); err != nil || got != "alpha" {
				t.Fatalf("a: %q, %v\n%s", got, err, e.trace)
			}
			if !strings.Contains(e.trace.String(), tc.msg) {
				t.Errorf("trace without %q:\n%s", tc.msg, e.trace)
			}
			if n := f.connCount(); n != 2 {
				t.Errorf("%d control connections, want 2: the one out of step closed, one in turn", n)
			}
			e.trace.Reset()
			if got, _, err := e.get(t, f.url("pub/b")); err != nil || got != "beta" {
				t.Fatalf("b: %q, %v\n%s", got, err, e.trace)
			}
			if schemestest.SentTogether(e.trace.String(), "CWD /home/u", "CWD pub") {
				t.Errorf("commands went together again:\n%s", e.trace)
			}
		})
	}
}

// TestPipelineStray: a stray reply that arrives with PWD's in a batch is
// taken for CWD's only until the next reply does not fit: the session is
// closed before RETR, and the request in turn meets the stray reply as
// TestStrayReply does.
func TestPipelineStray(t *testing.T) {
	f := newFake(t)
	f.files["a"] = "alpha"
	f.reply("PWD", "257 \"/home/u\"\r\n250 Directory changed")
	e := newEnv(t)
	_, err := e.h.Fetch(context.Background(), e.req(t, f.url("pub/a")))
	var se *schemes.Error
	if !errors.As(err, &se) || se.Kind != schemes.KindProtocol || !strings.Contains(se.Msg, "reply nobody asked for") {
		t.Fatalf("err %v, want the stray reply found\n%s", err, e.trace)
	}
	if slices.Contains(f.commands(), "RETR a") {
		t.Errorf("RETR sent on a session out of step: %q", f.commands())
	}
}

// TestPipelineWhere: a CWD discarded after a refused one, but taken by the
// server, is where the session is: the next URL in that directory sends
// no CWD.
func TestPipelineWhere(t *testing.T) {
	f := newFake(t)
	f.files["a"] = "alpha"
	f.replies["CWD pub"] = "550 No such directory"
	e := newEnv(t)
	if _, _, err := e.get(t, f.url("pub/sub/a")); schemes.KindOf(err) != schemes.KindNotFound {
		t.Fatalf("err %v, want CWD pub not found\n%s", err, e.trace)
	}
	n := len(f.commands())
	if got, _, err := e.get(t, f.url("sub/a")); err != nil || got != "alpha" {
		t.Fatalf("sub/a: %q, %v\n%s", got, err, e.trace)
	}
	if cmds := f.commands()[n:]; slices.ContainsFunc(cmds, func(c string) bool { return strings.HasPrefix(c, "CWD") }) {
		t.Errorf("commands %q: a CWD, though the session is in sub", cmds)
	}
}

// TestPipelineStat: Stat (what --segments readies its sessions with) sends
// FEAT with the login's PWD and the CWDs, then, with no MLST, TYPE, SIZE
// and MDTM together.
func TestPipelineStat(t *testing.T) {
	f := newFake(t)
	f.files["a"] = "alpha"
	e := newEnv(t)
	resp, err := e.h.Stat(context.Background(), e.req(t, f.url("pub/a")))
	if err != nil || resp.Size != 5 {
		t.Fatalf("stat: %+v, %v\n%s", resp, err, e.trace)
	}
	tr := e.trace.String()
	if !schemestest.SentTogether(tr, "PWD", "CWD pub", "FEAT") || !schemestest.SentTogether(tr, "TYPE I", "SIZE a", "MDTM a") {
		t.Errorf("Stat's commands not sent together:\n%s", tr)
	}
	if n := schemestest.RoundTrips(tr); n != 4 {
		t.Errorf("%d round trips, want 4 (USER, PASS, two batches):\n%s", n, tr)
	}
}
