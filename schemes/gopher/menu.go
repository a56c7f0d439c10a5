package gopher

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// Limits on what a server may send, so a hostile or broken server cannot
// exhaust memory: lines longer than MaxLine are cut (and marked), a menu
// or attribute reply stops after MaxItems lines.
const (
	MaxLine  = 64 << 10
	MaxItems = 1 << 20
)

// Item is one line of a gopher menu (RFC 1436 §3.8, Gopher+ flag):
// `<type><display> TAB <selector> TAB <host> TAB <port> [TAB +|?]`.
type Item struct {
	Type     byte   `json:"-"`
	Display  string `json:"display"`
	Selector string `json:"selector"`
	Host     string `json:"host"`
	Port     int    `json:"port"`
	// Plus is the Gopher+ flag: "+" for a Gopher+ item, "?" for one with
	// an +ASK form, "" for plain Gopher.
	Plus string `json:"plus,omitempty"`
	// Raw is the line as received (without its line end).
	Raw string `json:"raw"`
	// Valid is false for a line with fewer than four fields.
	Valid bool `json:"valid"`
}

// ParseItem reads one menu line (without its line end). It never fails: a
// line it cannot read is returned with Valid false and Raw set.
func ParseItem(line string) Item {
	it := Item{Raw: line}
	if line == "" {
		return it
	}
	f := strings.Split(line, "\t")
	if f[0] == "" { // no type character: not an item
		return it
	}
	it.Type = line[0]
	it.Display = f[0][1:]
	if len(f) < 4 {
		if len(f) >= 2 {
			it.Selector = f[1]
		}
		if len(f) >= 3 {
			it.Host = f[2]
		}
		return it
	}
	it.Selector, it.Host = f[1], strings.TrimSpace(f[2])
	p, err := strconv.Atoi(strings.TrimSpace(f[3]))
	if err != nil || p < 0 || p > 65535 {
		p = 0
	}
	it.Port = p
	if len(f) > 4 {
		if s := strings.TrimSpace(f[4]); s == "+" || s == "?" {
			it.Plus = s
		}
	}
	it.Valid = true
	return it
}

// FormatItem writes it as a menu line (without line end), the inverse of
// ParseItem for valid items.
func FormatItem(it Item) string {
	s := string(it.Type) + it.Display + "\t" + it.Selector + "\t" + it.Host + "\t" + strconv.Itoa(it.Port)
	if it.Plus != "" {
		s += "\t" + it.Plus
	}
	return s
}

// URL returns the absolute URL an item designates, built with the typed
// URL's String so that it round-trips: a gopher URL for gopher items (on
// scheme, which is "gopher" or "gophers"), telnet/tn3270 for types 8 and
// T, the target of an `h` item whose selector is "URL:<url>", and "" for
// info and error lines and items without a usable host.
func (it Item) URL(scheme string) string {
	switch it.Type {
	case 'i', '3':
		return ""
	case 'h':
		if u, ok := strings.CutPrefix(it.Selector, "URL:"); ok {
			return u
		}
	case '8', 'T':
		return telnetURL(it)
	}
	if !it.Valid || !hostOK(it.Host) || it.Port == 0 {
		return ""
	}
	u := &schemes.URL{Scheme: scheme, Authority: true, Host: strings.ToLower(it.Host), HasPath: true}
	if it.Port != schemes.DefaultPort(scheme) {
		u.Port = it.Port
	}
	if it.Type <= ' ' || it.Type >= 0x7f {
		return ""
	}
	// Parsing the formatted URL checks the host and gives its canonical
	// form (IDNA), so the result round-trips.
	pu, err := schemes.Parse((&URL{Type: it.Type, Selector: it.Selector, u: u}).String())
	if err != nil {
		return "" // a host no URL can hold
	}
	g, err := Parse(pu)
	if err != nil {
		return ""
	}
	return g.String()
}

// hostOK refuses the dummy hosts servers put on info lines and hosts that
// would not survive in a URL.
func hostOK(h string) bool {
	switch strings.ToLower(h) {
	case "", "fake", "(null)", "null.host", "error.host", "(false)":
		return false
	}
	return !strings.ContainsAny(h, " /?#@[]\t\r\n%\\")
}

// telnetURL maps a type 8 or T item to telnet://[user@]host:port/ (the
// selector is a login hint, RFC 1436).
func telnetURL(it Item) string {
	if !it.Valid || !hostOK(it.Host) {
		return ""
	}
	scheme := "telnet"
	if it.Type == 'T' {
		scheme = "tn3270"
	}
	var b strings.Builder
	b.WriteString(scheme + "://")
	if it.Selector != "" && it.Selector != "none" {
		b.WriteString(schemes.Escape(it.Selector, ":@/;?&="))
		b.WriteByte('@')
	}
	b.WriteString(strings.ToLower(it.Host))
	if it.Port != 0 && it.Port != 23 {
		b.WriteString(":" + strconv.Itoa(it.Port))
	}
	b.WriteByte('/')
	pu, err := schemes.Parse(b.String())
	if err != nil {
		return ""
	}
	return pu.String()
}

// Entry converts it to a listing entry: info lines become EntryInfo,
// menus and searches dirs/others, h-links links, errors raw.
func (it Item) Entry(scheme string) schemes.Entry {
	e := schemes.Entry{Name: strings.TrimRight(it.Display, " "), Size: -1, Type: string(it.Type), Raw: it.Raw,
		URL: it.URL(scheme)}
	if it.Type == 0 {
		e.Type = ""
	}
	switch {
	case !it.Valid && it.Type != 'i':
		e.Kind = schemes.EntryRaw
	case it.Type == 'i':
		e.Kind = schemes.EntryInfo
	case it.Type == '1':
		e.Kind = schemes.EntryDir
	case it.Type == 'h' && strings.HasPrefix(it.Selector, "URL:"):
		e.Kind, e.Target = schemes.EntryLink, e.URL
	case it.Type == '3', it.Type == '7', it.Type == '8', it.Type == 'T', it.Type == '2', it.Type == '+':
		e.Kind = schemes.EntryOther
	default:
		e.Kind = schemes.EntryFile
	}
	return e
}

// lineReader reads lines of at most MaxLine bytes: longer ones are cut
// there and the rest of the line skipped, so no line can exhaust memory.
type lineReader struct {
	br  *bufio.Reader
	cut bool // the last line returned was cut
}

// next returns the next line without its line end (LF or CRLF), or io.EOF.
func (l *lineReader) next() (string, error) {
	l.cut = false
	var b []byte
	for {
		frag, err := l.br.ReadSlice('\n')
		if len(b)+len(frag) > MaxLine {
			if !l.cut {
				b = append(b, frag[:max(0, MaxLine-len(b))]...)
			}
			l.cut = true
		} else {
			b = append(b, frag...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && len(b) == 0 {
			return "", err
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return "", err
		}
		s := string(b)
		s = strings.TrimSuffix(s, "\n")
		s = strings.TrimSuffix(s, "\r")
		return s, nil
	}
}

// ParseMenu reads a menu to its "." line or EOF (pygopherd and Gopher+
// `+-2` replies have no "."), at most MaxItems lines. Lines it cannot read
// are kept with Valid false. terminated says whether a "." line ended it.
func ParseMenu(r io.Reader) (items []Item, terminated bool, err error) {
	lr := &lineReader{br: bufio.NewReaderSize(r, 4096)}
	for len(items) < MaxItems {
		line, err := lr.next()
		if errors.Is(err, io.EOF) {
			return items, false, nil
		}
		if err != nil {
			return items, false, err
		}
		if line == "." {
			return items, true, nil
		}
		if line == "" && !lr.cut {
			continue // blank lines some servers add
		}
		items = append(items, ParseItem(line))
	}
	return items, false, fmt.Errorf("menu longer than %d lines", MaxItems)
}

// RenderMenu writes items as a readable listing: info lines as text, the
// others as `[type] display  <url>`, errors as `[error] text`.
func RenderMenu(items []Item, scheme string) string {
	var b strings.Builder
	for _, it := range items {
		switch {
		case it.Type == 'i':
			b.WriteString(it.Display)
		case it.Type == '3':
			b.WriteString("[error] " + it.Display)
		case !it.Valid:
			b.WriteString("[?] " + it.Raw)
		default:
			b.WriteString("[" + typeName(it.Type) + "] " + strings.TrimRight(it.Display, " "))
			if u := it.URL(scheme); u != "" {
				b.WriteString("  <" + u + ">")
			}
			if it.Plus == "?" {
				b.WriteString(" (form)")
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// typeName names a gopher item type for the listing.
func typeName(t byte) string {
	switch t {
	case '0':
		return "text"
	case '1':
		return "menu"
	case '2':
		return "cso"
	case '4':
		return "binhex"
	case '5':
		return "dos"
	case '6':
		return "uuencoded"
	case '7':
		return "search"
	case '8':
		return "telnet"
	case '9':
		return "binary"
	case 'T':
		return "tn3270"
	case 'g':
		return "gif"
	case 'I':
		return "image"
	case 'h':
		return "html"
	case 's':
		return "sound"
	case 'd':
		return "document"
	case 'P':
		return "pdf"
	case '+':
		return "mirror"
	}
	if t > ' ' && t < 0x7f {
		return string(t)
	}
	return fmt.Sprintf("%%%02X", t)
}
