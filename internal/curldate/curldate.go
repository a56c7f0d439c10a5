// Package curldate reads dates as curl's -z (--time-cond) does: the
// parser of curl_getdate(3), which takes the HTTP date forms (RFC 1123,
// RFC 850, asctime) and most ways a person writes a date, in any order.
// It is not API: urlget's -z uses it, and the README tells its forms.
package curldate

import (
	"strconv"
	"strings"
	"time"
)

// Parse reads s as curl_getdate does: up to six words, each a day name
// (Sun, Sunday), a month name (Nov), a zone name (GMT, CET, EST, ... or
// a military letter), a time (08:49:37 or 08:49), a zone offset (+0200,
// -0700), an eight-digit date (20040912), a day of the month (1 to 31)
// or a year (94 is 1994, 25 is 2025), separated by anything that is not
// a letter or a digit. A day, a month and a year are needed; without a
// time it is midnight, without a zone UTC. ok is false for anything
// else, and for a year before 1583 (the Gregorian calendar) or a field
// out of its range (a day past 31, an hour past 23, a minute past 59, a
// second past 60); a day past the month's end runs into the next month,
// as with curl. As with curl, 1969-12-31 23:59:59 UTC, the value
// curl_getdate reports its failures with, reads as the second after it.
//
// Examples: "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94
// 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "20 Jan 2025", "Jan 10,
// 2017", "1994.Nov.6", "Sun/Nov/6/94/GMT", "20040912 15:05:58 -0700".
func Parse(s string) (t time.Time, ok bool) {
	p := parser{wday: -1, mon: -1, mday: -1, hour: -1, min: -1, sec: -1, year: -1, tz: noZone}
	for i, part := 0, 0; i < len(s) && part < 6; part++ {
		for i < len(s) && !isAlnum(s[i]) {
			i++
		}
		if i == len(s) {
			break
		}
		var good bool
		if isAlpha(s[i]) {
			i, good = p.word(s, i)
		} else {
			i, good = p.number(s, i)
		}
		if !good {
			return time.Time{}, false
		}
	}
	return p.time()
}

// noZone is parser.tz before a zone is read.
const noZone = -1 << 31

// parser is what Parse has read so far; -1 is "not yet".
type parser struct {
	wday, mon, mday, hour, min, sec, year int
	tz                                    int // seconds to add to the local time for UTC
	wantYear                              bool
}

// word reads the letters at s[i:] as a day name, else a month, else a
// zone, each taken once.
func (p *parser) word(s string, i int) (int, bool) {
	j := i
	for j < len(s) && j-i < 31 && isAlpha(s[j]) {
		j++
	}
	w := s[i:j]
	if p.wday == -1 {
		if p.wday = day(w); p.wday != -1 {
			return j, true
		}
	}
	if p.mon == -1 {
		if p.mon = month(w); p.mon != -1 {
			return j, true
		}
	}
	if p.tz == noZone {
		if off, ok := zone(w); ok {
			p.tz = off
			return j, true
		}
	}
	return j, false
}

// number reads the digits at s[i:]: a time, a zone offset, an eight-digit
// date, a day of the month or a year.
func (p *parser) number(s string, i int) (int, bool) {
	if p.sec == -1 {
		if h, m, sec, n, ok := clock(s[i:]); ok {
			p.hour, p.min, p.sec = h, m, sec
			return i + n, true
		}
	}
	j := i
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	val, err := strconv.ParseInt(s[i:j], 10, 32)
	if err != nil {
		return j, false // curl's strtol overflows, or the value is no int
	}
	v, found := int(val), false
	if p.tz == noZone && j-i == 4 && v <= 1400 && i > 0 && (s[i-1] == '+' || s[i-1] == '-') {
		found = true
		p.tz = (v/100*60 + v%100) * 60
		if s[i-1] == '+' { // the zone's local time is ahead of UTC
			p.tz = -p.tz
		}
	}
	if j-i == 8 && p.year == -1 && p.mon == -1 && p.mday == -1 {
		found = true
		p.year, p.mon, p.mday = v/10000, v%10000/100-1, v%100
	}
	if !found && !p.wantYear && p.mday == -1 {
		if v > 0 && v < 32 {
			p.mday, found = v, true
		}
		p.wantYear = true
	}
	if !found && p.wantYear && p.year == -1 {
		p.year, found = v, true
		if p.year < 100 {
			if p.year > 70 {
				p.year += 1900
			} else {
				p.year += 2000
			}
		}
		if p.mday == -1 {
			p.wantYear = false
		}
	}
	return j, found
}

// time is the date read, when it is one.
func (p *parser) time() (time.Time, bool) {
	if p.sec == -1 {
		p.hour, p.min, p.sec = 0, 0, 0
	}
	switch {
	case p.mday == -1 || p.mon == -1 || p.year == -1, p.year < 1583,
		p.mday > 31 || p.mon > 11 || p.hour > 23 || p.min > 59 || p.sec > 60:
		// (A negative time field, which curl's sscanf reads from "08:-5",
		// passes as curl lets it.)
		return time.Time{}, false
	}
	tz := p.tz
	if tz == noZone {
		tz = 0
	}
	t := time.Date(p.year, time.Month(p.mon+1), p.mday, p.hour, p.min, p.sec, 0, time.UTC).Add(time.Duration(tz) * time.Second)
	if t.Unix() == -1 {
		t = t.Add(time.Second) // curl_getdate's failure value: curl reports the next second
	}
	return t, true
}

// clock reads "HH:MM:SS" or "HH:MM" at the start of s as curl's
// sscanf(s, "%02d:%02d:%02d") does — each field at most two characters,
// after any white space, a sign counting as one of them — and how many
// bytes it took.
func clock(s string) (h, m, sec, n int, ok bool) {
	var fields [3]int
	for k := range 3 {
		if k > 0 {
			if n >= len(s) || s[n] != ':' {
				if k == 2 {
					return fields[0], fields[1], 0, n, true
				}
				return 0, 0, 0, 0, false
			}
			n++
		}
		v, used, ok := field(s[n:])
		if !ok {
			if k == 2 {
				return fields[0], fields[1], 0, n - 1, true // "08:49:" reads as 08:49
			}
			return 0, 0, 0, 0, false
		}
		fields[k], n = v, n+used
	}
	return fields[0], fields[1], fields[2], n, true
}

// field reads one "%02d" at the start of s: white space, then at most
// two characters of an optional sign and digits, one digit at least.
func field(s string) (v, n int, ok bool) {
	for n < len(s) && strings.IndexByte(" \t\n\v\f\r", s[n]) >= 0 {
		n++
	}
	start, neg := n, false
	if n < len(s) && (s[n] == '+' || s[n] == '-') {
		neg = s[n] == '-'
		n++
	}
	digits := n
	for n < len(s) && n-start < 2 && isDigit(s[n]) {
		v = v*10 + int(s[n]-'0')
		n++
	}
	if n == digits {
		return 0, 0, false
	}
	if neg {
		v = -v
	}
	return v, n, true
}

var (
	shortDays = []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}
	longDays  = []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
	months    = []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
)

// day is w's weekday (0 Monday), -1 for none: a three-letter name, or a
// longer word as a whole name.
func day(w string) int {
	names := shortDays
	if len(w) > 3 {
		names = longDays
	}
	return index(names, w)
}

func month(w string) int { return index(months, w) }

func index(names []string, w string) int {
	for i, n := range names {
		if strings.EqualFold(n, w) {
			return i
		}
	}
	return -1
}

// zones are curl's zone names and their offsets west of UTC in minutes;
// the military letters with the signs actual use gives them (RFC 1123
// notes RFC 822 had them wrong).
var zones = map[string]int{
	"GMT": 0, "UT": 0, "UTC": 0, "WET": 0, "BST": -60, "WAT": 60, "AST": 240, "ADT": 180, "EST": 300, "EDT": 240,
	"CST": 360, "CDT": 300, "MST": 420, "MDT": 360, "PST": 480, "PDT": 420, "YST": 540, "YDT": 480, "HST": 600,
	"HDT": 540, "CAT": 600, "AHST": 600, "NT": 660, "IDLW": 720, "CET": -60, "MET": -60, "MEWT": -60, "MEST": -120,
	"CEST": -120, "MESZ": -120, "FWT": -60, "FST": -120, "EET": -120, "WAST": -420, "WADT": -480, "CCT": -480,
	"JST": -540, "EAST": -600, "EADT": -660, "GST": -600, "NZT": -720, "NZST": -720, "NZDT": -780, "IDLE": -720,
	"A": 60, "B": 120, "C": 180, "D": 240, "E": 300, "F": 360, "G": 420, "H": 480, "I": 540, "K": 600, "L": 660,
	"M": 720, "N": -60, "O": -120, "P": -180, "Q": -240, "R": -300, "S": -360, "T": -420, "U": -480, "V": -540,
	"W": -600, "X": -660, "Y": -720, "Z": 0,
}

// zone is the seconds to add to a time in the zone w for UTC.
func zone(w string) (int, bool) {
	off, ok := zones[strings.ToUpper(w)]
	return off * 60, ok
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isAlnum(c byte) bool { return isDigit(c) || isAlpha(c) }
