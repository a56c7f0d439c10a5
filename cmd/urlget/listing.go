package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/urlget/urlget/schemes"
)

// listingText renders listings for people, one entry a line, as they
// stream: the short form shows names (directories with a trailing "/"), or
// for items whose name alone says little (menu lines, articles, search
// hits) a kind tag, the title and the item's URL (redacted) — scored
// search hits (WAIS) their score, size and type before the title; the long form
// (--long) is like ls -l: kind, size (or, when the entry has no Size,
// the server's "bytes", or a Gopher+ "<view_size>"), time, label, link
// target.
type listingText struct {
	long bool
}

// render writes every entry of l to w as it arrives, calling each (if
// set) on each entry first. It stops at the first error, after writing
// what came before it, and does not close l.
func (lt listingText) render(w io.Writer, l schemes.Listing, each func(schemes.Entry) error) error {
	bw := bufio.NewWriter(w)
	for e, err := range schemes.Entries(l) {
		if err != nil {
			bw.Flush()
			return err
		}
		if each != nil {
			if err := each(e); err != nil {
				return err
			}
		}
		if lt.long {
			bw.WriteString(longLine(e))
		} else {
			bw.WriteString(shortLine(e))
		}
		if err := bw.WriteByte('\n'); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// shortLine is one entry in the short form.
func shortLine(e schemes.Entry) string {
	switch {
	case e.Kind == schemes.EntryInfo || e.Kind == schemes.EntryRaw:
		return printable(e.Title)
	case e.Title == "":
		return printable(e.Name) + dirSlash(e)
	}
	s := "[" + string(e.Kind) + "] " + printable(e.Title)
	if score, ok := e.Extra.Get("score"); ok {
		// A scored search hit (WAIS): score, size, type, headline.
		typ, _ := e.Extra.Get("type")
		size := "-"
		if e.Size >= 0 {
			size = strconv.FormatInt(e.Size, 10)
		}
		s = fmt.Sprintf("%6s %9s %-5s %s", printable(score), size, printable(typ), printable(e.Title))
	}
	switch to := pointsTo(e); {
	case e.Kind == schemes.EntryLink && to != "":
		// A link shows where it points (a gopher hURL: item's URL, a
		// Prospero EXTERNAL link's access method), not its own URL,
		// which --json gives.
		s += " -> " + to
	case e.Locator != nil:
		s += "  <" + printable(e.Locator.Redacted()) + ">"
	case to != "":
		// An item urlget does not fetch (a gopher telnet item) still
		// says where it leads: the URL its server gave.
		s += " -> " + to
	}
	return s
}

// pointsTo is where e leads other than its own URL, shown (redacted,
// printable): a link's Target, else the URL the listing gave an item it
// did not make a Locator of (Extra "url"); "" for neither.
func pointsTo(e schemes.Entry) string {
	to := e.Target
	if to == "" {
		to, _ = e.Extra.Get("url")
	}
	if to == "" {
		return ""
	}
	return printable(schemes.RedactString(to))
}

// longLine is one entry in the long form.
func longLine(e schemes.Entry) string {
	if e.Kind == schemes.EntryInfo || e.Kind == schemes.EntryRaw {
		return printable(e.Title)
	}
	size := "-"
	if e.Size >= 0 {
		size = strconv.FormatInt(e.Size, 10)
	} else if b, ok := e.Extra.Get("bytes"); ok {
		// The size the server lists but a fetch does not give byte for
		// byte (an NNTP overview's article bytes): shown, where ls shows
		// sizes, yet never taken for Size, which a mirror checks.
		size = printable(b)
	} else if v, ok := e.Extra.Get("view_size"); ok {
		size = "<" + printable(v) + ">" // approximate, as Gopher+ writes it
	}
	mt := strings.Repeat(" ", 16)
	if !e.ModTime.IsZero() {
		layout := "2006-01-02 15:04"
		if e.Precision >= 24*time.Hour {
			layout = "2006-01-02      "
		}
		mt = e.ModTime.UTC().Format(layout)
	}
	s := fmt.Sprintf("%s %12s %s %s%s", kindLetter(e.Kind), size, mt, printable(e.Label()), dirSlash(e))
	if to := pointsTo(e); to != "" && (e.Target != "" || e.Locator == nil) {
		s += " -> " + to
	}
	return s
}

func kindLetter(k schemes.EntryKind) string {
	switch k {
	case schemes.EntryDir:
		return "d"
	case schemes.EntryLink:
		return "l"
	case schemes.EntryFile:
		return "-"
	case schemes.EntrySearch:
		return "s"
	case schemes.EntrySession:
		return "t"
	}
	return "?"
}

func dirSlash(e schemes.Entry) string {
	if e.Kind == schemes.EntryDir && e.Title == "" {
		return "/"
	}
	return ""
}

// printable shows control characters as "?", as ls does on a terminal,
// so that a name holding a newline cannot pose as two entries. --json
// keeps the real names.
func printable(s string) string {
	if strings.IndexFunc(s, isControl) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isControl(r) {
			return '?'
		}
		return r
	}, s)
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// jsonEntries streams a listing into the --json report of one URL: the
// report object opens with "entries" as the first entry arrives, so a
// listing of millions of names is written as it is read, and closes with
// the report's other fields once they are known. Entries go through a
// buffer, as the text listing's lines do, flushed when the report ends.
type jsonEntries struct {
	w    io.Writer
	bw   *bufio.Writer
	buf  []byte
	open bool
}

// add writes one entry.
func (j *jsonEntries) add(e schemes.Entry) error {
	if j.bw == nil {
		j.bw = bufio.NewWriterSize(j.w, 64<<10)
	}
	j.buf = j.buf[:0]
	if !j.open {
		j.buf, j.open = append(j.buf, `{"entries":[`...), true
	} else {
		j.buf = append(j.buf, ',')
	}
	j.buf = e.AppendJSON(j.buf)
	_, err := j.bw.Write(j.buf)
	return err
}

// finish writes rep, after the entries if any were written (an empty
// listing still gets "entries": []).
func (j *jsonEntries) finish(rep *report, listing bool) error {
	if j.bw != nil {
		if err := j.bw.Flush(); err != nil {
			return err
		}
	}
	b, err := marshalReport(rep)
	if err != nil {
		return err
	}
	switch {
	case j.open:
		_, err = io.WriteString(j.w, "],"+string(b[1:]))
	case listing:
		_, err = io.WriteString(j.w, `{"entries":[],`+string(b[1:]))
	default:
		_, err = j.w.Write(b)
	}
	return err
}

// marshalReport is rep as one JSON line, HTML characters unescaped.
func marshalReport(rep *report) ([]byte, error) {
	var sb strings.Builder
	enc := json.NewEncoder(&sb)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rep); err != nil {
		return nil, err
	}
	return []byte(sb.String()), nil
}
