package main

import (
	"fmt"
	"strings"
	"time"
)

// hashBar is the progress line of -#/--progress-bar, as curl draws it: a
// bar of "#" across the terminal and the percentage at its end; with an
// unknown size, the bytes so far and the rate instead of a bar.
type hashBar struct{ m *meter }

// hashWidth is the width drawn when the terminal's is unknown.
const hashWidth = 80

func (h hashBar) view(now time.Time, width int) []string {
	if width <= 0 {
		width = hashWidth
	}
	m := h.m
	if m.total < 0 {
		r, ok := m.rate(now)
		rate := "--"
		if ok {
			rate = formatBytes(int64(r)) + "/s"
		}
		return []string{fit(width, []part{{text: formatBytes(m.done)}, {text: "  " + rate, drop: dropRate}})}
	}
	frac := 1.0
	if m.total > 0 {
		frac = min(1, float64(m.done)/float64(m.total))
	}
	pct := fmt.Sprintf(" %5.1f%%", frac*100)
	cells := max(width-1-len(pct), 1) // the last column stays free, as in meter.line
	fill := int(frac * float64(cells))
	return []string{strings.Repeat("#", fill) + strings.Repeat(" ", cells-fill) + pct}
}
