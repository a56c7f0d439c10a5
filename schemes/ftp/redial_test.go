package ftp

import (
	"context"
	"io"
	"testing"
)

// TestStaleRedialedOnce: a server that drops every pooled control
// connection when it is used (the request's first command meets the
// close) costs each request one new connection, however many idle ones
// the pool holds: the pool re-dials once (schemes.Conns.Use), and the
// other stale sessions wait for later requests, each of which again
// re-dials once.
func TestStaleRedialedOnce(t *testing.T) {
	const idle = 3
	f := newFake(t)
	f.files["a.bin"] = "a"
	e := newEnv(t)
	// idle sessions in the pool: transfers open at once, then finished.
	var open []io.ReadCloser
	for range idle {
		resp, err := e.h.Fetch(context.Background(), e.req(t, f.url("a.bin")))
		if err != nil {
			t.Fatal(err)
		}
		open = append(open, resp.Body)
	}
	for _, b := range open {
		io.ReadAll(b)
		b.Close()
	}
	if e.idle() != idle {
		t.Fatalf("%d idle sessions, want %d", e.idle(), idle)
	}
	f.mu.Lock()
	f.dropServed = true
	f.mu.Unlock()
	for i := 1; i <= 2*idle; i++ {
		got, _, err := e.get(t, f.url("a.bin"))
		if err != nil || got != "a" {
			t.Fatalf("request %d: got %q %v\n%s", i, got, err, e.trace)
		}
		f.mu.Lock()
		conns, drops := f.conns, f.drops
		f.mu.Unlock()
		if conns != idle+i || drops != i {
			t.Fatalf("after request %d: %d connections, %d dropped on use; want %d and %d (one re-dial a request)\n%s",
				i, conns, drops, idle+i, i, e.trace)
		}
	}
}
