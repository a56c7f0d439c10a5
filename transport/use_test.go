package transport

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/urlget/urlget/schemes"
)

// TestPoolUse: Use lends an idle session, else dials one; a leased
// session use reports stale is replaced by one dialed session, once —
// never a second re-dial, none for a dialed session, none once the
// request's context is done.
func TestPoolUse(t *testing.T) {
	stale := errors.New("stale")
	dialFailed := errors.New("dial failed")
	for _, tc := range []struct {
		name      string
		idle      int                    // sessions in the pool before
		stale     func(leased bool) bool // what use reports, failing, for each session
		cancel    bool                   // the context ends during the first use
		dialErr   bool
		wantCalls []bool // leased, for each call of use
		wantDials int
		wantErr   error
	}{
		{"none idle", 0, func(bool) bool { return false }, false, false, []bool{false}, 1, nil},
		{"idle, fine", 2, func(bool) bool { return false }, false, false, []bool{true}, 0, nil},
		{"idle, stale", 2, func(l bool) bool { return l }, false, false, []bool{true, false}, 1, nil},
		{"stale, and the new one too", 2, func(bool) bool { return true }, false, false, []bool{true, false}, 1, stale},
		{"none idle, dialed one stale", 0, func(bool) bool { return true }, false, false, []bool{false}, 1, stale},
		{"stale after the context ended", 2, func(bool) bool { return true }, true, false, []bool{true}, 0, stale},
		{"stale, dial fails", 2, func(l bool) bool { return l }, false, true, []bool{true}, 1, dialFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newServer(t, lineServer)
			d := &Dialer{}
			p := &Pool{}
			defer p.CloseIdle()
			key := keyFor(t, d, false, "", "", srv.port())
			for range tc.idle {
				p.Keep(key, dialSession(t, d, srv))
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			dials := 0
			dial := func(ctx context.Context) (schemes.Session, error) {
				dials++
				if tc.dialErr {
					return nil, dialFailed
				}
				return dialSession(t, d, srv), nil
			}
			var calls []bool
			err := p.Use(ctx, key, nil, dial, func(s schemes.Session, leased bool) (bool, error) {
				calls = append(calls, leased)
				defer s.Close() // use owns the session
				if tc.cancel {
					cancel()
				}
				if tc.stale(leased) {
					return true, stale
				}
				return false, roundTrip(s)
			})
			if !errors.Is(err, tc.wantErr) || err == nil && tc.wantErr != nil {
				t.Errorf("err %v, want %v", err, tc.wantErr)
			}
			if !slices.Equal(calls, tc.wantCalls) || dials != tc.wantDials {
				t.Errorf("use called leased=%v, %d dials; want %v, %d", calls, dials, tc.wantCalls, tc.wantDials)
			}
		})
	}
}
