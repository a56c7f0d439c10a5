package ftp

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/urlget/urlget/schemes"
)

// unixLine matches `ls -l` output as FTP servers send it: mode, links,
// owner and (optional) group, size, a date of "Mon DD HH:MM" (this year) or
// "Mon DD YYYY", then one space and the name, which may hold spaces.
var unixLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([-dlbcpsD])[-rwxsStTlL]{9}[+@.]?\s+\d+\s+(?:\S+\s+){0,2}?(\d+|\d+,\s*\d+)\s+([A-Za-z]{3})\s+(\d{1,2})\s+(\d{1,2}:\d{2}|\d{4})\s(.+)$`)
})

var months = map[string]time.Month{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
	"jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12}

// parseUnix reads a unix ls -l line: the entry and its name. Dates
// without a year are in the last twelve months before now (ls's
// convention) and exact to the minute; dates with a year show no time of
// day, so they are exact to the day. Times are taken as UTC, the zone
// servers usually list in.
func parseUnix(line string, now time.Time) (schemes.Entry, string, bool) {
	m := unixLine().FindStringSubmatch(line)
	if m == nil {
		return schemes.Entry{}, "", false
	}
	mon, ok := months[strings.ToLower(m[3])]
	if !ok {
		return schemes.Entry{}, "", false
	}
	size, err := strconv.ParseInt(m[2], 10, 64)
	if err != nil {
		size = -1 // a device's "major, minor"
	}
	day, _ := strconv.Atoi(m[4])
	var t time.Time
	prec := 24 * time.Hour
	if hh, mm, ok := strings.Cut(m[5], ":"); ok {
		prec = time.Minute
		h, _ := strconv.Atoi(hh)
		mi, _ := strconv.Atoi(mm)
		y := now.UTC().Year()
		t = time.Date(y, mon, day, h, mi, 0, 0, time.UTC)
		if t.After(now.Add(24 * time.Hour)) {
			t = t.AddDate(-1, 0, 0)
		}
	} else {
		y, _ := strconv.Atoi(m[5])
		t = time.Date(y, mon, day, 0, 0, 0, 0, time.UTC)
	}
	e := schemes.Entry{Size: size, ModTime: t, Precision: prec}
	name := m[6]
	switch m[1] {
	case "d", "D":
		e.Kind = schemes.EntryDir
	case "l":
		e.Kind = schemes.EntryLink
		if n, target, ok := strings.Cut(name, " -> "); ok {
			name, e.Target = n, target
		}
	case "-":
		e.Kind = schemes.EntryFile
	default:
		// A device, pipe or socket: not a file to retrieve, and no kind
		// of the contract says what it is.
		e.Kind = schemes.EntryUnknown
	}
	return e, name, true
}
