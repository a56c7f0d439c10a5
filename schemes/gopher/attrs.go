package gopher

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// attrBlock is one Gopher+ attribute block: a line `+NAME: value` and the
// lines after it that begin with a space (kept without that space).
type attrBlock struct {
	Name  string   `json:"name"`            // "INFO", "ADMIN", "VIEWS", "ABSTRACT", "ASK", or any other
	Value string   `json:"value,omitempty"` // text after "+NAME:" on the first line ("+INFO: 0about…")
	Lines []string `json:"lines,omitempty"` // content lines, without their leading space
}

// attributes are the blocks of one item, as a `!` reply gives them; a `$`
// reply gives one attributes per item of a directory, each starting at a
// +INFO block.
type attributes []attrBlock

// Block returns the first block named name (without "+"), or nil.
func (a attributes) Block(name string) *attrBlock {
	for i := range a {
		if strings.EqualFold(a[i].Name, name) {
			return &a[i]
		}
	}
	return nil
}

// Info returns the item's +INFO menu line, parsed; ok is false without one.
func (a attributes) Info() (menuItem, bool) {
	b := a.Block("INFO")
	if b == nil {
		return menuItem{}, false
	}
	it := parseMenuItem(strings.TrimSpace(b.Value))
	return it, it.Valid
}

// plusView is one line of a +VIEWS block: ` <type>[ <lang>]: <size>`.
type plusView struct {
	Type     string `json:"type"`               // MIME type, "text/plain"
	Language string `json:"language,omitempty"` // "En_US", "" if none
	Size     string `json:"size,omitempty"`     // as written, "<10k>"
}

// Plus returns the Gopher+ string that requests this view:
// "+<type>[ <lang>]" (RFC 1738 §3.4.5).
func (v plusView) Plus() string {
	if v.Language == "" {
		return "+" + v.Type
	}
	return "+" + v.Type + " " + v.Language
}

// Views parses the +VIEWS block; nil if there is none.
func (a attributes) Views() []plusView {
	b := a.Block("VIEWS")
	if b == nil {
		return nil
	}
	var vs []plusView
	for _, l := range b.Lines {
		if v, ok := parseView(l); ok {
			vs = append(vs, v)
		}
	}
	return vs
}

// parseView reads one line of a +VIEWS block; ok is false for a blank
// line.
func parseView(l string) (plusView, bool) {
	l = strings.TrimSpace(l)
	if l == "" {
		return plusView{}, false
	}
	spec, size, _ := strings.Cut(l, ":")
	typ, lang, _ := strings.Cut(strings.TrimSpace(spec), " ")
	return plusView{Type: typ, Language: strings.TrimSpace(lang), Size: strings.TrimSpace(size)}, true
}

// parseAttributes reads a whole attribute reply (after any Gopher+
// header) to its end or a "." line: blocks start at lines beginning with
// "+NAME:", content lines begin with a space; other lines are kept in a
// block named "" so nothing is lost. A new +INFO starts a new item. Lines
// are capped at maxLine bytes and the reply at maxItems lines.
func parseAttributes(r io.Reader) ([]attributes, error) {
	lr := &lineReader{br: bufio.NewReaderSize(r, 4096)}
	var items []attributes
	var cur attributes
	for n := 0; ; n++ {
		if n >= maxItems {
			return append(items, cur), fmt.Errorf("attribute reply longer than %d lines", maxItems)
		}
		line, err := lr.next()
		if errors.Is(err, io.EOF) || line == "." {
			break
		}
		if err != nil {
			return append(items, cur), err
		}
		if name, val, ok := blockStart(line); ok {
			if strings.EqualFold(name, "INFO") && len(cur) > 0 {
				items = append(items, cur)
				cur = nil
			}
			cur = append(cur, attrBlock{Name: name, Value: val})
			continue
		}
		if len(cur) == 0 {
			if line == "" {
				continue
			}
			cur = append(cur, attrBlock{})
		}
		b := &cur[len(cur)-1]
		b.Lines = append(b.Lines, strings.TrimPrefix(line, " "))
	}
	if len(cur) > 0 {
		items = append(items, cur)
	}
	return items, nil
}

// blockStart reads "+NAME:[ value]". NAME is letters, digits, "-" or "_".
func blockStart(line string) (name, value string, ok bool) {
	if len(line) < 3 || line[0] != '+' {
		return "", "", false
	}
	name, value, ok = strings.Cut(line[1:], ":")
	if !ok || name == "" {
		return "", "", false
	}
	for _, c := range name {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return "", "", false
		}
	}
	return name, strings.TrimPrefix(value, " "), true
}

// viewEntry is the entry of view v of the item item (nil: an item with no
// gopher URL): Kind file, Name the item's (every view is the same
// document), Title "type[ lang]", Size -1 (a view's size, "<10k>", is
// approximate: it is in Extra "view_size" as "10k"), Locator the item's
// URL with the Gopher+ string that requests the view. Extra holds
// "gopher_type", "view_type", then "view_lang" and "view_size" when
// given.
func viewEntry(item *URL, v plusView) schemes.Entry {
	e := schemes.Entry{Title: strings.TrimSpace(v.Type + " " + v.Language), Kind: schemes.EntryFile, Size: -1}
	if item != nil {
		e.Extra.Set("gopher_type", typeText(item.Type))
		s, p := "", v.Plus()
		if item.Search != nil {
			s = *item.Search
		}
		if loc := item.with(&s, &p); loc != nil {
			e.Locator = loc
		}
		e.SetName(nameOf(item.Selector))
	}
	e.Extra.Set("view_type", v.Type)
	if v.Language != "" {
		e.Extra.Set("view_lang", v.Language)
	}
	if size := viewSize(v); size != "" {
		e.Extra.Set("view_size", size)
	}
	return e
}

// viewSize is v's size as written, without its angle brackets ("10k").
func viewSize(v plusView) string {
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(v.Size, "<"), ">"))
}

// infoEntry is the entry of an +INFO line "+NAME: value" whose value is
// the menu line it, of the item at loc (nil: none): Kind info, Title
// "INFO: " and the item's display string, Locator loc, Extra
// "gopher_type", "gopher_plus" when the item has the flag, and
// "gopher_block" = "INFO". A value that is no menu line is shown as any
// other block line (textEntry).
func infoEntry(name, value string, it menuItem, loc *URL) schemes.Entry {
	if !it.Valid {
		return textEntry(name, name+": "+value)
	}
	e := schemes.Entry{Title: name + ": " + strings.TrimRight(it.Display, " "), Kind: schemes.EntryInfo, Size: -1}
	e.Extra.Set("gopher_type", typeText(it.Type))
	if it.Plus != "" {
		e.Extra.Set("gopher_plus", it.Plus)
	}
	e.Extra.Set("gopher_block", name)
	if loc != nil {
		e.Locator = loc
	}
	return e
}

// textEntry is the entry of any other line of an attribute reply: Kind
// info, Title the text, Extra "gopher_block" = block, the name of the
// block it belongs to (none for lines outside any block).
func textEntry(block, text string) schemes.Entry {
	e := schemes.Entry{Title: text, Kind: schemes.EntryInfo, Size: -1}
	if block != "" {
		e.Extra.Set("gopher_block", block)
	}
	return e
}
