package http

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlget/urlget/internal/await"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// TestIdleLimitsFollowConns: the keep-alive connections kept per host
// are as many as the request's Conns keeps sessions per key
// (schemes.IdleLimiter), the pool's default of 16 when it says nothing.
// Each case runs n requests at once twice; the server holds each round's
// requests until all n are in, so a round needs n connections at the same
// time: the first dials n, and the second dials again only those the
// first could not keep. No connection is given back during a round, so
// net/http dials nothing the round does not use.
func TestIdleLimitsFollowConns(t *testing.T) {
	def := transport.DefaultMaxIdlePerKey
	n := def + 8
	for _, tc := range []struct {
		name  string
		conns schemes.Conns
		kept  int
	}{
		{"pool sized for n", &transport.Pool{MaxIdlePerKey: n}, n},
		{"pool with the default", &transport.Pool{}, def},
		{"no Conns", nil, def},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var round atomic.Pointer[meeting]
			e := newEnv(t, func(w http.ResponseWriter, r *http.Request) {
				round.Load().arrive(r.Context())
				w.Write([]byte("ok"))
			}, false)
			for i, want := range []int{n, n - tc.kept} {
				round.Store(newMeeting(n))
				before := e.dialer.count()
				fetchAtOnce(t, e, tc.conns, n)
				if got := e.dialer.count() - before; got != want {
					t.Fatalf("round %d: %d new connections for %d requests at once, want %d (%d kept)",
						i+1, got, n, want, tc.kept)
				}
			}
		})
	}
}

// fetchAtOnce runs n fetches of e's server at once with conns, each body
// read to its end (which is when net/http keeps the connection).
func fetchAtOnce(t *testing.T, e *env, conns schemes.Conns, n int) {
	t.Helper()
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, _ := e.req(fmt.Sprintf("/%d", i))
			r.Conns = conns
			resp, err := e.h.Fetch(context.Background(), r)
			if err != nil {
				t.Error(err)
				return
			}
			if body := readAll(t, resp); body != "ok" {
				t.Errorf("body %q", body)
			}
		}()
	}
	wg.Wait()
}

// meeting holds requests until n are in, so that n are under way at once.
type meeting struct {
	n   int64
	in  atomic.Int64
	all chan struct{}
}

func newMeeting(n int) *meeting { return &meeting{n: int64(n), all: make(chan struct{})} }

// arrive waits until n requests have arrived, this one included, or ctx
// is done; bounded by await.Timeout, so that a client that never has n
// under way fails the count rather than hangs.
func (m *meeting) arrive(ctx context.Context) {
	if m.in.Add(1) == m.n {
		close(m.all)
	}
	select {
	case <-m.all:
	case <-ctx.Done():
	case <-time.After(await.Timeout):
	}
}
