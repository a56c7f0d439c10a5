package gopher

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// Block is one Gopher+ attribute block: a line `+NAME: value` and the
// lines after it that begin with a space (kept without that space).
type Block struct {
	Name  string   `json:"name"`            // "INFO", "ADMIN", "VIEWS", "ABSTRACT", "ASK", or any other
	Value string   `json:"value,omitempty"` // text after "+NAME:" on the first line ("+INFO: 0about…")
	Lines []string `json:"lines,omitempty"` // content lines, without their leading space
}

// Attributes are the blocks of one item, as a `!` reply gives them; a `$`
// reply gives one Attributes per item of a directory, each starting at a
// +INFO block.
type Attributes []Block

// Block returns the first block named name (without "+"), or nil.
func (a Attributes) Block(name string) *Block {
	for i := range a {
		if strings.EqualFold(a[i].Name, name) {
			return &a[i]
		}
	}
	return nil
}

// Info returns the item's +INFO menu line, parsed; ok is false without one.
func (a Attributes) Info() (Item, bool) {
	b := a.Block("INFO")
	if b == nil {
		return Item{}, false
	}
	it := ParseItem(strings.TrimSpace(b.Value))
	return it, it.Valid
}

// View is one line of a +VIEWS block: ` <type>[ <lang>]: <size>`.
type View struct {
	Type     string `json:"type"`               // MIME type, "text/plain"
	Language string `json:"language,omitempty"` // "En_US", "" if none
	Size     string `json:"size,omitempty"`     // as written, "<10k>"
}

// Plus returns the Gopher+ string that requests this view:
// "+<type>[ <lang>]" (RFC 1738 §3.4.5).
func (v View) Plus() string {
	if v.Language == "" {
		return "+" + v.Type
	}
	return "+" + v.Type + " " + v.Language
}

// Views parses the +VIEWS block; nil if there is none.
func (a Attributes) Views() []View {
	b := a.Block("VIEWS")
	if b == nil {
		return nil
	}
	var vs []View
	for _, l := range b.Lines {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		spec, size, _ := strings.Cut(l, ":")
		typ, lang, _ := strings.Cut(strings.TrimSpace(spec), " ")
		vs = append(vs, View{Type: typ, Language: strings.TrimSpace(lang), Size: strings.TrimSpace(size)})
	}
	return vs
}

// ParseAttributes reads an attribute reply (after any Gopher+ header) to
// its end or a "." line: blocks start at lines beginning with "+NAME:",
// content lines begin with a space; other lines are kept in a block named
// "" so nothing is lost. A new +INFO starts a new item. Lines are capped at
// MaxLine bytes and the reply at MaxItems lines.
func ParseAttributes(r io.Reader) ([]Attributes, error) {
	lr := &lineReader{br: bufio.NewReaderSize(r, 4096)}
	var items []Attributes
	var cur Attributes
	for n := 0; ; n++ {
		if n >= MaxItems {
			return append(items, cur), fmt.Errorf("attribute reply longer than %d lines", MaxItems)
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
			cur = append(cur, Block{Name: name, Value: val})
			continue
		}
		if len(cur) == 0 {
			if line == "" {
				continue
			}
			cur = append(cur, Block{})
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

// RenderAttributes writes items readably: each block as "NAME: value"
// with its lines indented, items separated by a blank line.
func RenderAttributes(items []Attributes) string {
	var b strings.Builder
	for i, a := range items {
		if i > 0 {
			b.WriteByte('\n')
		}
		for _, bl := range a {
			if bl.Name != "" {
				b.WriteString(bl.Name + ":")
				if bl.Value != "" {
					b.WriteString(" " + strings.ReplaceAll(bl.Value, "\t", "  "))
				}
				b.WriteByte('\n')
			}
			for _, l := range bl.Lines {
				b.WriteString("  " + strings.ReplaceAll(l, "\t", "  ") + "\n")
			}
		}
	}
	return b.String()
}

// attributeEntries turns attribute blocks into listing entries for --json:
// one entry a block, Name the block name, Type "+NAME", Raw the block's
// lines joined by newlines, URL the item's URL (from +INFO).
func attributeEntries(items []Attributes, scheme string) []schemes.Entry {
	out := []schemes.Entry{}
	for _, a := range items {
		u := ""
		if it, ok := a.Info(); ok {
			u = it.URL(scheme)
		}
		for _, bl := range a {
			raw := bl.Value
			if len(bl.Lines) > 0 {
				if raw != "" {
					raw += "\n"
				}
				raw += strings.Join(bl.Lines, "\n")
			}
			out = append(out, schemes.Entry{Name: bl.Name, Kind: schemes.EntryInfo, Size: -1, URL: u,
				Type: "+" + bl.Name, Raw: raw})
		}
	}
	return out
}
