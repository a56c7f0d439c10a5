package main

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/urlget/urlget/mirror"
)

// TestProgressLinesKeepTheirCounts: every progress line — a single
// transfer's, -Z's and a mirror's — fits terminals of 40, 80 and 110
// columns (the last column left free) by shortening from the right: the
// bar, the rate, the time left and totals go first, a URL loses its
// start, and the counts stay. A mirror's line at 110 columns was cut
// from the left ("…anged, 0 failed, …"), losing the files fetched.
func TestProgressLinesKeepTheirCounts(t *testing.T) {
	b := newMirrorBoard(t0)
	for range 3 {
		b.event(mirror.Event{Type: mirror.EventGet, Bytes: 4 << 20})
	}
	for range 2019 {
		b.event(mirror.Event{Type: mirror.EventSkip, Reason: mirror.ReasonUnchanged})
	}
	for range 21 {
		b.event(mirror.Event{Type: mirror.EventListed})
	}
	b.planned(mirror.Plan{Files: 5, Bytes: 76 << 20, Walked: true})
	b.progress("bin/big-64M.bin", 20<<20, 64<<20)

	set := newParallelSet(200)
	set.m = newMeter("", t0, 0, -1) // on the test's clock
	set.progress(nil)(3<<20, -1)
	for i := range 13 {
		set.finished(i == 0)
	}

	single := newMeter("http://example.test/"+strings.Repeat("d/", 20)+"file.iso", t0, 0, 1000)
	single.set(500, 1000)

	now := t0.Add(3 * time.Second)
	for _, tc := range []struct {
		width                  int
		mirror, parallel, file string
	}{
		{40, "3 fetched, 2019 unchanged, 0 failed",
			"13/200 files (1 failed)  3.0 MiB",
			"…d/d/d/d/d/file.iso  50% 500 B / 1000 B"},
		{80, "mirror: 3 fetched, 2019 unchanged, 0 failed  42% 32.0 MiB",
			"13/200 files (1 failed)  3.0 MiB  1.0 MiB/s",
			"…/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/file.iso  50% 500 B / 1000 B  166 B/s  ETA 0:03"},
		{110, "mirror: 3 fetched, 2019 unchanged, 0 failed, 21 directories listed  42% 32.0 MiB / 76.0 MiB  ETA 0:04",
			"13/200 files (1 failed)  3.0 MiB  1.0 MiB/s",
			"…d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/file.iso  50% [==========          ] 500 B / 1000 B  166 B/s  ETA 0:03"},
	} {
		lines := b.view(now, tc.width)
		got := map[string]string{"mirror": lines[0], "parallel": set.view(now, tc.width)[0], "file": single.line(now, tc.width)}
		want := map[string]string{"mirror": tc.mirror, "parallel": tc.parallel, "file": tc.file}
		for _, l := range append(lines, got["parallel"], got["file"]) {
			if n := utf8.RuneCountInString(l); n > tc.width-1 {
				t.Errorf("width %d: %d columns: %q", tc.width, n, l)
			}
		}
		for k, w := range want {
			if got[k] != w {
				t.Errorf("width %d, %s:\n got %q\nwant %q", tc.width, k, got[k], w)
			}
		}
		if !strings.HasPrefix(lines[1], "  bin/big-64M.bin   31% 20.0 MiB") {
			t.Errorf("width %d, a transfer: %q", tc.width, lines[1])
		}
	}
}

// TestFitCutsFromTheRight: a terminal narrower than a line's counts
// shows their start, never their end.
func TestFitCutsFromTheRight(t *testing.T) {
	parts := []part{{text: "mirror: ", drop: 1}, {text: "123456 fetched"}, {text: ", 7 unchanged"}, {text: "  9 MiB/s", drop: dropRate}}
	for width, want := range map[int]string{10: "123456 fe", 30: "123456 fetched, 7 unchanged", 0: "mirror: 123456 fetched, 7 unchanged  9 MiB/s"} {
		if got := fit(width, parts); got != want {
			t.Errorf("width %d: %q, want %q", width, got, want)
		}
	}
	name := []part{{text: "http://h/" + strings.Repeat("x", 50) + "/file.iso", name: true}, {text: "  50%"}, {text: " 500 B"}}
	if got := fit(20, name); got != "…ile.iso  50% 500 B" {
		t.Errorf("a name in 20 columns: %q", got)
	}
}

// TestMirrorBoardFinished: the last drawing of a finished mirror says
// how long it took, not a time left ("ETA --:--" stayed on the screen).
func TestMirrorBoardFinished(t *testing.T) {
	b := newMirrorBoard(t0)
	b.planned(mirror.Plan{Files: 1, Bytes: 4 << 20, Walked: true})
	b.event(mirror.Event{Type: mirror.EventGet, Bytes: 4 << 20})
	b.finish()
	if l := b.view(t0.Add(2*time.Second), 0)[0]; !strings.HasSuffix(l, "100% [====================] 4.0 MiB / 4.0 MiB  2.0 MiB/s  in 0:02") {
		t.Fatalf("finished: %q", l)
	}
}
