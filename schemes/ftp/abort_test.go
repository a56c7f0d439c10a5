package ftp

import (
	"context"
	"io"
	"strings"
	"testing"
)

// TestBodyEarlyClose: a file's body closed in the middle of its transfer
// stops it with ABOR and NOOP, and the login serves the next request
// (one control connection for both); a body whose context was cancelled
// instead drops its connection, since it may not talk to the server any
// more.
func TestBodyEarlyClose(t *testing.T) {
	big := strings.Repeat("0123456789abcdef", 1<<20) // 16 MiB: more than the socket buffers hold
	for _, cancelled := range []bool{false, true} {
		f := newFake(t)
		f.files["big.bin"] = big
		f.files["f.bin"] = "data"
		e := newEnv(t)
		ctx, cancel := context.WithCancel(context.Background())
		resp, err := e.h.Fetch(ctx, e.req(t, f.url("big.bin")))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(resp.Body, make([]byte, 1<<20)); err != nil {
			t.Fatal(err)
		}
		if cancelled {
			cancel()
		}
		resp.Body.Close()
		cancel()
		want := map[bool]int{false: 1, true: 0}[cancelled]
		if got := e.idle(); got != want {
			t.Errorf("cancelled %v: %d idle connections after Close, want %d\n%s", cancelled, got, want, e.trace)
		}
		got, _, err := e.get(t, f.url("f.bin"))
		if err != nil || got != "data" {
			t.Fatalf("the next fetch: %q, %v", got, err)
		}
		if n := f.connCount(); n != 2-want {
			t.Errorf("cancelled %v: %d control connections, want %d", cancelled, n, 2-want)
		}
	}
}
