package http

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

func TestStat(t *testing.T) {
	mod := time.Date(2021, 3, 4, 5, 6, 7, 0, time.UTC)
	var mu sync.Mutex
	var methods []string
	e := newEnv(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		methods = append(methods, r.Method)
		mu.Unlock()
		h := w.Header()
		switch r.URL.Path {
		case "/dir/doc.pdf":
			h.Set("Content-Length", "1234")
			h.Set("Content-Type", "application/pdf")
			h.Set("Last-Modified", mod.Format(http.TimeFormat))
			h.Set("ETag", `"abc"`)
		case "/dir/bare": // no length, time or tag
		case "/dir/moved":
			h.Set("Location", "../new/place?x=1")
			w.WriteHeader(http.StatusMovedPermanently)
		case "/dir/gone":
			w.WriteHeader(http.StatusNotFound)
		case "/dir/removed":
			w.WriteHeader(http.StatusGone)
		case "/dir/secret":
			w.WriteHeader(http.StatusForbidden)
		case "/dir/login":
			w.WriteHeader(http.StatusUnauthorized)
		case "/dir/busy":
			h.Set("Retry-After", "30")
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}, false)
	for _, c := range []struct {
		path string
		want schemes.Response
		kind schemes.Kind // of the error, KindOther for none
	}{
		{path: "/dir/doc.pdf", want: schemes.Response{Kind: schemes.EntryFile, Size: 1234, Type: "application/pdf",
			ModTime: mod, Precision: time.Second, ETag: `"abc"`, Name: "doc.pdf", Status: 200}},
		{path: "/dir/bare", want: schemes.Response{Kind: schemes.EntryFile, Size: -1, Name: "bare", Status: 200}},
		{path: "/dir/moved", want: schemes.Response{Size: -1, Redirect: e.srv.URL + "/new/place?x=1", Status: 301}},
		{path: "/dir/gone", kind: schemes.KindNotFound},
		{path: "/dir/removed", kind: schemes.KindNotFound},
		{path: "/dir/secret", kind: schemes.KindPermission},
		{path: "/dir/login", kind: schemes.KindPermission},
		{path: "/dir/busy", kind: schemes.KindBusy},
	} {
		t.Run(c.path, func(t *testing.T) {
			r, tr := e.req(c.path)
			resp, err := e.h.Stat(context.Background(), r)
			if c.kind != schemes.KindOther {
				var se *schemes.Error
				if !errors.As(err, &se) || se.Kind != c.kind {
					t.Fatalf("err %#v, want kind %v", err, c.kind)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if resp.Body != nil || resp.Listing != nil {
				t.Errorf("Stat returned a Body or Listing: %+v", resp)
			}
			got := *resp
			if !got.ModTime.Equal(c.want.ModTime) {
				t.Errorf("ModTime %v, want %v", got.ModTime, c.want.ModTime)
			}
			got.ModTime = c.want.ModTime // compared above, whatever its Location
			if want := fmt.Sprintf("HTTP/1.1 %d ", c.want.Status); !strings.HasPrefix(got.Head, want) || !strings.HasSuffix(got.Head, "\r\n\r\n") {
				t.Errorf("Head %q, want %q… through the empty line", got.Head, want)
			}
			got.Head = ""
			if got != c.want {
				t.Errorf("Stat = %+v\nwant   %+v", got, c.want)
			}
			if !tr.has("> HEAD " + c.path + " HTTP/1.1") {
				t.Errorf("trace lacks the HEAD request:\n%s", tr)
			}
		})
	}
	mu.Lock()
	defer mu.Unlock()
	for _, m := range methods {
		if m != http.MethodHead {
			t.Errorf("server saw %s, want HEAD only", m)
		}
	}
	// Stat keeps the connection for the next request.
	if n := e.dialer.count(); n != 1 {
		t.Errorf("%d dials, want 1", n)
	}
}

// TestStatEntry: the Stat response as a listing entry.
func TestStatEntry(t *testing.T) {
	e := newEnv(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "5")
		w.Header().Set("ETag", `"x"`)
	}, false)
	r, _ := e.req("/a%20b")
	resp, err := e.h.Stat(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	en := resp.Entry(r.URL)
	if en.Name != "a b" || en.Kind != schemes.EntryFile || en.Size != 5 || en.Locator != r.URL {
		t.Errorf("entry %+v", en)
	}
	if v, _ := en.Extra.Get("etag"); v != `"x"` {
		t.Errorf("etag extra %q", v)
	}
}

// TestStatHeadAsSent: Response.Head is the head as the server wrote it —
// the order of its fields, their spelling, the reason phrase, its line
// ends — which net/http's parsed header keeps none of (curl -I shows it
// so); the head of a 1xx answer before it is not part of it. Each of two
// requests on one kept connection gets its own.
func TestStatHeadAsSent(t *testing.T) {
	heads := []string{
		"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 Fine Indeed\r\nZ-First: 1\r\nETag: \"t\"\r\ncontent-length: 5\r\n\r\n",
		"HTTP/1.1 200 OK\r\nServer: two\r\nContent-Length: 7\r\n\r\n",
	}
	h, d, loc := oneConnServer(t, heads...)
	for i, want := range []string{heads[0][len("HTTP/1.1 100 Continue\r\n\r\n"):], heads[1]} {
		resp, err := h.Stat(context.Background(), &schemes.Request{URL: loc, Dialer: d, Trace: &recTrace{}})
		if err != nil {
			t.Fatal(err)
		}
		if resp.Head != want {
			t.Errorf("request %d: Head %q, want %q", i, resp.Head, want)
		}
	}
	if n := d.count(); n != 1 {
		t.Errorf("%d dials, want 1 (the connection kept)", n)
	}
}

// oneConnServer accepts one connection and answers its requests with
// replies, in order, each in one write; it returns a Handler and Dialer
// to ask it with, and the URL of its /f.
func oneConnServer(t *testing.T, replies ...string) (*Handler, *testDialer, *URL) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		br := bufio.NewReader(c)
		for _, r := range replies {
			if _, err := http.ReadRequest(br); err != nil {
				return
			}
			io.WriteString(c, r)
		}
	}()
	h := &Handler{}
	t.Cleanup(h.CloseIdleConnections)
	loc, err := parse("http://" + ln.Addr().String() + "/f")
	if err != nil {
		t.Fatal(err)
	}
	return h, &testDialer{}, loc
}

// TestStatHeadAsSentOverTLS: over https the head is the decrypted one as
// sent too, not rebuilt from net/http's fields (which would spell ETag
// "Etag").
func TestStatHeadAsSentOverTLS(t *testing.T) {
	e := newEnv(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header()["ETag"] = []string{`"t"`} // as written: net/http's server does not respell it
	}, true)
	r, _ := e.req("/f")
	resp, err := e.h.Stat(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(resp.Head, "HTTP/1.1 200 OK\r\n") || !strings.Contains(resp.Head, "\r\nETag: \"t\"\r\n") {
		t.Errorf("Head %q", resp.Head)
	}
}
