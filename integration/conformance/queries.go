package conformance

import (
	"bytes"
	"context"
	"errors"
	"io"
	"runtime"
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
	// subtests that cancel or time out mid-reply; "" when replies are
	// short documents (a Z39.50 record), whose server's long answer is a
	// listing (ListURL).
	BigURL string
	// ListURL is a query whose reply is a listing of at least 1,000
	// entries, streamed in exchanges as it is read (a Z39.50 search's
	// records), for the same subtests over a listing; "" when none.
	ListURL string
	// Options are the scheme options the client is built with (a listing
	// as long as ListURL's: z39.50's max); nil means the defaults.
	Options schemes.Options
}

// RunQueries runs the query subtests against tg.
// A subtest whose URL the target has none of is not run (and logged),
// rather than skipped.
func RunQueries(t *testing.T, tg QueryTarget) {
	for _, tc := range []struct {
		name string
		fn   func(*testing.T, QueryTarget)
		url  string
	}{
		{"Reply", testQueryReply, tg.URL},
		{"CancelBeforeDial", testQueryCancelBeforeDial, tg.URL},
		{"CancelMidReply", testQueryCancelMid, tg.BigURL},
		{"DeadlineExceeded", testQueryDeadline, tg.BigURL},
		{"CancelMidListing", testQueryCancelMidListing, tg.ListURL},
		{"DeadlineMidListing", testQueryDeadlineListing, tg.ListURL},
		{"Concurrent8", testQueryConcurrent, tg.URL},
	} {
		if tc.url == "" {
			t.Logf("%s: not applicable to %s", tc.name, tg.Name)
			continue
		}
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, tg) })
	}
}

// testQueryCancelMidListing lists ListURL, reads 300 entries, cancels,
// and checks that reading on fails within 10 s (the next exchange is
// not made, or is cut) and that no connection or goroutine is left.
func testQueryCancelMidListing(t *testing.T, tg QueryTarget) {
	before := runtime.NumGoroutine()
	e := queryEnv(t, tg)
	ctx, cancel := context.WithCancel(context.Background())
	resp, err := e.c.List(ctx, tg.ListURL)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	for i := range 300 {
		if _, err := resp.Listing.Next(); err != nil {
			cancel()
			t.Fatalf("entry %d: %v", i, err)
		}
	}
	cancel()
	done := make(chan error, 1)
	go func() {
		for {
			if _, err := resp.Listing.Next(); err != nil {
				done <- err
				return
			}
		}
	}()
	select {
	case err := <-done:
		if err == io.EOF {
			t.Errorf("listing read to the end after cancel")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("listing did not end within 10s of cancel")
	}
	resp.Listing.Close()
	e.c.CloseIdleConnections()
	waitFor(t, "connections closed", func() bool { return e.dialer.Open.Load() == 0 })
	waitFor(t, "goroutines gone", func() bool { return runtime.NumGoroutine() <= before })
}

// testQueryDeadlineListing: a deadline that passes mid-listing (waited
// for after the first entry) fails the rest of it with KindTimeout.
func testQueryDeadlineListing(t *testing.T, tg QueryTarget) {
	e := queryEnv(t, tg)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	resp, err := e.c.List(ctx, tg.ListURL)
	if err == nil {
		defer resp.Listing.Close()
		if _, err = resp.Listing.Next(); err == nil {
			<-ctx.Done()
			for err == nil {
				_, err = resp.Listing.Next()
			}
		}
	}
	if !errors.Is(err, context.DeadlineExceeded) && schemes.KindOf(err) != schemes.KindTimeout {
		t.Fatalf("err = %v (kind %v), want the deadline", err, schemes.KindOf(err))
	}
}

// queryEnv is newEnv for a query target (no TLS, no fixtures).
func queryEnv(t *testing.T, tg QueryTarget) *env { return newEnv(t, Target{Options: tg.Options}) }

func testQueryReply(t *testing.T, tg QueryTarget) {
	e := queryEnv(t, tg)
	for range 2 { // the same reply again: the server keeps no state
		got, _, err := e.get(context.Background(), tg.URL)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, tg.Reply) {
			t.Fatalf("got %q, want %q", got, tg.Reply)
		}
	}
	// A scheme that keeps its sessions (Z39.50's associations) closes
	// them when the client lets its idle connections go.
	e.c.CloseIdleConnections()
	waitFor(t, "connections closed", func() bool { return e.dialer.Open.Load() == 0 })
}

func testQueryCancelBeforeDial(t *testing.T, tg QueryTarget) {
	e := queryEnv(t, tg)
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
	cancelMid(t, func() *env { return queryEnv(t, tg) }, tg.BigURL, 64<<10)
}

// testQueryDeadline: a deadline that passes mid-reply (waited for after
// a first read) fails the rest of it with KindTimeout.
func testQueryDeadline(t *testing.T, tg QueryTarget) {
	e := queryEnv(t, tg)
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
	concurrent8(t, queryEnv(t, tg), func(int) (string, string) { return tg.URL, string(tg.Reply) })
}
