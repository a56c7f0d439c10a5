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

// line is the progress line at now, cut to width columns (0: unlimited):
// the name, then with a known size the percentage, a bar, bytes of the
// total, the rate and the time left; with an unknown size the bytes and
// the rate. Once the transfer ended the time left becomes the time taken.
// view is the meter's one line.
func (m *meter) view(now time.Time, width int) []string { return []string{m.line(now, width)} }

func (m *meter) line(now time.Time, width int) string {
	r, rateKnown := m.rate(now)
	rate := "--"
	if rateKnown {
		rate = formatBytes(int64(r)) + "/s"
	}
	var tail string
	if m.total >= 0 {
		pct := int64(100)
		if m.total > 0 {
			pct = min(100, m.done*100/m.total)
		}
		fill := int(pct * barCells / 100)
		tail = fmt.Sprintf(" %3d%% [%s%s] %s / %s  %s", pct, strings.Repeat("=", fill), strings.Repeat(" ", barCells-fill),
			formatBytes(m.done), formatBytes(m.total), rate)
	} else {
		tail = fmt.Sprintf("  %s  %s", formatBytes(m.done), rate)
	}
	switch {
	case m.final:
		tail += "  in " + formatClock(now.Sub(m.start))
	case m.total < 0:
	case r > 0 && m.done <= m.total:
		tail += "  ETA " + formatClock(time.Duration(float64(m.total-m.done)/r*float64(time.Second)))
	default:
		tail += "  ETA --:--"
	}
	name := m.name
	if width > 0 {
		room := width - 1 - utf8.RuneCountInString(tail) // the last column stays free: writing it wraps some terminals
		name = shortenLeft(name, max(room, 8))
		return cutRunes(name+tail, width-1)
	}
	return name + tail
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
