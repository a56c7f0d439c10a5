package main

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

var sizeTests = []struct {
	in   string
	want int64
	ok   bool
}{
	{"0", 0, true},
	{"1500", 1500, true},
	{"100k", 100 << 10, true},
	{"100K", 100 << 10, true},
	{"2m", 2 << 20, true},
	{"2M", 2 << 20, true},
	{"1g", 1 << 30, true},
	{"3G", 3 << 30, true},
	{"9223372036854775807", 1<<63 - 1, true},
	{"", 0, false},
	{"k", 0, false},
	{"-1", 0, false},
	{"+5", 0, false},
	{"1.5M", 0, false},
	{"10x", 0, false},
	{"10 k", 0, false},
	{"1t", 0, false},
	{"9000000000g", 0, false},
	{"9223372036854775808", 0, false},
}

func TestParseSize(t *testing.T) {
	for _, tc := range sizeTests {
		got, err := parseSize("limit-rate", tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "--limit-rate") {
			t.Errorf("parseSize(%q): error %q does not name the flag", tc.in, err)
		}
	}
}

func FuzzParseSize(f *testing.F) {
	for _, tc := range sizeTests {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := parseSize("max-filesize", s)
		if err != nil {
			return
		}
		if n < 0 {
			t.Fatalf("parseSize(%q) = %d", s, n)
		}
		// Round trip: the count written as plain bytes reads back the same.
		if back, err := parseSize("max-filesize", strconv.FormatInt(n, 10)); err != nil || back != n {
			t.Fatalf("parseSize(%q) = %d, which reads back as %d, %v", s, n, back, err)
		}
	})
}

func TestFormatBytesAndClock(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{{0, "0 B"}, {1023, "1023 B"}, {1024, "1.0 KiB"}, {1536, "1.5 KiB"}, {5 << 20, "5.0 MiB"}, {3 << 40, "3.0 TiB"}, {1<<63 - 1, "8.0 EiB"}} {
		if got := formatBytes(tc.n); got != tc.want {
			t.Errorf("formatBytes(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{{0, "0:00"}, {1499 * time.Millisecond, "0:01"}, {65 * time.Second, "1:05"}, {3*time.Hour + 2*time.Minute + 1*time.Second, "3:02:01"}} {
		if got := formatClock(tc.d); got != tc.want {
			t.Errorf("formatClock(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

// TestFormatSeconds: durations read as durations — never a float's
// artifacts such as "1.6099999999999999s" — to the millisecond.
func TestFormatSeconds(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0s"}, {2 * time.Second, "2s"}, {500 * time.Millisecond, "0.5s"},
		{1610 * time.Millisecond, "1.61s"}, {1609999999, "1.61s"}, {4300 * time.Millisecond, "4.3s"},
		{90 * time.Second, "90s"}, {1234567 * time.Microsecond, "1.235s"},
	} {
		if got := formatSeconds(tc.d); got != tc.want {
			t.Errorf("formatSeconds(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

// TestSecondsFlags: a flag's SECONDS is the duration written, which
// messages show as written ("no progress for 2.3s", not 2.299999999s).
func TestSecondsFlags(t *testing.T) {
	for f, want := range map[float64]string{2.3: "2.3s", 1.005: "1.005s", 0.1: "100ms", 30: "30s", 1.61: "1.61s"} {
		if got := seconds(f).String(); got != want {
			t.Errorf("seconds(%v) = %s, want %s", f, got, want)
		}
	}
}
