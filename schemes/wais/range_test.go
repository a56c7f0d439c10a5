package wais

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/urlget/urlget/schemes"
)

// TestRetrieveRange: a byte range is retrieved as the ranges of it, from
// its first byte to its end, never more; the last N bytes where the URL
// gives the length; a range past the end is refused, with the length the
// URL gives before anything is asked, and by the server's reply without.
func TestRetrieveRange(t *testing.T) {
	doc := corpus(25000)
	for _, tc := range []struct {
		name, docLen  string // docLen: the length the URL gives
		req           schemes.Request
		ranges        string
		first, length int64
		unsatisfiable bool
	}{
		{name: "inside a chunk", docLen: "25000", req: schemes.Request{Offset: 100, Length: 50},
			ranges: "100-150", first: 100, length: 50},
		{name: "across chunks", docLen: "25000", req: schemes.Request{Offset: 9000, Length: 3000},
			ranges: "9000-12000", first: 9000, length: 3000},
		{name: "from a byte on", docLen: "25000", req: schemes.Request{Offset: 24000},
			ranges: "24000-25000", first: 24000},
		{name: "the last bytes", docLen: "25000", req: schemes.Request{Suffix: 10},
			ranges: "24990-25000", first: 24990},
		{name: "from a byte on, length unknown", docLen: "0", req: schemes.Request{Offset: 24000},
			ranges: "24000-34000", first: 24000},
		{name: "past the end", docLen: "25000", req: schemes.Request{Offset: 25000}, unsatisfiable: true},
		{name: "past the end, length unknown", docLen: "0", req: schemes.Request{Offset: 30000}, ranges: "30000-40000",
			unsatisfiable: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := docServer(t, doc)
			req, tr := request(t, f.url("/demo/TEXT/"+tc.docLen+"/1=x;2=db;3=doc;"))
			req.Offset, req.Length, req.Suffix = tc.req.Offset, tc.req.Length, tc.req.Suffix
			defer testConns.CloseIdle()
			resp, err := (&Handler{}).Fetch(context.Background(), req)
			if got := strings.Join(f.ranges, " "); got != tc.ranges {
				t.Errorf("ranges asked %q, want %q", got, tc.ranges)
			}
			if tc.unsatisfiable {
				var rns *schemes.RangeNotSatisfiable
				if schemes.KindOf(err) != schemes.KindProtocol || tc.docLen != "0" && !errors.As(err, &rns) {
					t.Fatalf("err %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("%v\n%s", err, tr)
			}
			b, err := io.ReadAll(resp.Body)
			resp.Close()
			want := doc[tc.first:]
			if tc.length > 0 {
				want = want[:tc.length]
			}
			if err != nil || !bytes.Equal(b, want) || resp.Offset != tc.first || resp.Length != tc.length {
				t.Errorf("%d bytes at %d (length %d), %v; want %d at %d", len(b), resp.Offset, resp.Length, err, len(want), tc.first)
			}
		})
	}
}

// TestExplainRange: the plan asks for the range's bytes only.
func TestExplainRange(t *testing.T) {
	req, _ := request(t, "wais://h/demo/TEXT/25000/1=x;")
	req.Offset, req.Length = 9000, 3000
	lines, err := (&Handler{}).Explain(req)
	if got := strings.Join(lines, "|"); err != nil || got != "connect h:210|Retrieve DocID=1=x; TEXT bytes 9000-12000|then ranges of 10000 bytes until byte 12000" {
		t.Errorf("%q %v", got, err)
	}
}
