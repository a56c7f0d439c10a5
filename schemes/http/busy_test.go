package http

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

// TestBusy: 503 and 429 are KindBusy (exit 5, retryable) with the
// Retry-After the server asked for, bounded.
func TestBusy(t *testing.T) {
	date := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	e := newEnv(t, func(w http.ResponseWriter, r *http.Request) {
		code, _ := strconv.Atoi(r.URL.Query().Get("code"))
		if ra := r.URL.Query().Get("after"); ra != "" {
			w.Header().Set("Retry-After", ra)
		}
		w.Header().Set("Date", date.Format(http.TimeFormat))
		w.WriteHeader(code)
	}, false)
	for _, c := range []struct {
		code  int
		after string
		want  time.Duration
	}{
		{503, "120", 2 * time.Minute},
		{429, "0", 0},
		{503, "", 0},
		{429, date.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second},
		{503, date.Add(-time.Hour).Format(http.TimeFormat), 0},
		{503, "86400", maxRetryAfter},
		{429, date.Add(5 * time.Hour).Format(http.TimeFormat), maxRetryAfter},
		{503, "99999999999999999999999", maxRetryAfter},
		{429, "soon", 0},
		{503, "-5", 0},
	} {
		q := "/x?code=" + strconv.Itoa(c.code) + "&after=" + strings.ReplaceAll(strings.ReplaceAll(c.after, " ", "%20"), ",", "%2C")
		_, _, err := e.fetch(q)
		var se *schemes.Error
		if !errors.As(err, &se) || se.Kind != schemes.KindBusy || !se.Retryable || se.Code != c.code ||
			se.Kind.ExitCode() != 5 || se.RetryAfter != c.want {
			t.Errorf("%d Retry-After %q: err %#v, want KindBusy retryable after %v", c.code, c.after, err, c.want)
		}
	}
}

// TestRetryAfterWithoutDate: an HTTP-date is taken relative to now when
// the response has no Date.
func TestRetryAfterWithoutDate(t *testing.T) {
	now := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	h := http.Header{"Retry-After": {now.Add(3 * time.Minute).Format(http.TimeFormat)}}
	if got := retryAfter(h, now); got != 3*time.Minute {
		t.Errorf("retryAfter = %v, want 3m", got)
	}
}
