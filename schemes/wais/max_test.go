package wais

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/urlget/urlget/schemes"
)

// This file's replies are written by its own encoder (wenc, below), not
// the client's appendCI and appendField: a bug shared by the encoder and
// the decoder would otherwise pass unseen.

// wenc writes a compressed integer: 7-bit groups, most significant
// first, the top bit set on all but the last (wais-notes §2).
func wenc(n int) []byte {
	out := []byte{byte(n & 0x7f)}
	for n >>= 7; n > 0; n >>= 7 {
		out = append([]byte{byte(n&0x7f) | 0x80}, out...)
	}
	return out
}

// wfield is CI(tag) CI(len) val.
func wfield(tag int, val []byte) []byte {
	b := append(wenc(tag), wenc(len(val))...)
	return append(b, val...)
}

// floodReply is a SearchResponse of hits tiny header groups of 9 bytes
// (DocID a single record 3 holding the hit's number modulo 65536, so that
// order can be checked) and diags diagnostics, claiming hits+diags
// records.
func floodReply(hits, diags int) []byte {
	var ext []byte
	for i := range hits {
		id := wfield(3, []byte{byte(i >> 8), byte(i)})
		ext = append(ext, wfield(150, wfield(116, id))...)
	}
	for range diags {
		v := append([]byte("SFRequest out of range"), 1)
		ext = append(ext, 0x1c, byte(len(v)>>8), byte(len(v)))
		ext = append(ext, v...)
		ext = append(ext, 0x1d)
	}
	n := hits + diags
	b := []byte{0x00, 0x0e, 0x17, 1, 0, 0, 0, byte(n >> 16), byte(n >> 8), byte(n), 0, 0, 0, 0x1b, 0x01, 0x00}
	return append(b, wfield(99, ext)...)
}

// TestSearchKeepsAtMostMax: whatever number of hits the server sends, the
// listing holds the first Max of them in the server's order, and -v says
// when the server sent more than was asked; a server that obeys gets no
// note. The largest case is about as many hits as fit in the 1 MiB reply
// bound (maxReplyLen).
func TestSearchKeepsAtMostMax(t *testing.T) {
	for _, tt := range []struct {
		max, sent int
		want      int
		note      string
	}{
		{0, 116000, DefaultMax, "the server sent 116000 hits, more than the 40 asked for (option max): listing the first 40"},
		{7, 116000, 7, "the server sent 116000 hits, more than the 7 asked for"},
		{1, 2, 1, "the server sent 2 hits, more than the 1 asked for"},
		{5, 5, 5, ""},
		{40, 3, 3, ""},
		{200000, 116000, 116000, ""},
	} {
		reply := message(floodReply(tt.sent, 0))
		if len(reply) > maxReplyLen+headerLen {
			t.Fatalf("a test reply of %d bytes is beyond the reply bound", len(reply))
		}
		f := newFake(t, func([]byte) []byte { return reply })
		req, tr := request(t, f.url("/demo?apple"))
		h := &Handler{Max: tt.max}
		resp, err := h.List(context.Background(), req)
		testConns.CloseIdle()
		if err != nil {
			t.Fatalf("max %d, %d sent: %v", tt.max, tt.sent, err)
		}
		ents, err := schemes.ReadAll(resp.Listing)
		if err != nil || len(ents) != tt.want {
			t.Fatalf("max %d, %d sent: %d entries (%v), want %d", tt.max, tt.sent, len(ents), err, tt.want)
		}
		for i, e := range []schemes.Entry{ents[0], ents[len(ents)-1]} {
			n := []int{0, tt.want - 1}[i]
			w, ok := e.Locator.(*URL)
			if !ok {
				t.Fatalf("max %d: entry %d has no document URL", tt.max, n)
			}
			if d, err := parseDocument(w); err != nil || !bytes.Equal(d.docID, wfield(3, []byte{byte(n >> 8), byte(n)})) {
				t.Errorf("max %d: entry %d is %v (%v), want hit %d", tt.max, n, e.Locator, err, n)
			}
		}
		trace := tr.String()
		if !strings.Contains(trace, fmt.Sprintf("groups=%d ", tt.sent)) {
			t.Errorf("max %d: the trace does not count the %d groups sent:\n%.500s", tt.max, tt.sent, trace)
		}
		if got := strings.Contains(trace, "more than the"); got != (tt.note != "") || tt.note != "" && !strings.Contains(trace, tt.note) {
			t.Errorf("max %d, %d sent: trace note, want %q:\n%.500s", tt.max, tt.sent, tt.note, trace)
		}
	}
}

// TestMoreHitsNoteNamesMax: the note on a server that sent more hits than
// asked names the max option as the caller does.
func TestMoreHitsNoteNamesMax(t *testing.T) {
	reply := message(floodReply(3, 0))
	f := newFake(t, func([]byte) []byte { return reply })
	req, tr := request(t, f.url("/demo?apple"))
	h := &Handler{Max: 2, words: Declaration().ValuesOf(nil, func(s string) string { return "<" + s + ">" }).Words()}
	resp, err := h.List(context.Background(), req)
	testConns.CloseIdle()
	if err != nil {
		t.Fatal(err)
	}
	schemes.ReadAll(resp.Listing)
	if want := "more than the 2 asked for (<max>): listing the first 2"; !strings.Contains(tr.String(), want) {
		t.Errorf("trace lacks %q:\n%s", want, tr)
	}
}

// TestDecodeReplyHoldsAtMostMax: decoding a reply of 116,000 hits for 40
// allocates for those 40, not for every hit sent: what is held is bounded
// by the maximum (and each kept hit by the reply), not by the hit count.
func TestDecodeReplyHoldsAtMostMax(t *testing.T) {
	b := floodReply(116000, 0)
	for _, tt := range []struct{ max, allocs int }{
		{40, 4*40 + 16}, // each hit: its DocID and types; plus the slice's growth
		{1, 4 + 16},
		{0, 16},
	} {
		var rp *reply
		var err error
		allocs := testing.AllocsPerRun(3, func() { rp, err = decodeReply(b, tt.max) })
		if err != nil || len(rp.hits) != tt.max || rp.groups() != 116000 {
			t.Fatalf("max %d: %d hits of %d groups, %v", tt.max, len(rp.hits), rp.groups(), err)
		}
		if int(allocs) > tt.allocs {
			t.Errorf("max %d: %v allocations, want at most %d", tt.max, allocs, tt.allocs)
		}
	}
}

// TestDiagnosticsBounded: a reply of thousands of diagnostics keeps
// maxDiags of them, counts the rest, and still fails on the first.
func TestDiagnosticsBounded(t *testing.T) {
	f := newFake(t, func([]byte) []byte { return message(floodReply(0, 30000)) })
	req, tr := request(t, f.url("/demo?x"))
	h := &Handler{}
	defer testConns.CloseIdle()
	_, err := h.List(context.Background(), req)
	if err == nil || !strings.Contains(err.Error(), "Request out of range") {
		t.Fatalf("err %v", err)
	}
	trace := tr.String()
	if n := strings.Count(trace, "< Diagnostic "); n != maxDiags || !strings.Contains(trace, "diagnostics=30000") ||
		!strings.Contains(trace, fmt.Sprintf("%d more diagnostics not shown", 30000-maxDiags)) {
		t.Errorf("%d diagnostics traced:\n%.800s", n, trace)
	}
}
