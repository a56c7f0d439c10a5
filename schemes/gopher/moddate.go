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

// menuFacts are what a `$` reply tells of a menu's items, by the
// selector of each item's +INFO line: its Mod-Date, the size its first
// +VIEWS line gives, as written ("1k", without the angle brackets), and
// whether it has an +ASK block: whether it is a form, which a server
// need not flag with "?" in its menu (pygopherd flags every item "+").
type menuFacts struct {
	dates map[string]time.Time
	sizes map[string]string // nil: not read
	asks  map[string]bool   // nil: not read
}

func newMenuFacts() menuFacts {
	return menuFacts{dates: map[string]time.Time{}, sizes: map[string]string{}, asks: map[string]bool{}}
}

// modDates asks a Gopher+ server for the attributes of every item of the
// menu g (`sel TAB $`) and returns what they tell (menuFacts). It is best
// effort: a server that does not answer in Gopher+, or a reply that
// fails, gives the facts read so far (possibly none), and the trace says
// why; the listing itself never fails for it.
func (h *Handler) modDates(ctx context.Context, req *schemes.Request, g *URL) menuFacts {
	f := newMenuFacts()
	dollar := "$"
	line, err := requestLine(g, nil, &dollar)
	if err != nil {
		return f
	}
	x, err := h.exchange(ctx, req, g, line, true)
	if err != nil {
		if req.Trace != nil {
			req.Trace.Info("no modification times for this menu: " + err.Error())
		}
		return f
	}
	defer x.c.Close()
	if !x.plus {
		x.tr.Info("no modification times for this menu: the server answered $ in plain Gopher")
		return f
	}
	if err := readModDates(capped(bodyReader(x.br, x.hdr)), f); err != nil {
		x.tr.Info(fmt.Sprintf("modification times of %d items only: %v", len(f.dates), err))
	}
	return f
}

// readModDates reads a `$` reply into f: each item's Mod-Date, the size
// of its first view that has one (when f.sizes is not nil), and whether
// it has an +ASK block (when f.asks is not nil), keyed by the selector of
// the item's +INFO line, up to maxModDates items each and maxItems lines.
func readModDates(r io.Reader, f menuFacts) error {
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
			switch {
			case block == "INFO":
				it := parseMenuItem(strings.TrimSpace(val))
				sel, have = it.Selector, it.Valid
			case block == "ASK" && have && f.asks != nil && len(f.asks) < maxModDates:
				f.asks[sel] = true
			}
			continue
		}
		if block == "VIEWS" && have && f.sizes != nil {
			if _, seen := f.sizes[sel]; !seen && len(f.sizes) < maxModDates {
				if v, ok := parseView(line); ok {
					if size := viewSize(v); size != "" {
						f.sizes[sel] = size
					}
				}
			}
			continue
		}
		if block != "ADMIN" || !have {
			continue
		}
		if t, ok := parseModDate(line); ok {
			if len(f.dates) >= maxModDates {
				return fmt.Errorf("more than %d items", maxModDates)
			}
			f.dates[sel] = t
		}
	}
}
