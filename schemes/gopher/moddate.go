package gopher

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urlget/urlget/schemes"
)

// maxModDates bounds the items of a `$` reply whose times a listing keeps
// (about 100 bytes each): past it, the remaining items go without a time,
// which only costs a mirror a comparing fetch.
const maxModDates = 1 << 17

// ModDate returns the time of the item's +ADMIN "Mod-Date:" line; ok is
// false without one, or when it cannot be read.
func (a attributes) ModDate() (t time.Time, ok bool) {
	b := a.Block("ADMIN")
	if b == nil {
		return time.Time{}, false
	}
	for _, l := range b.Lines {
		if t, ok := parseModDate(l); ok {
			return t, true
		}
	}
	return time.Time{}, false
}

// parseModDate reads a +ADMIN line "Mod-Date: <text> <YYYYMMDDhhmmss>"
// (gopher-notes §6; leading blanks allowed) and returns the time between
// the angle brackets, to the second. Gopher+ does not say which zone it is
// in (UMN gopherd and pygopherd write the server's local time); it is read
// as UTC, which keeps two readings of one server's dates comparable, the
// one use urlget makes of them.
func parseModDate(line string) (time.Time, bool) {
	rest, ok := strings.CutPrefix(strings.TrimLeft(line, " \t"), "Mod-Date:")
	if !ok {
		return time.Time{}, false
	}
	rest = strings.TrimRight(rest, " \t")
	open := strings.LastIndexByte(rest, '<')
	if open < 0 || !strings.HasSuffix(rest, ">") {
		return time.Time{}, false
	}
	t, err := time.ParseInLocation("20060102150405", rest[open+1:len(rest)-1], time.UTC)
	if err != nil {
		return time.Time{}, false
	}
	return t, true
}

// modDates asks a Gopher+ server for the attributes of every item of the
// menu g (`sel TAB $`) and returns each item's Mod-Date by selector, and
// the size its first +VIEWS line gives, as written ("1k", without the
// angle brackets), where it gives one. It is best effort: a server that
// does not answer in Gopher+, or a reply that fails, gives the facts read
// so far (possibly none), and the trace says why; the listing itself
// never fails for it.
func (h *Handler) modDates(ctx context.Context, req *schemes.Request, g *URL) (map[string]time.Time, map[string]string) {
	dates, sizes := map[string]time.Time{}, map[string]string{}
	dollar := "$"
	line, err := requestLine(g, nil, &dollar)
	if err != nil {
		return dates, sizes
	}
	x, err := h.exchange(ctx, req, g, line, true)
	if err != nil {
		if req.Trace != nil {
			req.Trace.Info("no modification times for this menu: " + err.Error())
		}
		return dates, sizes
	}
	defer x.c.Close()
	if !x.plus {
		x.tr.Info("no modification times for this menu: the server answered $ in plain Gopher")
		return dates, sizes
	}
	if err := readModDates(capped(bodyReader(x.br, x.hdr)), dates, sizes); err != nil {
		x.tr.Info(fmt.Sprintf("modification times of %d items only: %v", len(dates), err))
	}
	return dates, sizes
}

// readModDates reads a `$` reply and adds each item's Mod-Date to dates,
// and the size of its first view that has one to sizes (when not nil),
// keyed by the selector of the item's +INFO line, up to maxModDates items
// and maxItems lines.
func readModDates(r io.Reader, dates map[string]time.Time, sizes map[string]string) error {
	lr := &lineReader{br: bufio.NewReaderSize(r, 4096)}
	var sel, block string
	have := false
	for n := 0; ; n++ {
		if n >= maxItems {
			return fmt.Errorf("attribute reply longer than %d lines", maxItems)
		}
		line, err := lr.next()
		if errors.Is(err, io.EOF) || err == nil && line == "." {
			return nil
		}
		if err != nil {
			return err
		}
		if name, val, ok := blockStart(line); ok {
			block = strings.ToUpper(name)
			if block == "INFO" {
				it := parseMenuItem(strings.TrimSpace(val))
				sel, have = it.Selector, it.Valid
			}
			continue
		}
		if block == "VIEWS" && have && sizes != nil {
			if _, seen := sizes[sel]; !seen && len(sizes) < maxModDates {
				if v, ok := parseView(line); ok {
					if size := viewSize(v); size != "" {
						sizes[sel] = size
					}
				}
			}
			continue
		}
		if block != "ADMIN" || !have {
			continue
		}
		if t, ok := parseModDate(line); ok {
			if len(dates) >= maxModDates {
				return fmt.Errorf("more than %d items", maxModDates)
			}
			dates[sel] = t
		}
	}
}
