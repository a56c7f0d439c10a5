package ftp

import (
	"regexp"
	"strconv"
	"sync"
	"time"

	"github.com/urlget/urlget/schemes"
)

// dosLine matches the MS-DOS style IIS sends:
// "11-21-26  05:37AM       <DIR>          pub" or "... 29 lf.txt".
var dosLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(\d{2})-(\d{2})-(\d{2}|\d{4})\s+(\d{1,2}):(\d{2})\s*([AaPp][Mm])?\s+(<DIR>|\d+)\s+(.+)$`)
})

// parseDOS reads a DOS/IIS listing line: the entry, its time exact to the
// minute, and its name.
func parseDOS(line string) (schemes.Entry, string, bool) {
	m := dosLine().FindStringSubmatch(line)
	if m == nil {
		return schemes.Entry{}, "", false
	}
	mon, _ := strconv.Atoi(m[1])
	day, _ := strconv.Atoi(m[2])
	year, _ := strconv.Atoi(m[3])
	if len(m[3]) == 2 {
		// POSIX's pivot (strptime %y): 69-99 are 1969-1999.
		year += 1900
		if year < 1969 {
			year += 100
		}
	}
	h, _ := strconv.Atoi(m[4])
	mi, _ := strconv.Atoi(m[5])
	switch m[6] {
	case "PM", "pm", "Pm", "pM":
		if h < 12 {
			h += 12
		}
	case "AM", "am", "Am", "aM":
		if h == 12 {
			h = 0
		}
	}
	if mon < 1 || mon > 12 || day < 1 || day > 31 || h > 23 || mi > 59 {
		return schemes.Entry{}, "", false
	}
	e := schemes.Entry{Size: -1, ModTime: time.Date(year, time.Month(mon), day, h, mi, 0, 0, time.UTC),
		Precision: time.Minute}
	if m[7] == "<DIR>" {
		e.Kind = schemes.EntryDir
	} else {
		e.Kind = schemes.EntryFile
		e.Size, _ = strconv.ParseInt(m[7], 10, 64)
	}
	return e, m[8], true
}
