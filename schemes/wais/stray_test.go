package wais

import (
	"bytes"
	"context"
	"errors"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// TestStrayReply: a server that answers one request with two replies has
// its session out of step — which reply answers the request cannot be
// told, and the next would read the other — so the exchange fails (exit
// 6, retryable), at the chunk it happens, and the connection is closed:
// a document never holds another reply's text, and the next request
// gets the document whole over a new connection. Before, the stray reply
// was read as the next chunk's text.
func TestStrayReply(t *testing.T) {
	doc := corpus(25000)
	other := bytes.Repeat([]byte("X"), 10000)
	for _, tc := range []struct {
		name  string
		after string // the range whose reply a stray one follows
	}{
		{"after the first chunk", "0"},
		{"after the second chunk", "10000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var injected atomic.Bool
			f := newFake(t, func(apdu []byte) []byte {
				m := rangeRE.FindSubmatch(apdu)
				start, _ := strconv.Atoi(string(m[1]))
				end, _ := strconv.Atoi(string(m[2]))
				out := textReply(doc[start:min(end, len(doc))])
				if string(m[1]) == tc.after && !injected.Swap(true) {
					out = append(out, textReply(other)...)
				}
				return out
			})
			url := f.url("/demo/TEXT/25000/1=x;2=db;3=doc;")
			b, _, tr, err := get(t, url)
			var se *schemes.Error
			if !errors.As(err, &se) || se.Kind != schemes.KindProtocol || !se.Retryable || se.Kind.ExitCode() != 6 {
				t.Fatalf("err = %v, want a retryable protocol error\n%s", err, tr)
			}
			if bytes.Contains(b, []byte("X")) {
				t.Errorf("the document holds the stray reply's text")
			}
			b, _, tr, err = get(t, url)
			if err != nil || !bytes.Equal(b, doc) {
				t.Fatalf("again: %d bytes, %v\n%s", len(b), err, tr)
			}
			if n := f.connCount(); n != 2 {
				t.Errorf("%d connections, want 2: the one out of step is not reused", n)
			}
		})
	}
}

// TestUnreadSessionNotKept: a session whose reader holds bytes beyond the
// replies read is closed, not kept, when it goes back to the pool.
func TestUnreadSessionNotKept(t *testing.T) {
	f := newFake(t, func([]byte) []byte { return append(textReply([]byte("one")), textReply([]byte("two"))...) })
	req, _ := request(t, f.url("/demo/TEXT/3/1=x;"))
	pool := &transport.Pool{}
	defer pool.CloseIdle()
	req.Conns = pool
	s, err := dial(context.Background(), req, req.URL.(*URL))
	if err != nil {
		t.Fatal(err)
	}
	apdu := retrieveAPDU("demo", []byte("\x01\x01x"), "TEXT", 0, 3)
	if _, err := s.c.Write(append(header(len(apdu)), apdu...)); err != nil {
		t.Fatal(err)
	}
	if _, err := readMessage(s.br); err != nil {
		t.Fatal(err)
	}
	if s.Unread() == 0 {
		t.Fatal("the second reply is not in the reader: the test proves nothing")
	}
	s.keep()
	if n := pool.Idle(); n != 0 {
		t.Errorf("%d sessions kept, want the one with unread bytes closed", n)
	}
	if _, err := s.c.Read(make([]byte, 1)); err == nil {
		t.Errorf("the connection is still open")
	}
}
