package main

import (
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/mirror"
)

// TestMirrorBoard: an overall line and one line per transfer under way,
// redrawn in place; a message goes above the board, never inside it; a
// finished transfer leaves the board, and the last drawing stays.
func TestMirrorBoard(t *testing.T) {
	c, out, ticks, now := fakeConsole(80)
	b := newMirrorBoard(*now)
	stop := c.show(b)
	b.progress("d1/a.bin", 1<<20, 4<<20)
	b.progress("d2/b.bin", 512, -1)
	ticks <- *now
	ticks <- *now // taken only once the first redraw is done
	c.mu.Lock()
	got := screen(out.String())
	c.mu.Unlock()
	if len(got) != 3 || !strings.HasPrefix(got[0], "mirror: 0 fetched") ||
		!strings.Contains(got[1], "d1/a.bin") || !strings.Contains(got[1], " 25% 1.0 MiB / 4.0 MiB") ||
		!strings.Contains(got[2], "d2/b.bin") {
		t.Fatalf("board:\n%s", strings.Join(got, "\n"))
	}
	c.say("mirror: d3/c.bin: refused")
	b.event(mirror.Event{Type: mirror.EventGet, Path: "d1/a.bin", Bytes: 4 << 20})
	ticks <- *now
	stop()
	got = screen(out.String())
	if len(got) != 3 || got[0] != "urlget: mirror: d3/c.bin: refused" || !strings.HasPrefix(got[1], "mirror: 1 fetched") ||
		!strings.Contains(got[2], "d2/b.bin") {
		t.Fatalf("after a message and a finished transfer:\n%s", strings.Join(got, "\n"))
	}
}

// TestMirrorBoardLimitsLines: past boardTransfers transfers, one line
// says how many more.
func TestMirrorBoardLimitsLines(t *testing.T) {
	b := newMirrorBoard(t0)
	for i := range boardTransfers + 3 {
		b.progress(strings.Repeat("x", i+1), 1, 10)
	}
	lines := b.view(t0, 0)
	if len(lines) != boardTransfers+2 || lines[len(lines)-1] != "  … and 3 more" {
		t.Fatalf("%d lines:\n%s", len(lines), strings.Join(lines, "\n"))
	}
}

// TestMirrorBoardTimeLeft: once the walk is over, the overall line shows
// the share of the planned bytes moved and the time left.
func TestMirrorBoardTimeLeft(t *testing.T) {
	b := newMirrorBoard(t0)
	b.progress("a", 1<<20, 4<<20)
	if l := b.view(t0.Add(time.Second), 0)[0]; strings.Contains(l, "%") || strings.Contains(l, "ETA") {
		t.Fatalf("a percentage before the walk is over: %q", l)
	}
	b.planned(mirror.Plan{Files: 2, Bytes: 8 << 20, Walked: true})
	b.progress("a", 2<<20, 4<<20)
	if l := b.view(t0.Add(2*time.Second), 0)[0]; !strings.Contains(l, " 25%") || !strings.Contains(l, "ETA") {
		t.Fatalf("after the walk: %q", l)
	}
}
