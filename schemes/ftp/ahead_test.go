package ftp

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/urlget/urlget/schemes"
)

// fetchWithNext fetches the files of names one after another on f, each
// request naming the ones after it (schemes.WithNext), as a mirror's
// batch does; a name not on the server fails its request only.
func fetchWithNext(t *testing.T, e *tenv, f *fakeFTP, names ...string) map[string]string {
	t.Helper()
	return fetchAhead(t, e, f, schemes.WithNext, names...)
}

// fetchAhead is fetchWithNext with the look-ahead put in each request's
// context by with (schemes.WithNext, or WithSharedNext as -Z does).
func fetchAhead(t *testing.T, e *tenv, f *fakeFTP, with func(context.Context, []schemes.Locator) context.Context, names ...string) map[string]string {
	t.Helper()
	var locs []schemes.Locator
	for _, n := range names {
		locs = append(locs, e.req(t, f.url(n)).URL)
	}
	got := map[string]string{}
	for i := range names {
		req := e.req(t, f.url(names[i]))
		resp, err := e.h.Fetch(with(context.Background(), locs[i+1:]), req)
		if err != nil {
			got[names[i]] = "error: " + err.Error()
			continue
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatalf("%s: %v", names[i], err)
		}
		got[names[i]] = string(b)
	}
	return got
}

// transfers is the EPSV and RETR commands f read, in order.
func transfers(f *fakeFTP) []string {
	var out []string
	for _, c := range f.commands() {
		if c == "EPSV" || strings.HasPrefix(c, "RETR ") {
			out = append(out, c)
		}
	}
	return out
}

// TestEPSVAhead: files fetched one after another, each request naming
// the next, send the next one's EPSV right behind RETR, and their data
// connections use the port it gave: one EPSV in its turn for three files;
// a refused RETR keeps the port for the next file; --no-pipeline (and a
// request naming no next file) sends EPSV in its turn.
func TestEPSVAhead(t *testing.T) {
	for _, tc := range []struct {
		name       string
		noPipeline bool
		files      []string
		want       []string
		shared     bool // the look-ahead is -Z's (schemes.WithSharedNext)
	}{
		{"three files", false, []string{"a", "b", "c"},
			[]string{"EPSV", "RETR a", "EPSV", "RETR b", "EPSV", "RETR c"}, false},
		{"a refused RETR", false, []string{"a", "missing", "c"},
			[]string{"EPSV", "RETR a", "EPSV", "RETR missing", "EPSV", "RETR c"}, false},
		{"--no-pipeline", true, []string{"a", "b", "c"},
			[]string{"EPSV", "RETR a", "EPSV", "RETR b", "EPSV", "RETR c"}, false},
		// A port serves any next transfer: -Z's shared look-ahead readies
		// it as a mirror's does.
		{"shared with other connections (-Z)", false, []string{"a", "b", "c"},
			[]string{"EPSV", "RETR a", "EPSV", "RETR b", "EPSV", "RETR c"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t)
			for _, n := range []string{"a", "b", "c"} {
				f.files[n] = strings.Repeat(n, 3000)
			}
			e := newEnv(t)
			e.h.NoPipeline = tc.noPipeline
			with := schemes.WithNext
			if tc.shared {
				with = schemes.WithSharedNext
			}
			got := fetchAhead(t, e, f, with, tc.files...)
			for _, n := range tc.files {
				if want := strings.Repeat(n, 3000); n != "missing" && got[n] != want {
					t.Errorf("%s: %d bytes %.40q", n, len(got[n]), got[n])
				}
			}
			if n := "missing"; slices.Contains(tc.files, n) && !strings.Contains(got[n], "No such file") {
				t.Errorf("missing: %q", got[n])
			}
			if tr := transfers(f); !slices.Equal(tr, tc.want) {
				t.Errorf("commands %q, want %q", tr, tc.want)
			}
			// Ahead, the EPSV goes after RETR in one exchange: the trace
			// shows it sent before RETR's 150 came back.
			ahead := strings.Contains(e.trace.String(), "> RETR a\n> EPSV\n")
			if ahead == tc.noPipeline {
				t.Errorf("EPSV sent with RETR: %v, want %v\n%s", ahead, !tc.noPipeline, e.trace)
			}
			if n := f.connCount(); n != 1 {
				t.Errorf("%d control connections, want 1", n)
			}
		})
	}
}

// TestEPSVAheadUnanswered: a server that does not answer an EPSV sent
// ahead loses that session once the file is in (after a second), and is
// sent none ahead again: the next files come over a new session with
// EPSV in its turn.
func TestEPSVAheadUnanswered(t *testing.T) {
	f := newFake(t)
	f.epsvAnswered = 1
	f.files["a"], f.files["b"] = "alpha", "beta"
	e := newEnv(t)
	got := fetchWithNext(t, e, f, "a", "b")
	if got["a"] != "alpha" || got["b"] != "beta" {
		t.Fatalf("got %q", got)
	}
	if want := []string{"EPSV", "RETR a", "EPSV", "EPSV", "RETR b"}; !slices.Equal(transfers(f), want) {
		t.Errorf("commands %q, want %q", transfers(f), want)
	}
	if n := f.connCount(); n != 2 {
		t.Errorf("%d control connections, want 2", n)
	}
	if !strings.Contains(e.trace.String(), "no reply to the EPSV sent ahead") {
		t.Errorf("the trace does not say why:\n%s", e.trace)
	}
}

// TestEPSVAheadEarlyClose: a body closed early after an EPSV went ahead
// is stopped by ABOR and NOOP as any other, the EPSV's 229 among the
// replies skipped, and the session serves the next file in step.
func TestEPSVAheadEarlyClose(t *testing.T) {
	f := newFake(t)
	f.files["big"] = strings.Repeat("0123456789abcdef", 1<<20)
	f.files["b"] = "beta"
	e := newEnv(t)
	next := e.req(t, f.url("b")).URL
	resp, err := e.h.Fetch(schemes.WithNext(context.Background(), []schemes.Locator{next}), e.req(t, f.url("big")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(resp.Body, make([]byte, 1<<20)); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if e.idle() != 1 {
		t.Fatalf("%d idle sessions after the early close, want 1\n%s", e.idle(), e.trace)
	}
	got, _, err := e.get(t, f.url("b"))
	if err != nil || got != "beta" {
		t.Fatalf("the next file: %q, %v\n%s", got, err, e.trace)
	}
	if n := f.connCount(); n != 1 {
		t.Errorf("%d control connections, want 1", n)
	}
}

// TestEPSVAheadRefusedDuringTransfer: a server that reads the EPSV sent
// ahead during the transfer and refuses it before its 226 (pure-ftpd:
// "500 Unknown command") has the file whole, keeps its session, and is
// sent EPSV in its turn from then on.
func TestEPSVAheadRefusedDuringTransfer(t *testing.T) {
	f := newFake(t)
	f.readsDuringTransfer = true
	f.files["a"], f.files["b"], f.files["c"] = "alpha", "beta", "gamma"
	e := newEnv(t)
	got := fetchWithNext(t, e, f, "a", "b", "c")
	if got["a"] != "alpha" || got["b"] != "beta" || got["c"] != "gamma" {
		t.Fatalf("got %q", got)
	}
	if want := []string{"EPSV", "RETR a", "EPSV", "EPSV", "RETR b", "EPSV", "RETR c"}; !slices.Equal(transfers(f), want) {
		t.Errorf("commands %q, want %q", transfers(f), want)
	}
	if strings.Contains(e.trace.String(), "> RETR b\n> EPSV\n") {
		t.Errorf("EPSV sent ahead after the refusal:\n%s", e.trace)
	}
	if n := f.connCount(); n != 1 {
		t.Errorf("%d control connections, want 1", n)
	}
}
