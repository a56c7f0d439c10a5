package http

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// maxRetryAfter is the longest Retry-After honoured. A server may ask for
// hours; urlget waits at most this long before its next try (when the
// caller retries at all), so that a script is never held up for longer
// than a person would wait at a prompt. A longer request is cut to it.
const maxRetryAfter = 10 * time.Minute

// retryAfter reads the Retry-After of a 503 or 429 (RFC 9110 §10.2.3):
// delta-seconds, or an HTTP-date taken relative to the response's Date
// (the server's clock, so that skew between the clocks does not count),
// or to now without one. The result is between 0 and maxRetryAfter; 0
// when the field is absent, malformed or in the past.
func retryAfter(h http.Header, now time.Time) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	var d time.Duration
	if allDigits(v) {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n > int64(maxRetryAfter/time.Second) {
			return maxRetryAfter // an overflow is a very long wait too
		}
		d = time.Duration(n) * time.Second
	} else if t, err := http.ParseTime(v); err == nil {
		if date, err := http.ParseTime(h.Get("Date")); err == nil {
			now = date
		}
		d = t.Sub(now)
	}
	return min(max(d, 0), maxRetryAfter)
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
