package ftp

import (
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

// TestRetryAfter: the wait a 421 text states, bounded; the default texts
// of vsftpd, proftpd and pure-ftpd state none, whatever figures they hold.
func TestRetryAfter(t *testing.T) {
	for _, tc := range []struct {
		text string
		want time.Duration
	}{
		{"Too many connections, try again in 30 seconds", 30 * time.Second},
		{"Service busy: please retry after 2 minutes.", 2 * time.Minute},
		{"Server full. Please wait 90 sec and reconnect", 90 * time.Second},
		{"Try again in 5m", 5 * time.Minute},
		{"try again in 1 hour", maxRetryAfter},
		{"try again in 999999999999 seconds", maxRetryAfter},
		{"try again in 601 seconds", maxRetryAfter},
		{"Please try again later.", 0},
		// vsftpd
		{"There are too many connected users, please try later.", 0},
		{"There are too many connections from your internet address.", 0},
		{"Timeout.", 0},
		{"Data timeout. Reconnect. Sorry.", 0},
		// proftpd
		{"Idle timeout (600 seconds): closing control connection", 0},
		{"Login timeout (300 seconds): closing control connection", 0},
		// pure-ftpd
		{"10 users (the maximum) are already logged in, sorry", 0},
		{"Too many connections (8) from this IP", 0},
		{"Timeout (no operation for 900 seconds)", 0},
	} {
		if got := retryAfter(tc.text); got != tc.want {
			t.Errorf("%q: %v, want %v", tc.text, got, tc.want)
		}
	}
}

// Test421RetryAfter: a 421 that states a wait is a busy error that asks
// --retry to wait that long.
func Test421RetryAfter(t *testing.T) {
	for _, tc := range []struct {
		greeting string
		want     time.Duration
	}{
		{"421 Too many connections, try again in 30 seconds", 30 * time.Second},
		{"421 There are too many connected users, please try later.", 0},
	} {
		f := newFake(t)
		f.greeting = tc.greeting
		_, _, err := newEnv(t).get(t, f.url("f.bin"))
		se := kindCode(t, err, schemes.KindBusy, 421, true)
		if se.RetryAfter != tc.want {
			t.Errorf("%q: RetryAfter %v, want %v", tc.greeting, se.RetryAfter, tc.want)
		}
	}
}

func FuzzRetryAfter(f *testing.F) {
	for _, s := range []string{"try again in 30 seconds", "Idle timeout (600 seconds)", "retry after 9999999999 hours"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if d := retryAfter(s); d < 0 || d > maxRetryAfter {
			t.Errorf("%q: %v", s, d)
		}
	})
}
