package main

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// redrawEvery is how often the progress line is redrawn while a transfer
// runs, whether or not bytes arrived: a stalled transfer shows its rate
// falling and its time passing instead of a frozen line.
const redrawEvery = 200 * time.Millisecond

// rateWindow is the span the shown rate is measured over: long enough to
// be steady, short enough that a stall shows within seconds.
const rateWindow = 5 * time.Second

// barCells is the width of the bar drawn when the size is known.
const barCells = 20

// meter is the state of one transfer's progress line: what it has
// received, of what total, and recent samples for the rate. It only
// computes text; console draws it.
type meter struct {
	name        string
	start       time.Time
	first       int64 // bytes held when the transfer started (a resumed download's)
	done, total int64 // total is -1 when unknown
	samples     []sample
	final       bool // the transfer ended: show the average rate and the time it took
}

// sample is the byte count at one moment, for the rate.
type sample struct {
	at   time.Time
	done int64
}

func newMeter(name string, now time.Time, done, total int64) *meter {
	return &meter{name: name, start: now, first: done, done: done, total: total,
		samples: []sample{{now, done}}}
}

// set records the bytes held so far and the total (-1: unknown).
func (m *meter) set(done, total int64) {
	if done < m.done {
		// The transfer started over (the server would not resume): count
		// the rate from the new start, never below zero.
		m.first = done
		for i := range m.samples {
			m.samples[i].done = done
		}
	}
	m.done, m.total = done, total
}

// rate is the bytes a second over the last rateWindow, or over the
// whole transfer once it ended; ok is false before any time has passed.
func (m *meter) rate(now time.Time) (perSecond float64, ok bool) {
	if last := &m.samples[len(m.samples)-1]; !now.After(last.at) {
		last.done = m.done // drawn twice at one moment: one sample
	} else {
		m.samples = append(m.samples, sample{now, m.done})
	}
	for len(m.samples) > 1 && !m.samples[1].at.After(now.Add(-rateWindow)) {
		m.samples = m.samples[1:]
	}
	from := m.samples[0]
	if m.final {
		from = sample{m.start, m.first}
	}
	dt := now.Sub(from.at).Seconds()
	if dt < 0.001 {
		return 0, false
	}
	return float64(m.done-from.done) / dt, true
}

// line is the progress line at now, fitted to width columns (0:
// unlimited, see fit): the name, then with a known size the percentage,
// a bar, bytes of the total, the rate and the time left; with an unknown
// size the bytes and the rate. Once the transfer ended the time left
// becomes the time taken.
// view is the meter's one line.
func (m *meter) view(now time.Time, width int) []string { return []string{m.line(now, width)} }

func (m *meter) line(now time.Time, width int) string {
	return fit(width, append([]part{{text: m.name, name: true}}, m.parts(now)...))
}

// How readily the meter's parts go from a line that does not fit (see
// part): the bar first, then the rate, the time left and the total; the
// percentage and the bytes are the counts, and stay. Drops 1 to 3 are
// left for the lines that put counts of their own first (behind).
const (
	dropTotal = 4 + iota
	dropTime
	dropRate
	dropBar
)

// parts are the line's figures after its name, each with its drop.
func (m *meter) parts(now time.Time) []part {
	r, rateKnown := m.rate(now)
	rate := "--"
	if rateKnown {
		rate = formatBytes(int64(r)) + "/s"
	}
	var out []part
	if m.total >= 0 {
		pct := int64(100)
		if m.total > 0 {
			pct = min(100, m.done*100/m.total)
		}
		fill := int(pct * barCells / 100)
		out = []part{{text: fmt.Sprintf(" %3d%%", pct)},
			{text: fmt.Sprintf(" [%s%s]", strings.Repeat("=", fill), strings.Repeat(" ", barCells-fill)), drop: dropBar},
			{text: " " + formatBytes(m.done)}, {text: " / " + formatBytes(m.total), drop: dropTotal}}
	} else {
		out = []part{{text: "  " + formatBytes(m.done)}}
	}
	out = append(out, part{text: "  " + rate, drop: dropRate})
	switch {
	case m.final:
		out = append(out, part{text: "  in " + formatClock(now.Sub(m.start)), drop: dropTime})
	case m.total < 0:
	case r > 0 && m.done <= m.total:
		out = append(out, part{text: "  ETA " + formatClock(time.Duration(float64(m.total-m.done)/r*float64(time.Second))), drop: dropTime})
	default:
		out = append(out, part{text: "  ETA --:--", drop: dropTime})
	}
	return out
}

// shortenLeft keeps the end of s (where a URL's file name is) within n
// runes, marking the cut with "…".
func shortenLeft(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return "…" + string(r[len(r)-(n-1):])
}

// cutRunes keeps the first n runes of s.
func cutRunes(s string, n int) string {
	if n <= 0 {
		return ""
	}
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}
