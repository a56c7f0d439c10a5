package main

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"
)

// t0 is the fake clock's start.
var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func TestMeterLine(t *testing.T) {
	const MiB = 1 << 20
	tests := []struct {
		name        string
		done, total int64
		after       time.Duration // since the meter started with 0 bytes
		final       bool
		want        string
	}{
		{"size known", 3 * MiB, 12 * MiB, 2 * time.Second, false,
			"f  25% [=====               ] 3.0 MiB / 12.0 MiB  1.5 MiB/s  ETA 0:06"},
		{"size unknown", 3 * MiB, -1, 2 * time.Second, false, "f  3.0 MiB  1.5 MiB/s"},
		{"nothing yet", 0, 100, 2 * time.Second, false, "f   0% [                    ] 0 B / 100 B  0 B/s  ETA --:--"},
		{"empty file", 0, 0, time.Second, false, "f 100% [====================] 0 B / 0 B  0 B/s  ETA --:--"},
		{"more than announced", 150, 100, time.Second, false, "f 100% [====================] 150 B / 100 B  150 B/s  ETA --:--"},
		{"hours left", 1 * MiB, 10000 * MiB, time.Second, false,
			"f   0% [                    ] 1.0 MiB / 9.8 GiB  1.0 MiB/s  ETA 2:46:39"},
		{"ended", 12 * MiB, 12 * MiB, 4 * time.Second, true,
			"f 100% [====================] 12.0 MiB / 12.0 MiB  3.0 MiB/s  in 0:04"},
	}
	for _, tc := range tests {
		m := newMeter("f", t0, 0, tc.total)
		m.set(tc.done, tc.total)
		m.final = tc.final
		if got := m.line(t0.Add(tc.after), 0); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

func TestMeterRateFollowsTheLastSeconds(t *testing.T) {
	m := newMeter("f", t0, 0, -1)
	now := t0
	for range 50 { // 10 s at 1 KiB per 200 ms: 5 KiB/s
		now = now.Add(redrawEvery)
		m.set(m.done+1024, -1)
		m.line(now, 0)
	}
	if got := m.line(now, 0); !strings.HasSuffix(got, "5.0 KiB/s") {
		t.Fatalf("steady transfer: %q, want 5.0 KiB/s", got)
	}
	for range 10 { // stalled for 2 s: 3 of the last 5 s had data
		now = now.Add(redrawEvery)
		m.line(now, 0)
	}
	if got := m.line(now, 0); !strings.HasSuffix(got, "3.0 KiB/s") {
		t.Fatalf("2 s into a stall: %q, want 3.0 KiB/s", got)
	}
	for range 20 {
		now = now.Add(redrawEvery)
		m.line(now, 0)
	}
	if got := m.line(now, 0); !strings.HasSuffix(got, " 0 B/s") {
		t.Fatalf("6 s into a stall: %q, want 0 B/s", got)
	}
	if len(m.samples) > int(rateWindow/redrawEvery)+2 {
		t.Errorf("%d samples kept, want the last %v only", len(m.samples), rateWindow)
	}
}

// TestMeterRateCountsNewBytesOnly: bytes held before the transfer (a
// resumed download's) are not part of its rate, nor are those a retry
// threw away when the server sent everything again.
func TestMeterRateCountsNewBytesOnly(t *testing.T) {
	type step struct {
		at   time.Duration // drawn then; 0: not drawn
		done int64
	}
	tests := []struct {
		name        string
		held, total int64
		steps       []step
		at          time.Duration
		live, final string
	}{
		{"resumed", 1 << 30, 2 << 30, []step{{time.Second, 1<<30 + 1024}, {0, 1<<30 + 2048}}, 2 * time.Second,
			" 1.0 KiB/s ", " 1.0 KiB/s "},
		// 800 bytes by 6 s, then the retry starts from 0 and has 100 at
		// 12 s: 100 B over the 6 s since the last draw, 100 B over 12 s.
		{"started over", 500, 1000, []step{{6 * time.Second, 800}, {0, 0}, {0, 100}}, 12 * time.Second,
			" 16 B/s ", " 8 B/s "},
	}
	for _, tc := range tests {
		m := newMeter("f", t0, tc.held, tc.total)
		for _, st := range tc.steps {
			m.set(st.done, tc.total)
			if st.at != 0 {
				m.line(t0.Add(st.at), 0)
			}
		}
		if got := m.line(t0.Add(tc.at), 0); !strings.Contains(got, tc.live) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.live)
		}
		m.final = true
		if got := m.line(t0.Add(tc.at), 0); !strings.Contains(got, tc.final) {
			t.Errorf("%s, final: %q, want %q", tc.name, got, tc.final)
		}
	}
}

func TestMeterLineFitsTheTerminal(t *testing.T) {
	name := "http://example.test/" + strings.Repeat("d/", 60) + "file.iso"
	m := newMeter(name, t0, 0, 1000)
	m.set(500, 1000)
	for _, width := range []int{40, 80, 200} {
		got := m.line(t0.Add(time.Second), width)
		if n := len([]rune(got)); n > width-1 {
			t.Errorf("width %d: %d runes: %q", width, n, got)
		}
		if width >= 80 && (!strings.Contains(got, "…") || !strings.Contains(got, "file.iso  50%")) {
			t.Errorf("width %d: want the name's end kept: %q", width, got)
		}
	}
}

// fakeConsole is a console on a buffer with a fake clock and a redraw
// clock the test ticks.
func fakeConsole(width int) (*console, *bytes.Buffer, chan time.Time, *time.Time) {
	var out bytes.Buffer
	now := t0
	ticks := make(chan time.Time)
	c := &console{w: &out, draw: true, now: func() time.Time { return now }, width: func() int { return width },
		tick: func() (<-chan time.Time, func()) { return ticks, func() {} }}
	return c, &out, ticks, &now
}

// screen is what a terminal shows after out: CR returns to the start of
// the line, ESC [ K erases to its end, ESC [ n A moves n lines up (one
// without n), LF goes to the start of the next line.
func screen(out string) []string {
	lines := [][]rune{{}}
	row, col := 0, 0
	for i := 0; i < len(out); {
		if strings.HasPrefix(out[i:], "\x1b[") {
			j := i + 2
			for j < len(out) && out[j] >= '0' && out[j] <= '9' {
				j++
			}
			n := 1
			if j > i+2 {
				n, _ = strconv.Atoi(out[i+2 : j])
			}
			switch out[j] {
			case 'K':
				lines[row] = lines[row][:min(col, len(lines[row]))]
			case 'A':
				row = max(row-n, 0)
			}
			i = j + 1
			continue
		}
		switch out[i] {
		case '\r':
			col = 0
		case '\n':
			row, col = row+1, 0
			if row == len(lines) {
				lines = append(lines, []rune{})
			}
		default:
			r := []rune(out[i:])[0]
			for len(lines[row]) < col {
				lines[row] = append(lines[row], ' ')
			}
			if col < len(lines[row]) {
				lines[row][col] = r
			} else {
				lines[row] = append(lines[row], r)
			}
			col++
			i += len(string(r))
			continue
		}
		i++
	}
	var shown []string
	for _, l := range lines {
		shown = append(shown, string(l))
	}
	for len(shown) > 0 && shown[len(shown)-1] == "" {
		shown = shown[:len(shown)-1]
	}
	return shown
}

func TestConsoleRedrawsWithoutBytes(t *testing.T) {
	c, out, ticks, now := fakeConsole(0)
	tr := c.start("u")
	if out.Len() != 0 {
		t.Fatalf("drawn before the transfer started: %q", out.String())
	}
	tr.update(0, -1)
	*now = now.Add(redrawEvery)
	ticks <- *now
	ticks <- *now
	tr.end()
	// Drawn when the first update came, on each tick, and at the end.
	if draws := strings.Count(out.String(), "\r"); draws != 4 {
		t.Fatalf("%d draws, want 4: %q", draws, out.String())
	}
	if got := screen(out.String()); len(got) != 1 || got[0] != "u  0 B  0 B/s  in 0:00" || !strings.HasSuffix(out.String(), "\n") {
		t.Fatalf("final screen %q (%q)", got, out.String())
	}
}

func TestConsoleMessagesNeverJoinTheProgressLine(t *testing.T) {
	c, out, ticks, now := fakeConsole(80)
	tr := c.start("u")
	tr.update(10, 100)
	c.say("a note\x1b[2J")
	*now = now.Add(time.Second)
	tr.update(50, 100)
	ticks <- *now
	release := c.hold()
	c.w.Write([]byte("Password: \n"))
	release()
	tr.end()
	c.say("an error")
	want := []string{
		"urlget: a note\\x1b[2J",
		"Password: ",
		"u  50% [==========          ] 50 B / 100 B  40 B/s  in 0:01",
		"urlget: an error",
	}
	if got := screen(out.String()); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("screen:\n%s\nwant\n%s\n(raw %q)", strings.Join(got, "\n"), strings.Join(want, "\n"), out.String())
	}
}

func TestConsoleWithoutTerminalDrawsNothing(t *testing.T) {
	var out bytes.Buffer
	c := newConsole(&out, false)
	tr := c.start("u")
	if tr.progress() != nil {
		t.Fatal("a progress callback without a terminal")
	}
	tr.end()
	c.say("note")
	if out.String() != "urlget: note\n" {
		t.Fatalf("%q", out.String())
	}
}
