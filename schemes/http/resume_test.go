package http

import (
	"context"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

// TestResume runs the one resume rule against a server: If-Range with the
// record's validator, Range alone without a record, and a restart (a
// second, whole GET) whenever the rule says the partial copy is stale.
func TestResume(t *testing.T) {
	const content = "0123456789"
	mod := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	var mu sync.Mutex
	var seen []string // "Range|If-Range" of each request
	e := newEnv(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Range")+"|"+r.Header.Get("If-Range"))
		mu.Unlock()
		switch r.URL.Path {
		case "/file": // honours Range and If-Range
			w.Header().Set("ETag", `"v1"`)
			http.ServeContent(w, r, "file", mod, strings.NewReader(content))
		case "/weak":
			w.Header().Set("ETag", `W/"w1"`)
			http.ServeContent(w, r, "file", mod, strings.NewReader(content))
		case "/ignores-if-range": // sends the range whatever If-Range says
			w.Header().Set("ETag", `"v2"`)
			r.Header.Del("If-Range")
			http.ServeContent(w, r, "file", mod, strings.NewReader(content))
		case "/norange":
			w.Header().Set("Last-Modified", mod.Format(http.TimeFormat))
			io.WriteString(w, content)
		case "/wrongrange":
			w.Header().Set("Content-Range", "bytes 0-9/10")
			w.WriteHeader(http.StatusPartialContent)
			io.WriteString(w, content)
		case "/shrunk": // now 7 bytes: a range from 10 is unsatisfiable
			http.ServeContent(w, r, "file", mod, strings.NewReader(content[:7]))
		case "/longer416":
			w.Header().Set("Content-Range", "bytes */20")
			w.WriteHeader(http.StatusRequestedRangeNotSatisfiable)
		}
	}, false)
	rec := func(etag string, mt time.Time, size int64) *schemes.ResumeRecord {
		return &schemes.ResumeRecord{ETag: etag, ModTime: mt, Size: size}
	}
	dateOf := func(t time.Time) string { return t.Format(http.TimeFormat) }
	const whole = "|" // a request without Range or If-Range
	for _, c := range []struct {
		name    string
		path    string
		off     int64
		partial schemes.Partial
		sent    []string // Range|If-Range of each request
		body    string
		offset  int64
		info    string // a note the trace must hold
		kind    schemes.Kind
	}{
		{name: "record with a strong ETag: If-Range ETag, 206", path: "/file", off: 4,
			partial: schemes.Partial{Record: rec(`"v1"`, mod, 10)},
			sent:    []string{`bytes=4-|"v1"`}, body: "456789", offset: 4, info: "matches the partial copy's record"},
		{name: "record with a changed ETag: the server sends everything", path: "/file", off: 4,
			partial: schemes.Partial{Record: rec(`"v0"`, mod, 10)},
			sent:    []string{`bytes=4-|"v0"`}, body: content, info: "If-Range did not match"},
		{name: "record with a date: If-Range date, 206", path: "/file", off: 4,
			partial: schemes.Partial{Record: rec("", mod, 10)},
			sent:    []string{"bytes=4-|" + dateOf(mod)}, body: "456789", offset: 4},
		{name: "record with a weak ETag: the date is the validator", path: "/weak", off: 4,
			partial: schemes.Partial{Record: rec(`W/"w1"`, mod, 10)},
			sent:    []string{"bytes=4-|" + dateOf(mod)}, body: "456789", offset: 4},
		{name: "record with an older date: 200, from the start", path: "/file", off: 4,
			partial: schemes.Partial{Record: rec("", mod.Add(-time.Hour), 10)},
			sent:    []string{"bytes=4-|" + dateOf(mod.Add(-time.Hour))}, body: content},
		{name: "record of another size: the 206 is refused, everything again", path: "/file", off: 4,
			partial: schemes.Partial{Record: rec(`"v1"`, mod, 12)},
			sent:    []string{`bytes=4-|"v1"`, whole}, body: content, info: "size changed"},
		{name: "a server ignoring If-Range cannot extend a changed copy", path: "/ignores-if-range", off: 4,
			partial: schemes.Partial{Record: rec(`"v1"`, mod, 10)},
			sent:    []string{`bytes=4-|"v1"`, whole}, body: content, info: "ETag changed"},
		{name: "no record, copy newer than the remote: Range only, 206", path: "/file", off: 4,
			partial: schemes.Partial{ModTime: mod.Add(time.Hour)},
			sent:    []string{"bytes=4-|"}, body: "456789", offset: 4, info: "not newer than the partial copy"},
		{name: "no record, Last-Modified newer than the copy: restart", path: "/file", off: 4,
			partial: schemes.Partial{ModTime: mod.Add(-time.Hour)},
			sent:    []string{"bytes=4-|", whole}, body: content, info: "is newer than the partial copy"},
		{name: "a byte range (no partial copy): from its first byte, no resume rule", path: "/file", off: 4,
			sent: []string{"bytes=4-|"}, body: "456789", offset: 4},
		{name: "a server without ranges: 200, from the start", path: "/norange", off: 4,
			sent: []string{"bytes=4-|"}, body: content, info: "does not send ranges"},
		{name: "already complete: 416 */10 at 10", path: "/file", off: 10,
			partial: schemes.Partial{ModTime: mod.Add(time.Hour)},
			sent:    []string{"bytes=10-|"}, body: "", offset: 10, info: "all 10 bytes already retrieved"},
		{name: "the remote shrank below the copy: 416 */7 at 10, restart", path: "/shrunk", off: 10,
			partial: schemes.Partial{ModTime: mod.Add(time.Hour)},
			sent:    []string{"bytes=10-|", whole}, body: content[:7], info: "shorter than the partial copy"},
		{name: "a 206 from elsewhere than the offset", path: "/wrongrange", off: 4,
			sent: []string{"bytes=4-|"}, kind: schemes.KindProtocol},
		{name: "416 for a longer resource", path: "/longer416", off: 10,
			sent: []string{"bytes=10-|"}, kind: schemes.KindProtocol},
	} {
		t.Run(c.name, func(t *testing.T) {
			mu.Lock()
			seen = nil
			mu.Unlock()
			r, tr := e.req(c.path)
			r.Offset, r.Partial = c.off, c.partial
			resp, err := e.h.Fetch(context.Background(), r)
			mu.Lock()
			sent := slices.Clone(seen)
			mu.Unlock()
			if !slices.Equal(sent, c.sent) {
				t.Errorf("requests sent (Range|If-Range) %q, want %q", sent, c.sent)
			}
			if c.kind != schemes.KindOther {
				if schemes.KindOf(err) != c.kind {
					t.Fatalf("err %v, want kind %v", err, c.kind)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if body := readAll(t, resp); body != c.body || resp.Offset != c.offset {
				t.Errorf("body %q at offset %d, want %q at %d", body, resp.Offset, c.body, c.offset)
			}
			// (A 416 comes without Last-Modified from net/http's server.)
			if resp.Kind != schemes.EntryFile || resp.Size != int64(len(c.body))+c.offset ||
				resp.Status != 416 && (!resp.ModTime.Equal(mod) || resp.Precision != time.Second) {
				t.Errorf("response %+v", resp)
			}
			if c.info != "" && !strings.Contains(tr.String(), c.info) {
				t.Errorf("trace lacks %q:\n%s", c.info, tr)
			}
		})
	}
}
