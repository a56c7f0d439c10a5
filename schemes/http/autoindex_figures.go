package http

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The figures common index pages show after a link, all to the minute:
//
//	nginx autoindex:     "  23-Nov-2026 10:05      1234" (a directory: "-")
//	Apache, <pre> form:  "  2026-11-23 10:05  1.2K"     (a directory: "-")
//	Apache, <table> form: the same in table cells.
//
// nginx writes its times in UTC unless autoindex_localtime is on, and
// Apache in the server's zone; neither says which, so UTC is assumed. A
// size is taken only when it is an exact byte count: Apache rounds
// ("1.2K", "34M"), as nginx does with autoindex_exact_size off, and a
// rounded size would make a mirror fetch, or skip, the wrong files.
var (
	nginxFigures  = regexp.MustCompile(`(\d{2})-([A-Z][a-z]{2})-(\d{4}) (\d{2}):(\d{2})(?::\d{2})?\s+(\S+)`)
	apacheFigures = regexp.MustCompile(`(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})(?::\d{2})?\s+(\S+)`)
	months        = map[string]time.Month{"Jan": 1, "Feb": 2, "Mar": 3, "Apr": 4, "May": 5, "Jun": 6, "Jul": 7,
		"Aug": 8, "Sep": 9, "Oct": 10, "Nov": 11, "Dec": 12}
)

// figures reads the size and time in text, the text after a link; -1 and
// a zero time where it shows none. A directory has no size.
func figures(text string, dir bool) (size int64, mod time.Time, prec time.Duration) {
	size = -1
	text = strings.ReplaceAll(text, "\u00a0", " ") // &nbsp; between Apache's cells
	var year, month, day, hour, minute int
	var sz string
	if m := nginxFigures.FindStringSubmatch(text); m != nil {
		mon, ok := months[m[2]]
		if !ok {
			return -1, time.Time{}, 0
		}
		day, _ = strconv.Atoi(m[1])
		month = int(mon)
		year, _ = strconv.Atoi(m[3])
		hour, _ = strconv.Atoi(m[4])
		minute, _ = strconv.Atoi(m[5])
		sz = m[6]
	} else if m := apacheFigures.FindStringSubmatch(text); m != nil {
		year, _ = strconv.Atoi(m[1])
		month, _ = strconv.Atoi(m[2])
		day, _ = strconv.Atoi(m[3])
		hour, _ = strconv.Atoi(m[4])
		minute, _ = strconv.Atoi(m[5])
		sz = m[6]
	} else {
		return -1, time.Time{}, 0
	}
	if month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 {
		return -1, time.Time{}, 0
	}
	mod = time.Date(year, time.Month(month), day, hour, minute, 0, 0, time.UTC)
	if n, err := strconv.ParseInt(sz, 10, 64); err == nil && n >= 0 && !dir {
		size = n
	}
	return size, mod, time.Minute
}
