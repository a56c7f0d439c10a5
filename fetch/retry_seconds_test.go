package fetch

import (
	"testing"
	"time"
)

// TestMaxTimeExpiredReadsAsSeconds: "--max-time 1.61s expired", as the
// flag was given, never "1.6099999999999999s".
func TestMaxTimeExpiredReadsAsSeconds(t *testing.T) {
	for limit, want := range map[time.Duration]string{
		1610 * time.Millisecond: "--max-time 1.61s expired",
		2 * time.Second:         "--max-time 2s expired",
		300 * time.Millisecond:  "--max-time 0.3s expired",
	} {
		if got := (&MaxTimeExpired{Limit: limit}).Error(); got != want {
			t.Errorf("%v: %q, want %q", limit, got, want)
		}
	}
}
