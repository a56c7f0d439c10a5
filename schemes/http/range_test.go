package http

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

// TestRangeRequests: a byte range is asked for as curl's -r sends it
// (Range: bytes=N-M, N-, -N, a list), and the answer is reported as the
// server sent it: a 206's first byte, length and size; the whole
// resource (200) with Offset 0, for the caller to cut; a list's multipart
// reply as it is; a 416 as a range past the end.
func TestRangeRequests(t *testing.T) {
	const content = "0123456789"
	mod := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	var mu sync.Mutex
	var seen []string // Range|Accept-Encoding of each request
	e := newEnv(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Range")+"|"+r.Header.Get("Accept-Encoding"))
		mu.Unlock()
		switch r.URL.Path {
		case "/file":
			http.ServeContent(w, r, "file", mod, strings.NewReader(content))
		case "/norange":
			io.WriteString(w, content)
		}
	}, false)
	e.h.Decode = true // a range asks for no coding: its bytes are the resource's
	for _, tc := range []struct {
		name                string
		path                string
		req                 schemes.Request
		sent                string
		body                string
		offset, length, end int64
		multipart           bool
		unsatisfiable       bool
		kind                schemes.Kind
	}{
		{name: "N-M", path: "/file", req: schemes.Request{Offset: 2, Length: 3}, sent: "bytes=2-4", body: "234", offset: 2, length: 3, end: 5},
		{name: "0-M", path: "/file", req: schemes.Request{Length: 4}, sent: "bytes=0-3", body: "0123", length: 4, end: 4},
		{name: "N-", path: "/file", req: schemes.Request{Offset: 6}, sent: "bytes=6-", body: "6789", offset: 6, end: 10},
		{name: "-N", path: "/file", req: schemes.Request{Suffix: 3}, sent: "bytes=-3", body: "789", offset: 7, end: 10},
		{name: "-N past the start", path: "/file", req: schemes.Request{Suffix: 30}, sent: "bytes=-30", body: content, end: 10},
		{name: "past the end: 416", path: "/file", req: schemes.Request{Offset: 10}, sent: "bytes=10-", unsatisfiable: true,
			kind: schemes.KindProtocol},
		{name: "a list: multipart as sent", path: "/file",
			req: schemes.Request{Ranges: []schemes.ByteRange{{Length: 1}, {Suffix: 1}}}, sent: "bytes=0-0,-1", multipart: true},
		{name: "ignored: the whole, for the caller to cut", path: "/norange", req: schemes.Request{Offset: 2, Length: 3},
			sent: "bytes=2-4", body: content, end: 10},
		{name: "a list ignored: refused", path: "/norange", req: schemes.Request{Ranges: []schemes.ByteRange{{Length: 1}, {Suffix: 1}}},
			sent: "bytes=0-0,-1", kind: schemes.KindProtocol},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mu.Lock()
			seen = nil
			mu.Unlock()
			r, _ := e.req(tc.path)
			r.Offset, r.Length, r.Suffix, r.Ranges = tc.req.Offset, tc.req.Length, tc.req.Suffix, tc.req.Ranges
			resp, err := e.h.Fetch(context.Background(), r)
			mu.Lock()
			if len(seen) != 1 || seen[0] != tc.sent+"|" {
				t.Errorf("sent %q, want Range %q and no Accept-Encoding", seen, tc.sent)
			}
			mu.Unlock()
			var rns *schemes.RangeNotSatisfiable
			if tc.kind != schemes.KindOther || err != nil {
				if schemes.KindOf(err) != tc.kind || errors.As(err, &rns) != tc.unsatisfiable {
					t.Fatalf("err %v, want %v (416: %v)", err, tc.kind, tc.unsatisfiable)
				}
				return
			}
			body := readAll(t, resp)
			if tc.multipart {
				if !strings.HasPrefix(resp.Type, "multipart/byteranges") || resp.Length != int64(len(body)) ||
					!strings.Contains(body, "Content-Range: bytes 0-0/10") || !strings.Contains(body, "Content-Range: bytes 9-9/10") {
					t.Errorf("type %q length %d body %q", resp.Type, resp.Length, body)
				}
				return
			}
			if body != tc.body || resp.Offset != tc.offset || resp.Length != tc.length || resp.End() != tc.end {
				t.Errorf("%q at %d, length %d, end %d; want %q at %d, %d, %d", body, resp.Offset, resp.Length, resp.End(),
					tc.body, tc.offset, tc.length, tc.end)
			}
			if plan, _ := e.h.Explain(r); !strings.Contains(strings.Join(plan, "\n"), "Range: "+tc.sent) {
				t.Errorf("Explain %q", plan)
			}
		})
	}
}

// TestTimeConditionFields: -z's conditions are sent as If-Modified-Since
// and If-Unmodified-Since; a 304 is NotModified and a 412 Changed, both
// without a body, and neither is sent when continuing a partial copy.
func TestTimeConditionFields(t *testing.T) {
	mod := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	var mu sync.Mutex
	var seen []string
	e := newEnv(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("If-Modified-Since")+"|"+r.Header.Get("If-Unmodified-Since"))
		mu.Unlock()
		http.ServeContent(w, r, "file", mod, strings.NewReader("0123456789"))
	}, false)
	date := func(t time.Time) string { return t.Format(http.TimeFormat) }
	for _, tc := range []struct {
		name                 string
		ims, ius             time.Time
		partial              bool
		sent                 string
		body                 string
		notModified, changed bool
		status               int
	}{
		{name: "modified since", ims: mod.Add(-time.Hour), sent: date(mod.Add(-time.Hour)) + "|", body: "0123456789", status: 200},
		{name: "not modified since", ims: mod, sent: date(mod) + "|", notModified: true, status: 304},
		{name: "unmodified since", ius: mod, sent: "|" + date(mod), body: "0123456789", status: 200},
		{name: "modified after", ius: mod.Add(-time.Hour), sent: "|" + date(mod.Add(-time.Hour)), changed: true, status: 412},
		{name: "not when continuing", ims: mod, partial: true, sent: "|", body: "456789", status: 206},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mu.Lock()
			seen = nil
			mu.Unlock()
			r, _ := e.req("/f")
			r.IfModifiedSince, r.IfUnmodifiedSince = tc.ims, tc.ius
			if tc.partial {
				r.Offset, r.Partial = 4, schemes.Partial{ModTime: mod.Add(time.Hour)}
			}
			resp, err := e.h.Fetch(context.Background(), r)
			if err != nil {
				t.Fatal(err)
			}
			body := readAll(t, resp)
			mu.Lock()
			if len(seen) != 1 || seen[0] != tc.sent {
				t.Errorf("sent %q, want %q", seen, tc.sent)
			}
			mu.Unlock()
			if body != tc.body || resp.NotModified != tc.notModified || resp.Changed != tc.changed || resp.Status != tc.status {
				t.Errorf("%q, not modified %v, changed %v, status %d", body, resp.NotModified, resp.Changed, resp.Status)
			}
		})
	}
}

// TestRangeErrorPages: a 416 to a range is an error status like any
// other — its page handed over when the request asks (ErrorPages, curl
// without -f), with the size in the Failure's chain — and --fail-with-body
// writes no page for a range, which would be cut as its bytes.
func TestRangeErrorPages(t *testing.T) {
	e := newEnv(t, func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, "f", time.Time{}, strings.NewReader("0123456789"))
	}, false)
	r, _ := e.req("/f")
	r.Offset, r.ErrorPages = 10, true
	resp, err := e.h.Fetch(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	page := readAll(t, resp)
	var rns *schemes.RangeNotSatisfiable
	if resp.Status != 416 || page == "" || !errors.As(resp.Failure, &rns) || rns.Size != 10 || !errors.Is(resp.Failure, schemes.ErrErrorStatus) {
		t.Errorf("status %d, page %q, failure %v", resp.Status, page, resp.Failure)
	}
	e.h.FailWithBody = true
	r, _ = e.req("/f")
	r.Offset = 10
	if _, err := e.h.Fetch(context.Background(), r); !errors.As(err, &rns) {
		t.Errorf("--fail-with-body: %v, want the failure, no page", err)
	}
}
