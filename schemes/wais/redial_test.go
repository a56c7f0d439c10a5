package wais

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// TestStaleRedialedOnce: a server that drops every pooled connection when
// it is used (the request's first APDU meets the close, before any reply)
// costs each request one new connection, however many idle ones the pool
// holds: the pool re-dials once (schemes.Conns.Use).
func TestStaleRedialedOnce(t *testing.T) {
	const idle = 3
	doc := corpus(300)
	f := docServer(t, doc)
	pool := &transport.Pool{}
	defer pool.CloseIdle()
	h := &Handler{}
	fetch := func() (*schemes.Response, *recTrace, error) {
		req, tr := request(t, f.url("/demo/TEXT/300/1=x;"))
		req.Conns = pool
		resp, err := h.Fetch(context.Background(), req)
		return resp, tr, err
	}
	var open []*schemes.Response
	for range idle { // sessions in the pool: documents open at once, then read
		resp, _, err := fetch()
		if err != nil {
			t.Fatal(err)
		}
		open = append(open, resp)
	}
	for _, resp := range open {
		io.ReadAll(resp.Body)
		resp.Close()
	}
	if pool.Idle() != idle {
		t.Fatalf("%d idle sessions, want %d", pool.Idle(), idle)
	}
	f.dropServed.Store(true)
	for i := 1; i <= 2*idle; i++ {
		resp, tr, err := fetch()
		if err != nil {
			t.Fatalf("request %d: %v\n%s", i, err, tr)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Close()
		if err != nil || !bytes.Equal(b, doc) {
			t.Fatalf("request %d: %d bytes, %v\n%s", i, len(b), err, tr)
		}
		if n, d := f.connCount(), int(f.drops.Load()); n != idle+i || d != i {
			t.Fatalf("after request %d: %d connections, %d dropped on use; want %d and %d (one re-dial a request)\n%s", i, n, d, idle+i, i, tr)
		}
	}
}
