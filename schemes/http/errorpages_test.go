package http

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

// TestErrorPages: a request that asks for ErrorPages gets an error
// status's page as the resource — Body the page, Status the status,
// Failure the error it would have failed with —, as curl without -f;
// Fail refuses that for 400 and up (curl's -f), FailWithBody hands the
// page over ending with the failure; a 3xx that is no redirect is data
// under Fail too; without ErrorPages, or when resuming, the status
// fails as ever.
func TestErrorPages(t *testing.T) {
	e := newEnv(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/404":
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, "gone page")
		case "/503":
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, "busy page")
		case "/300":
			w.WriteHeader(http.StatusMultipleChoices)
			io.WriteString(w, "choices")
		}
	}, false)
	const (
		data    = "data"    // the page, ending with io.EOF; Failure set
		failing = "failing" // the page, ending with the failure
		fails   = "fails"   // the failure, no page
	)
	for _, tc := range []struct {
		path         string
		fail, body   bool // Handler.Fail, FailWithBody
		pages        bool // Request.ErrorPages
		offset       int64
		want         string
		kind         schemes.Kind
		retryable    bool
		errorStatus  bool // ErrErrorStatus in the failure's chain
		page, status string
	}{
		{"/404", false, false, true, 0, data, schemes.KindNotFound, false, true, "gone page", "404"},
		{"/503", false, false, true, 0, data, schemes.KindBusy, true, true, "busy page", "503"},
		{"/300", false, false, true, 0, data, schemes.KindProtocol, false, false, "choices", "300"},
		{"/404", false, false, false, 0, fails, schemes.KindNotFound, false, true, "", ""},
		{"/404", false, false, true, 3, fails, schemes.KindNotFound, false, true, "", ""},
		{"/404", true, false, true, 0, fails, schemes.KindNotFound, false, true, "", ""},
		{"/503", true, false, true, 0, fails, schemes.KindBusy, true, true, "", ""},
		{"/300", true, false, true, 0, data, schemes.KindProtocol, false, false, "choices", "300"},
		{"/404", false, true, true, 0, failing, schemes.KindNotFound, false, false, "gone page", "404"},
		{"/404", false, true, false, 0, failing, schemes.KindNotFound, false, false, "gone page", "404"},
	} {
		name := tc.path + " " + tc.want
		e.h.Fail, e.h.FailWithBody = tc.fail, tc.body
		req, _ := e.req(tc.path)
		req.ErrorPages, req.Offset = tc.pages, tc.offset
		if tc.offset > 0 {
			req.Partial.ModTime = time.Now() // resuming another tool's copy (an Offset alone is a byte range)
		}
		resp, err := e.h.Fetch(context.Background(), req)
		var failure error
		switch tc.want {
		case fails:
			if err == nil {
				resp.Close()
				t.Errorf("%s (fail %v, body %v, pages %v, offset %d): a response, want a failure", name, tc.fail, tc.body, tc.pages, tc.offset)
				continue
			}
			failure = err
		default:
			if err != nil {
				t.Errorf("%s (fail %v, body %v, pages %v): %v", name, tc.fail, tc.body, tc.pages, err)
				continue
			}
			b, rerr := io.ReadAll(resp.Body)
			resp.Body.Close()
			failure = resp.Failure
			if tc.want == failing {
				failure = rerr
			} else if rerr != nil {
				t.Errorf("%s: reading the page: %v", name, rerr)
			}
			if string(b) != tc.page || resp.Status != atoi(tc.status) || !strings.HasPrefix(resp.Head, "HTTP/1.1 "+tc.status+" ") {
				t.Errorf("%s: page %q, status %d, head %q", name, b, resp.Status, resp.Head)
			}
		}
		if schemes.KindOf(failure) != tc.kind || schemes.IsRetryable(failure) != tc.retryable && tc.want != failing ||
			errors.Is(failure, schemes.ErrErrorStatus) != tc.errorStatus {
			t.Errorf("%s: failure %v (kind %v, retryable %v)", name, failure, schemes.KindOf(failure), schemes.IsRetryable(failure))
		}
		if tc.want == failing && !errors.Is(failure, ErrBodyWritten) {
			t.Errorf("%s: the page ends with %v, want ErrBodyWritten", name, failure)
		}
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = 10*n + int(c-'0')
	}
	return n
}

// TestErrorPagesStatAndList: Stat with ErrorPages describes an error
// status by its head and Failure, Fail or not (a head is no page); List
// never takes a page for an index, whatever the request asks.
func TestErrorPagesStatAndList(t *testing.T) {
	e := newEnv(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `<html><a href="x">x</a></html>`)
	}, false)
	for _, fail := range []bool{false, true} {
		e.h.Fail = fail
		req, _ := e.req("/d/")
		req.ErrorPages = true
		resp, err := e.h.Stat(context.Background(), req)
		if err != nil || resp.Status != 404 || !strings.HasPrefix(resp.Head, "HTTP/1.1 404 Not Found\r\n") ||
			schemes.KindOf(resp.Failure) != schemes.KindNotFound || !errors.Is(resp.Failure, schemes.ErrErrorStatus) {
			t.Errorf("Stat (Fail %v): %+v, %v", fail, resp, err)
		}
		if resp, err := e.h.List(context.Background(), req); err == nil || schemes.KindOf(err) != schemes.KindNotFound {
			if err == nil {
				resp.Close()
			}
			t.Errorf("List (Fail %v): %v, want the 404", fail, err)
		}
	}
	e.h.Fail, e.h.FailWithBody = false, true
	req, _ := e.req("/d/")
	if _, err := e.h.List(context.Background(), req); schemes.KindOf(err) != schemes.KindNotFound {
		t.Errorf("List with FailWithBody: %v, want the 404", err)
	}
}

// TestFetchHeadAsSent: a GET's Response.Head is the head as the server
// sent it — fields in its order and spelling, after a 1xx answer —, a
// redirect's too, on one kept connection; the body after it is the
// body, whole, though the head and the body's start came in one read.
// The same without a Trace (no -v), where no trace lines are built.
func TestFetchHeadAsSent(t *testing.T) {
	t.Run("traced", func(t *testing.T) { testFetchHeadAsSent(t, &recTrace{}) })
	t.Run("untraced", func(t *testing.T) { testFetchHeadAsSent(t, nil) })
}

func testFetchHeadAsSent(t *testing.T, tr schemes.Trace) {
	replies := []struct{ head, body string }{
		{"HTTP/1.1 302 Found Elsewhere\r\nlocation: /g\r\nContent-Length: 0\r\n\r\n", ""},
		{"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 Fine\r\nZ-First: 1\r\nETag: \"t\"\r\ncontent-length: 11\r\n\r\n", "hello world"},
		{"HTTP/1.1 404 Not Here\r\nX-Why: gone\r\nContent-Length: 4\r\n\r\n", "page"},
	}
	var script []string
	for _, r := range replies {
		script = append(script, r.head+r.body) // one write: the head and the body in one read
	}
	h, d, loc := oneConnServer(t, script...)
	for i, r := range replies {
		resp, err := h.Fetch(context.Background(), &schemes.Request{URL: loc, Dialer: d, Trace: tr, ErrorPages: true})
		if err != nil {
			t.Fatalf("reply %d: %v", i, err)
		}
		want := r.head
		if i == 1 {
			want = want[len("HTTP/1.1 100 Continue\r\n\r\n"):]
		}
		body := ""
		if resp.Body != nil {
			body = readAll(t, resp)
		}
		if resp.Head != want || body != r.body {
			t.Errorf("reply %d: head %q, body %q; want %q, %q", i, resp.Head, body, want, r.body)
		}
	}
	if n := d.count(); n != 1 {
		t.Errorf("%d dials, want 1 (the connection kept)", n)
	}
}
