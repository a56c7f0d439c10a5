package ftp

import (
	"strconv"
	"strings"
	"time"

	"github.com/urlget/urlget/schemes"
)

// parseEPLF reads an Easily Parsed LIST Format line (D. J. Bernstein):
// "+" facts separated by ",", a TAB, then the name. Facts: "/" directory,
// "r" retrievable file, "s<size>", "m<unix time>" (exact to the second).
func parseEPLF(line string) (schemes.Entry, string, bool) {
	if !strings.HasPrefix(line, "+") {
		return schemes.Entry{}, "", false
	}
	facts, name, ok := strings.Cut(line[1:], "\t")
	if !ok || name == "" {
		return schemes.Entry{}, "", false
	}
	e := schemes.Entry{Kind: schemes.EntryUnknown, Size: -1}
	for _, f := range strings.Split(facts, ",") {
		if f == "" {
			continue
		}
		switch f[0] {
		case '/':
			e.Kind = schemes.EntryDir
		case 'r':
			if e.Kind != schemes.EntryDir {
				e.Kind = schemes.EntryFile
			}
		case 's':
			if n, err := strconv.ParseInt(f[1:], 10, 64); err == nil {
				e.Size = n
			}
		case 'm':
			if n, err := strconv.ParseInt(f[1:], 10, 64); err == nil {
				e.ModTime, e.Precision = time.Unix(n, 0).UTC(), time.Second
			}
		}
	}
	return e, name, true
}
