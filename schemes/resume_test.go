package schemes

import (
	"strings"
	"testing"
	"time"
)

func TestMayResume(t *testing.T) {
	t0 := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	rec := func(mod time.Time, size int64, etag, mode string) *ResumeRecord {
		return &ResumeRecord{ModTime: mod, Size: size, ETag: etag, Mode: mode}
	}
	remote := func(mod time.Time, size int64, etag, mode string) Remote {
		return Remote{ModTime: mod, Precision: time.Second, Size: size, ETag: etag, Mode: mode}
	}
	unknown := Remote{Size: -1}
	const curl = "as curl would"
	tests := []struct {
		name    string
		offset  int64
		partial Partial
		r       Remote
		ok      bool
		reason  string // a substring of the reason; "" wants none
	}{
		{"no offset", 0, Partial{}, remote(t0, 1000, "", ""), false, ""},
		{"negative offset", -1, Partial{}, remote(t0, 1000, "", ""), false, ""},
		{"remote shorter", 100, Partial{}, remote(t0, 50, "", ""), false, "is shorter than the partial copy"},
		{"remote shorter beats a matching record", 100, Partial{Record: rec(t0, 50, `"e1"`, "")},
			remote(t0, 50, `"e1"`, ""), false, "shorter"},
		{"remote exactly the partial's size", 100, Partial{Record: rec(time.Time{}, 100, "", "")},
			remote(time.Time{}, 100, "", ""), true, "matches the partial copy's record"},
		// A work file that lost its record (a copy made in segments is
		// full length, gaps included, from its start).
		{"work file without a record, full length", 100, Partial{Work: true, ModTime: t0.Add(time.Hour)},
			remote(t0, 100, "", ""), false, "no record of what they are"},
		{"work file without a record, shorter", 60, Partial{Work: true, ModTime: t0.Add(time.Hour)},
			remote(t0, 100, "", ""), true, "not newer"},
		{"work file without a record, size unknown", 100, Partial{Work: true, ModTime: t0.Add(time.Hour)},
			remote(t0, -1, "", ""), true, "not newer"},
		{"another tool's NAME, full length", 100, Partial{ModTime: t0.Add(time.Hour)},
			remote(t0, 100, "", ""), true, "not newer"},

		// A copy urlget recorded.
		{"record: same ETag", 100, Partial{Record: rec(time.Time{}, -1, `"e1"`, "")},
			remote(time.Time{}, -1, `"e1"`, ""), true, "matches"},
		{"record: ETag changed", 100, Partial{Record: rec(t0, 1000, `"e1"`, "")},
			remote(t0, 1000, `"e2"`, ""), false, `ETag changed ("e2", was "e1")`},
		{"record: ETag on one side only is not compared", 100, Partial{Record: rec(time.Time{}, -1, `"e1"`, "")},
			remote(time.Time{}, -1, "", ""), true, curl},
		{"record: mode changed", 100, Partial{Record: rec(t0, 1000, "", "A")},
			remote(t0, 1000, "", "I"), false, "made in mode A, this transfer uses I"},
		{"record: same mode proves nothing alone", 100, Partial{Record: rec(time.Time{}, -1, "", "I")},
			remote(time.Time{}, -1, "", "I"), true, curl},
		{"record: same time", 100, Partial{Record: rec(t0, -1, "", "")},
			remote(t0, -1, "", ""), true, "matches"},
		{"record: same time within a second", 100, Partial{Record: rec(t0, -1, "", "")},
			remote(t0.Add(700*time.Millisecond), -1, "", ""), true, "matches"},
		{"record: time within the remote's minute", 100, Partial{Record: rec(t0.Add(42*time.Second), -1, "", "")},
			Remote{ModTime: t0, Precision: time.Minute, Size: -1}, true, "matches"},
		{"record: time changed", 100, Partial{Record: rec(t0, 1000, "", "")},
			remote(t0.Add(2*time.Second), 1000, "", ""), false,
			"changed since the partial copy was made (modified 2024-03-01T12:00:02Z, was 2024-03-01T12:00:00Z)"},
		{"record: older remote is a change too", 100, Partial{Record: rec(t0, 1000, "", "")},
			remote(t0.Add(-time.Hour), 1000, "", ""), false, "changed since"},
		{"record: same size", 100, Partial{Record: rec(time.Time{}, 1000, "", "")},
			remote(time.Time{}, 1000, "", ""), true, "matches"},
		{"record: size changed", 100, Partial{Record: rec(t0, 1000, "", "")},
			remote(t0, 1001, "", ""), false, "size changed (1001 bytes, was 1000)"},
		{"record: unknown recorded size is not compared", 100, Partial{Record: rec(t0, -1, "", "")},
			remote(t0, 5000, "", ""), true, "matches"},
		{"record: nothing comparable", 100, Partial{Record: rec(time.Time{}, -1, "", ""), ModTime: t0},
			unknown, true, "nothing is known about the remote to compare with the partial copy's record; " +
				"continuing it as curl would"},
		{"record: the partial's own time does not count", 100,
			Partial{Record: rec(time.Time{}, -1, "", ""), ModTime: t0.Add(-time.Hour)},
			remote(t0, -1, "", ""), true, curl},

		// A copy another tool made: lftp's rule.
		{"no record: remote newer", 100, Partial{ModTime: t0}, remote(t0.Add(time.Minute), 1000, "", ""), false,
			"the remote (modified 2024-03-01T12:01:00Z) is newer than the partial copy (2024-03-01T12:00:00Z)"},
		{"no record: remote older", 100, Partial{ModTime: t0}, remote(t0.Add(-time.Hour), 1000, "", ""), true,
			"is not newer than the partial copy"},
		{"no record: same time", 100, Partial{ModTime: t0}, remote(t0, 1000, "", ""), true, "not newer"},
		{"no record: newer only within the remote's precision", 100, Partial{ModTime: t0},
			remote(t0.Add(500*time.Millisecond), -1, "", ""), true, "not newer"},
		{"no record: partial written later in the remote's minute", 100, Partial{ModTime: t0.Add(10 * time.Second)},
			Remote{ModTime: t0.Add(50 * time.Second), Precision: time.Minute, Size: -1}, true, "not newer"},
		{"no record: remote time unknown", 100, Partial{ModTime: t0}, unknown, true,
			"the remote's modification time is unknown; continuing the partial copy as curl would"},
		{"no record: partial time unknown", 100, Partial{}, remote(t0, 1000, "", ""), true, curl},
		{"no record: an ETag is no help", 100, Partial{ModTime: t0}, remote(time.Time{}, 1000, `"e"`, ""), true, curl},
	}
	for _, tt := range tests {
		req := &Request{Offset: tt.offset, Partial: tt.partial}
		ok, reason := req.MayResume(tt.r)
		if ok != tt.ok {
			t.Errorf("%s: ok %v (%q), want %v", tt.name, ok, reason, tt.ok)
		}
		if tt.reason == "" && reason != "" || !strings.Contains(reason, tt.reason) {
			t.Errorf("%s: reason %q, want one with %q", tt.name, reason, tt.reason)
		}
	}
}
