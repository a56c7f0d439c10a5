package ftp

import (
	"strconv"
	"strings"
	"time"

	"github.com/urlget/urlget/schemes"
)

// unixMatch is what matchUnix reads of an `ls -l` line.
type unixMatch struct {
	typ                   byte   // the mode's first character: - d l b c p s D
	size, mon, day, clock string // as written; size may be a device's "8, 1"
	name                  string // the rest after one space: may hold spaces
}

// matchUnix reads `ls -l` output as FTP servers send it: mode, links,
// owner and (optional) group, size, a date of "Mon DD HH:MM" (this year) or
// "Mon DD YYYY", then one space and the name, which may hold spaces. It
// accepts exactly the lines of the regular expression
//
//	^([-dlbcpsD])[-rwxsStTlL]{9}[+@.]?\s+\d+\s+(?:\S+\s+){0,2}?(\d+|\d+,\s*\d+)\s+([A-Za-z]{3})\s+(\d{1,2})\s+(\d{1,2}:\d{2}|\d{4})\s(.+)$
//
// with the same parts (FuzzMatchUnix holds it to that), at a sixth of its
// cost: the expression's backtracking was 60 % of a 2,000,000-line `urlget
// ls`.
func matchUnix(line string) (unixMatch, bool) {
	if len(line) < 11 || strings.IndexByte("-dlbcpsD", line[0]) < 0 {
		return unixMatch{}, false
	}
	for i := 1; i < 10; i++ {
		if strings.IndexByte("-rwxsStTlL", line[i]) < 0 {
			return unixMatch{}, false
		}
	}
	i := 10
	if c := line[i]; c == '+' || c == '@' || c == '.' {
		i++
	}
	i, ok := spaces(line, i)
	if !ok {
		return unixMatch{}, false
	}
	if i, ok = digitsThenSpaces(line, i); !ok { // the link count
		return unixMatch{}, false
	}
	// The owner and group are each optional: the first of the next three
	// words after which the rest reads as size and date is the size.
	for skip := 0; ; skip++ {
		if m, ok := matchUnixTail(line, i); ok {
			m.typ = line[0]
			return m, true
		}
		if skip == 2 {
			return unixMatch{}, false
		}
		j := i
		for j < len(line) && !isSpace(line[j]) {
			j++
		}
		if j == i {
			return unixMatch{}, false
		}
		if i, ok = spaces(line, j); !ok {
			return unixMatch{}, false
		}
	}
}

// matchUnixTail reads size, month, day, time or year, and name from i.
func matchUnixTail(line string, i int) (m unixMatch, ok bool) {
	j := digits(line, i)
	if j == i || j == len(line) {
		return m, false
	}
	if line[j] == ',' { // a device's "major, minor"
		k := digits(line, skipSpaces(line, j+1))
		if k == skipSpaces(line, j+1) {
			return m, false
		}
		j = k
	}
	m.size = line[i:j]
	if i, ok = spaces(line, j); !ok {
		return m, false
	}
	if i+3 > len(line) || !isLetter(line[i]) || !isLetter(line[i+1]) || !isLetter(line[i+2]) {
		return m, false
	}
	m.mon = line[i : i+3]
	if i, ok = spaces(line, i+3); !ok {
		return m, false
	}
	if j = digits(line, i); j == i || j-i > 2 {
		return m, false
	}
	m.day = line[i:j]
	if i, ok = spaces(line, j); !ok {
		return m, false
	}
	j = digits(line, i)
	switch {
	case j-i == 4:
	case j-i >= 1 && j-i <= 2 && j < len(line) && line[j] == ':' && digits(line, j+1) == j+3:
		j += 3
	default:
		return m, false
	}
	m.clock = line[i:j]
	if j+1 >= len(line) || !isSpace(line[j]) || strings.IndexByte(line[j+1:], '\n') >= 0 {
		return m, false
	}
	m.name = line[j+1:]
	return m, true
}

// isSpace is the regular expressions' \s: tab, line feed, form feed,
// carriage return, space.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// digits is the end of the ASCII digits at i.
func digits(s string, i int) int {
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}

// skipSpaces is the end of the white space at i.
func skipSpaces(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

// spaces is the end of the white space at i, false if there is none.
func spaces(s string, i int) (int, bool) {
	j := skipSpaces(s, i)
	return j, j > i
}

// digitsThenSpaces is the end of digits at i and the white space after
// them, false unless both are there.
func digitsThenSpaces(s string, i int) (int, bool) {
	j := digits(s, i)
	if j == i {
		return i, false
	}
	return spaces(s, j)
}

// monthNames are the months as listings abbreviate them, in order.
var monthNames = [12]string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}

// month reads a month's three-letter name, in any case, without the
// allocation a lower-cased copy would cost each line.
func month(s string) (time.Month, bool) {
	for i, n := range monthNames {
		if strings.EqualFold(s, n) {
			return time.Month(i + 1), true
		}
	}
	return 0, false
}

// parseUnix reads a unix ls -l line: the entry and its name. Dates
// without a year are in the last twelve months before now (ls's
// convention) and exact to the minute; dates with a year show no time of
// day, so they are exact to the day. Times are taken as UTC, the zone
// servers usually list in.
func parseUnix(line string, now time.Time) (schemes.Entry, string, bool) {
	m, ok := matchUnix(line)
	if !ok {
		return schemes.Entry{}, "", false
	}
	mon, ok := month(m.mon)
	if !ok {
		return schemes.Entry{}, "", false
	}
	size, err := strconv.ParseInt(m.size, 10, 64)
	if err != nil {
		size = -1 // a device's "major, minor"
	}
	day, _ := strconv.Atoi(m.day)
	var t time.Time
	prec := 24 * time.Hour
	if hh, mm, ok := strings.Cut(m.clock, ":"); ok {
		prec = time.Minute
		h, _ := strconv.Atoi(hh)
		mi, _ := strconv.Atoi(mm)
		y := now.UTC().Year()
		t = time.Date(y, mon, day, h, mi, 0, 0, time.UTC)
		if t.After(now.Add(24 * time.Hour)) {
			t = t.AddDate(-1, 0, 0)
		}
	} else {
		y, _ := strconv.Atoi(m.clock)
		t = time.Date(y, mon, day, 0, 0, 0, 0, time.UTC)
	}
	e := schemes.Entry{Size: size, ModTime: t, Precision: prec}
	name := m.name
	switch m.typ {
	case 'd', 'D':
		e.Kind = schemes.EntryDir
	case 'l':
		e.Kind = schemes.EntryLink
		if n, target, ok := strings.Cut(name, " -> "); ok {
			name, e.Target = n, target
		}
	case '-':
		e.Kind = schemes.EntryFile
	default:
		// A device, pipe or socket: not a file to retrieve, and no kind
		// of the contract says what it is.
		e.Kind = schemes.EntryUnknown
	}
	return e, name, true
}
