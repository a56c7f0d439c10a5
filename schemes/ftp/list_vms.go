package ftp

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/urlget/urlget/schemes"
)

// vmsLine matches a VMS directory line: "NAME.EXT;VERSION  blocks[/alloc]
// DD-MON-YYYY HH:MM[:SS] ...". Header and "Total of" lines do not match and
// are kept as raw entries.
var vmsLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([A-Za-z0-9$_\-.~]+);(\d+)\s+(\d+)(?:/\d+)?\s+(\d{1,2})-([A-Za-z]{3})-(\d{4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?`)
})

// parseVMS reads a VMS listing line. "X.DIR" is directory X. Sizes are in
// 512-byte blocks, so the byte size is not known exactly and is left -1.
// Times are exact to what the line shows: the second or the minute.
func parseVMS(line string) (schemes.Entry, string, bool) {
	m := vmsLine().FindStringSubmatch(line)
	if m == nil {
		return schemes.Entry{}, "", false
	}
	mon, ok := month(m[5])
	if !ok {
		return schemes.Entry{}, "", false
	}
	day, _ := strconv.Atoi(m[4])
	year, _ := strconv.Atoi(m[6])
	h, _ := strconv.Atoi(m[7])
	mi, _ := strconv.Atoi(m[8])
	sec, _ := strconv.Atoi(m[9])
	e := schemes.Entry{Kind: schemes.EntryFile, Size: -1,
		ModTime: time.Date(year, mon, day, h, mi, sec, 0, time.UTC), Precision: time.Minute}
	if m[9] != "" {
		e.Precision = time.Second
	}
	name := m[1]
	if base, ok := strings.CutSuffix(name, ".DIR"); ok {
		name, e.Kind = base, schemes.EntryDir
	}
	return e, name, true
}
