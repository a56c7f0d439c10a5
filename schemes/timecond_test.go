package schemes

import (
	"testing"
	"time"
)

var aTime = time.Date(2025, 1, 20, 12, 0, 0, 0, time.UTC)

// TestTimeCondition: If-Modified-Since leaves unsent a resource not
// modified after the date, If-Unmodified-Since one that may have been,
// compared to the second as HTTP dates and curl compare; an unknown time
// and a continued partial copy meet both.
func TestTimeCondition(t *testing.T) {
	sec := time.Second
	for _, tc := range []struct {
		name                string
		ims, ius            time.Time
		mod                 time.Time
		prec                time.Duration
		notModified, change bool
	}{
		{name: "none", mod: aTime, prec: sec},
		{name: "ims: older", ims: aTime, mod: aTime.Add(-time.Hour), prec: sec, notModified: true},
		{name: "ims: same second", ims: aTime, mod: aTime.Add(900 * time.Millisecond), prec: time.Nanosecond, notModified: true},
		{name: "ims: newer", ims: aTime, mod: aTime.Add(time.Second), prec: sec},
		{name: "ims: a day's listing time that may be later", ims: aTime, mod: aTime.Truncate(24 * time.Hour), prec: 24 * time.Hour},
		{name: "ims: unknown time", ims: aTime},
		{name: "ius: older", ius: aTime, mod: aTime.Add(-time.Hour), prec: sec},
		{name: "ius: same second", ius: aTime, mod: aTime, prec: sec},
		{name: "ius: newer", ius: aTime, mod: aTime.Add(time.Second), prec: sec, change: true},
		{name: "ius: a minute that may be later", ius: aTime, mod: aTime.Add(30 * time.Second).Truncate(time.Minute), prec: time.Minute, change: true},
		{name: "ius: unknown time", ius: aTime},
	} {
		req := &Request{IfModifiedSince: tc.ims, IfUnmodifiedSince: tc.ius}
		nm, ch := req.TimeCondition(tc.mod, tc.prec)
		if nm != tc.notModified || ch != tc.change {
			t.Errorf("%s: not modified %v, changed %v", tc.name, nm, ch)
		}
		req.Offset, req.Partial = 5, Partial{ModTime: aTime}
		if nm, ch := req.TimeCondition(tc.mod, tc.prec); nm || ch {
			t.Errorf("%s: a continued partial copy has conditions", tc.name)
		}
	}
}
