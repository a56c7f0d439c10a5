package main

import (
	"strings"
	"unicode/utf8"
)

// part is a piece of a progress line. A line that does not fit the
// terminal gives up its parts in the order of their drop, the highest
// first (a bar, then the rate, the time left, totals: what a person can
// do without); a part of drop 0 is a count and stays. A name (a URL) is
// not dropped but shortened from its left, where a URL is least telling.
type part struct {
	text string
	drop int
	name bool
}

// minName is the fewest runes a shortened name keeps ("…" and 7 more).
const minName = 8

// fit lays the parts out in width columns, the last left free (writing
// it wraps some terminals); 0 means no limit. First the name gives way,
// down to a third of the line; then the parts that can go, in their
// order; then the name, down to minName. A line still too long (a
// terminal narrower than its counts) is cut at its right end, so that
// what it starts with, the counts, is what stays — never cut from the
// left, which lost a mirror's count of fetched files.
func fit(width int, parts []part) string {
	if width <= 0 {
		line, _ := layout(parts, maxDrop(parts), 0, 0)
		return line
	}
	room := width - 1
	for keep := maxDrop(parts); keep >= 0; keep-- {
		if line, ok := layout(parts, keep, room, max(room/3, minName)); ok {
			return line
		}
	}
	line, _ := layout(parts, 0, room, minName)
	return cutRunes(line, room)
}

// behind is parts with their counts (drop 0) made to go at drop: for a
// line whose own counts come first (a mirror's files, -Z's URLs), the
// bytes and percentage of its meter are worth less.
func behind(parts []part, drop int) []part {
	for i := range parts {
		if parts[i].drop == 0 {
			parts[i].drop = drop
		}
	}
	return parts
}

// maxDrop is the highest drop among parts.
func maxDrop(parts []part) int {
	n := 0
	for _, p := range parts {
		n = max(n, p.drop)
	}
	return n
}

// layout joins the parts whose drop is at most keep, the name shortened
// to what room leaves it (room 0: no limit) but to no fewer than floor
// runes (or its own length, if shorter). ok says the line fits room.
func layout(parts []part, keep, room, floor int) (line string, ok bool) {
	others, name := 0, 0
	for _, p := range parts {
		switch {
		case p.drop > keep:
		case p.name:
			name = utf8.RuneCountInString(p.text)
		default:
			others += utf8.RuneCountInString(p.text)
		}
	}
	shown := name
	if room > 0 && name > room-others {
		shown = max(room-others, min(name, floor), 1)
	}
	var b strings.Builder
	for _, p := range parts {
		switch {
		case p.drop > keep:
		case p.name:
			b.WriteString(shortenLeft(p.text, shown))
		default:
			b.WriteString(p.text)
		}
	}
	return b.String(), room == 0 || others+shown <= room
}
