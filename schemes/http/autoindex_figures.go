package http

import (
	"strconv"
	"strings"
	"time"
)

// The figures common index pages show after a link, time first, then size:
//
//	nginx autoindex:      "   23-Nov-2026 10:05       1234" (a directory: "-")
//	Apache, <pre> form:   "  2026-11-23 10:05  1.2K  "     (a directory: "-")
//	Apache, <table> form: the same in cells of their own
//	Apache 2.2:           "  23-Nov-2026 10:05  1.2K  "
//
// They are read only when the text after a link starts with them: text
// that merely holds a date somewhere ("notes from 2026-11-23 10:05") says
// nothing of the file, and a figure is never guessed.
//
// nginx writes its times in UTC unless autoindex_localtime is on, and
// Apache in the server's zone; neither says which, so UTC is assumed.
//
// A size is taken only when it is an exact byte count, digits alone:
// nginx with autoindex_exact_size on (the default) writes every size so;
// Apache rounds from 973 bytes on ("1.2K", " 34M"), as nginx does from
// 10000 with autoindex_exact_size off ("12K"), and a rounded size would
// make a mirror fetch, or skip, the wrong files.
var indexTimes = []struct {
	layout string
	prec   time.Duration
}{
	{"02-Jan-2006 15:04", time.Minute}, // nginx, Apache 2.2
	{"2006-01-02 15:04", time.Minute},  // Apache 2.4
	{"02-Jan-2006 15:04:05", time.Second},
	{"2006-01-02 15:04:05", time.Second},
}

// maxSizeDigits is the most digits an int64 byte count can have.
const maxSizeDigits = 18

// figures reads the time and size at the start of text, the text after a
// link: -1 and a zero time where it shows none. A directory has no size.
// Table cells and &nbsp; are whitespace here, like spaces.
func figures(text string, dir bool) (size int64, mod time.Time, prec time.Duration) {
	f := strings.Fields(text) // unicode.IsSpace: U+00A0 (&nbsp;) included
	if len(f) < 2 {
		return -1, time.Time{}, 0
	}
	stamp := f[0] + " " + f[1]
	for _, t := range indexTimes {
		// time.Parse checks the fields' ranges (no 31-Feb, no 24:00).
		if m, err := time.Parse(t.layout, stamp); err == nil && !m.IsZero() {
			mod, prec = m, t.prec
			break
		}
	}
	if prec == 0 {
		return -1, time.Time{}, 0
	}
	size = -1
	if len(f) > 2 && !dir {
		size = exactSize(f[2])
	}
	return size, mod, prec
}

// exactSize is s as a byte count when it is one, digits alone; -1 for
// anything else ("-", "1.2K", "34M").
func exactSize(s string) int64 {
	if s == "" || len(s) > maxSizeDigits || strings.TrimLeft(s, "0123456789") != "" {
		return -1
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return -1
	}
	return n
}
