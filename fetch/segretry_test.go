package fetch

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

// busyRanges is a rangeServer that turns away range requests (an offset
// past 0) as a busy server does, retryable and with a Retry-After: the
// first fail of them, or all when fail < 0.
type busyRanges struct {
	*rangeServer
	fail       int
	retryAfter time.Duration

	mu      sync.Mutex
	refused int
}

func (b *busyRanges) Fetch(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	if req.Offset > 0 {
		b.mu.Lock()
		refuse := b.fail < 0 || b.refused < b.fail
		if refuse {
			b.refused++
		}
		b.mu.Unlock()
		if refuse {
			return nil, &schemes.Error{Scheme: "t", Phase: "request", Kind: schemes.KindBusy, Retryable: true,
				RetryAfter: b.retryAfter, Msg: "too many connections"}
		}
	}
	return b.rangeServer.Fetch(ctx, req)
}

// TestSegmentsRetryRule: a range a server turns away is asked for again
// under the Client's retry rule, as a whole download is: at most Retries
// times in all (a connection that may not retry stops, its range left to
// the others), each after the server's Retry-After (longer than
// RetryDelay), said in a note. No rule of its own: without Retries, a
// refused range is not asked for again by the connection it failed on.
// The first connection's body, from byte 0, runs on through the ranges
// refused, so the download ends whole either way.
func TestSegmentsRetryRule(t *testing.T) {
	const retryAfter = 40 * time.Millisecond
	for _, tc := range []struct {
		name    string
		retries int
		fail    int // ranges refused; -1: all
	}{
		{"no retries, ranges refused", 0, -1},
		{"two retries, ranges refused", 2, -1},
		{"three retries, two refusals", 3, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := randomData(12 << 20) // 3 segments of 4 MiB
			b := &busyRanges{rangeServer: &rangeServer{data: data, mod: time.Unix(1e9, 0), etag: `"a"`}, fail: tc.fail, retryAfter: retryAfter}
			r := schemes.NewRegistry()
			r.Register(schemes.Scheme{Name: "t", Handler: b, Caps: schemes.Retrieves | schemes.Resumes,
				Parse: func(u *schemes.URL) (schemes.Locator, error) { return fakeLoc{u}, nil }})
			var mu sync.Mutex
			var notes []string
			c := &Client{Registry: r, Retries: tc.retries, RetryDelay: time.Millisecond, Notify: func(m string) {
				mu.Lock()
				notes = append(notes, m)
				mu.Unlock()
			}}
			dest := filepath.Join(t.TempDir(), "f")
			_, err := c.Download(context.Background(), "t:f", dest, DownloadOptions{Segments: 4})
			if err != nil { // the first connection's body runs on through the ranges refused
				t.Fatal(err)
			}
			sameFile(t, dest, data)
			mu.Lock()
			defer mu.Unlock()
			retried := 0
			for _, n := range notes {
				if !strings.Contains(n, "retrying in") {
					continue
				}
				retried++
				if !strings.Contains(n, "retrying in "+retryAfter.String()) {
					t.Errorf("note %q: the wait is not the server's Retry-After (%v)", n, retryAfter)
				}
			}
			want := tc.retries
			if tc.fail >= 0 {
				want = tc.fail
			}
			if retried != want {
				t.Errorf("%d retries noted, want %d:\n%s", retried, want, strings.Join(notes, "\n"))
			}
			// Each refusal is retried (a note) or stops its connection:
			// 3 connections, so at most 3 refusals more than retries.
			b.mu.Lock()
			refused := b.refused
			b.mu.Unlock()
			if refused > tc.retries+3 {
				t.Errorf("%d ranges refused with %d retries: asked again outside the rule", refused, tc.retries)
			}
		})
	}
}
