package conformance

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

// QueryTarget is one server of a scheme that answers queries rather than
// serving the fixture tree (finger: a reply per user name), described for
// the part of the suite that is about the connection, not about files:
// exact replies, cancellation, deadlines, concurrency, nothing left open.
type QueryTarget struct {
	// Name names the server in test output ("efingerd").
	Name string
	// URL is a query whose reply is Reply, byte for byte, every time.
	URL   string
	Reply []byte
	// BigURL is a query whose reply is long (at least 256 KiB), for the
	// subtests that cancel or time out mid-reply.
	BigURL string
}

// RunQueries runs the query subtests against tg.
func RunQueries(t *testing.T, tg QueryTarget) {
	for _, tc := range []struct {
		name string
		fn   func(*testing.T, QueryTarget)
	}{
		{"Reply", testQueryReply},
		{"CancelBeforeDial", testQueryCancelBeforeDial},
		{"CancelMidReply", testQueryCancelMid},
		{"DeadlineExceeded", testQueryDeadline},
		{"Concurrent8", testQueryConcurrent},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, tg) })
	}
}

// queryEnv is newEnv for a query target (no TLS, no fixtures).
func queryEnv(t *testing.T) *env { return newEnv(t, Target{}) }

func testQueryReply(t *testing.T, tg QueryTarget) {
	e := queryEnv(t)
	for range 2 { // the same reply again: the server keeps no state
		got, _, err := e.get(context.Background(), tg.URL)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, tg.Reply) {
			t.Fatalf("got %q, want %q", got, tg.Reply)
		}
	}
	waitFor(t, "connections closed", func() bool { return e.dialer.Open.Load() == 0 })
}

func testQueryCancelBeforeDial(t *testing.T, tg QueryTarget) {
	e := queryEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err := e.get(ctx, tg.URL)
	if !errors.Is(err, context.Canceled) && schemes.KindOf(err) != schemes.KindCanceled {
		t.Fatalf("err = %v, want canceled", err)
	}
	if n := e.dialer.Dials.Load(); n != 0 {
		t.Errorf("dialed %d times after cancel", n)
	}
}

func testQueryCancelMid(t *testing.T, tg QueryTarget) {
	cancelMid(t, func() *env { return queryEnv(t) }, tg.BigURL, 64<<10)
}

// testQueryDeadline: a deadline that passes mid-reply (waited for after
// a first read) fails the rest of it with KindTimeout.
func testQueryDeadline(t *testing.T, tg QueryTarget) {
	e := queryEnv(t)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	resp, err := e.c.Get(ctx, tg.BigURL)
	if err == nil {
		defer resp.Body.Close()
		if _, err = resp.Body.Read(make([]byte, 1024)); err == nil {
			<-ctx.Done()
			_, err = io.Copy(io.Discard, resp.Body)
		}
	}
	if !errors.Is(err, context.DeadlineExceeded) && schemes.KindOf(err) != schemes.KindTimeout {
		t.Fatalf("err = %v (kind %v), want the deadline", err, schemes.KindOf(err))
	}
}

func testQueryConcurrent(t *testing.T, tg QueryTarget) {
	concurrent8(t, queryEnv(t), func(int) (string, string) { return tg.URL, string(tg.Reply) })
}
