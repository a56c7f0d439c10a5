package http

import (
	"testing"
	"time"
)

// TestFigures: the size and time read from the text after a link, only
// when the text starts with them and the size is exact.
func TestFigures(t *testing.T) {
	at := func(y int, mo time.Month, d, h, mi, s int) time.Time {
		return time.Date(y, mo, d, h, mi, s, 0, time.UTC)
	}
	for _, c := range []struct {
		name string
		text string
		dir  bool
		size int64
		mod  time.Time
		prec time.Duration
	}{
		{name: "nginx", text: "                 23-Nov-2026 10:05                1234\n", size: 1234, mod: at(2026, 11, 23, 10, 5, 0), prec: time.Minute},
		{name: "nginx empty file", text: " 02-Jan-2024 03:04    0", size: 0, mod: at(2024, 1, 2, 3, 4, 0), prec: time.Minute},
		{name: "nginx dir", text: " 02-Jan-2024 03:04   -", dir: true, size: -1, mod: at(2024, 1, 2, 3, 4, 0), prec: time.Minute},
		{name: "nginx rounded (exact_size off)", text: " 02-Jan-2024 03:04   12K", size: -1, mod: at(2024, 1, 2, 3, 4, 0), prec: time.Minute},
		{name: "nginx small, rounded form", text: " 02-Jan-2024 03:04   9999", size: 9999, mod: at(2024, 1, 2, 3, 4, 0), prec: time.Minute},
		{name: "apache pre", text: "  2026-11-23 09:30   812   ", size: 812, mod: at(2026, 11, 23, 9, 30, 0), prec: time.Minute},
		{name: "apache rounded", text: "  2026-10-01 12:00  1.2M  ", size: -1, mod: at(2026, 10, 1, 12, 0, 0), prec: time.Minute},
		{name: "apache with description", text: "  2026-10-01 12:00  100  The sources", size: 100, mod: at(2026, 10, 1, 12, 0, 0), prec: time.Minute},
		{name: "apache table cells", text: "  2026-11-23 09:30    812   \u00a0", size: 812, mod: at(2026, 11, 23, 9, 30, 0), prec: time.Minute},
		{name: "apache 2.2", text: "  23-Nov-2026 10:05  4.0K  ", size: -1, mod: at(2026, 11, 23, 10, 5, 0), prec: time.Minute},
		{name: "seconds", text: " 2026-11-23 10:05:59 7", size: 7, mod: at(2026, 11, 23, 10, 5, 59), prec: time.Second},
		{name: "no size", text: " 2026-11-23 10:05", size: -1, mod: at(2026, 11, 23, 10, 5, 0), prec: time.Minute},
		{name: "dir with digits", text: " 2026-11-23 10:05 4096", dir: true, size: -1, mod: at(2026, 11, 23, 10, 5, 0), prec: time.Minute},

		// Never guessed.
		{name: "empty", text: "", size: -1},
		{name: "size only", text: "   1234", size: -1},
		{name: "size first", text: " 1234 2026-11-23 10:05", size: -1},
		{name: "date inside prose", text: " (notes from 2026-11-23 10:05, 5 pages)", size: -1},
		{name: "date without time", text: " 2026-11-23 1234", size: -1},
		{name: "31 February", text: " 31-Feb-2026 10:05 1", size: -1},
		{name: "hour 24", text: " 2026-11-23 24:00 1", size: -1},
		{name: "month name", text: " 23-Foo-2026 10:05 1", size: -1},
		{name: "signed size", text: " 2026-11-23 10:05 +5", size: -1, mod: at(2026, 11, 23, 10, 5, 0), prec: time.Minute},
		{name: "negative size", text: " 2026-11-23 10:05 -5", size: -1, mod: at(2026, 11, 23, 10, 5, 0), prec: time.Minute},
		{name: "size overflows", text: " 2026-11-23 10:05 99999999999999999999", size: -1, mod: at(2026, 11, 23, 10, 5, 0), prec: time.Minute},
		{name: "year one", text: " 01-Jan-0001 00:00 5", size: -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			size, mod, prec := figures(c.text, c.dir)
			if size != c.size || !mod.Equal(c.mod) || prec != c.prec || !mod.IsZero() && mod.Location() != time.UTC {
				t.Errorf("figures(%q) = %d, %v, %v; want %d, %v, %v", c.text, size, mod, prec, c.size, c.mod, c.prec)
			}
		})
	}
}
