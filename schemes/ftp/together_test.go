package ftp

import (
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

// TestResumeCommandsTogether: a resumed transfer (each range of a download
// in segments is one) sends SIZE with MDTM and REST with RETR, each pair
// in one exchange, and reads every reply as if asked alone: the range
// comes from its offset, a refused REST brings the whole file from byte
// 0 (as a REST asked alone does), and --no-pipeline waits for each reply.
// Stat sends SIZE with MDTM too.
func TestResumeCommandsTogether(t *testing.T) {
	remote := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) // the fake's MDTM
	for _, tc := range []struct {
		name       string
		noPipeline bool
		noREST     bool
		want       string
		together   bool
	}{
		{"together", false, false, "456789", true},
		{"REST refused", false, true, "0123456789", true},
		{"--no-pipeline", true, false, "456789", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t)
			f.files["f.bin"] = "0123456789"
			if tc.noREST {
				f.replies["REST 4"] = "502 REST not implemented"
			}
			e := newEnv(t)
			e.h.NoPipeline = tc.noPipeline
			req := e.req(t, f.url("f.bin"))
			req.Offset, req.Partial = 4, schemes.Partial{ModTime: remote.Add(time.Hour)}
			b, resp := e.fetch(t, req)
			if b != tc.want || resp.Offset != int64(10-len(tc.want)) {
				t.Errorf("got %q from offset %d, want %q", b, resp.Offset, tc.want)
			}
			tr := e.trace.String()
			for _, pair := range []string{"> SIZE f.bin\n> MDTM f.bin\n", "> REST 4\n> RETR f.bin\n"} {
				if strings.Contains(tr, pair) != tc.together {
					t.Errorf("%q in one exchange: %v, want %v\n%s", pair, !tc.together, tc.together, tr)
				}
			}
			st, err := e.h.Stat(t.Context(), e.req(t, f.url("f.bin")))
			if err != nil || st.Size != 10 || !st.ModTime.Equal(remote) {
				t.Fatalf("stat: %+v, %v", st, err)
			}
			if n := strings.Count(e.trace.String(), "> SIZE f.bin\n> MDTM f.bin\n"); n != map[bool]int{true: 2, false: 0}[tc.together] {
				t.Errorf("SIZE and MDTM together %d times", n)
			}
			if n := f.connCount(); n != 1 {
				t.Errorf("%d control connections, want 1", n)
			}
		})
	}
}
