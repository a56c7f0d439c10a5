package fetch

import (
	"testing"
	"time"
)

// TestMaxTimeExpiredReadsAsSeconds: "--max-time 1.61s expired", as the
// flag was given, never "1.6099999999999999s"; without the caller's
// words, the setting's name.
func TestMaxTimeExpiredReadsAsSeconds(t *testing.T) {
	for _, tc := range []struct {
		limit      time.Duration
		name, want string
	}{
		{1610 * time.Millisecond, "--max-time", "--max-time 1.61s expired"},
		{2 * time.Second, "--max-time", "--max-time 2s expired"},
		{300 * time.Millisecond, "--max-time", "--max-time 0.3s expired"},
		{300 * time.Millisecond, "", "fetch.MaxTime 0.3s expired"},
	} {
		if got := (&MaxTimeExpired{Limit: tc.limit, Name: tc.name}).Error(); got != tc.want {
			t.Errorf("%v %q: %q, want %q", tc.limit, tc.name, got, tc.want)
		}
	}
}
