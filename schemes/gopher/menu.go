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
// exhaust memory: lines longer than maxLine are cut (and marked), and a
// reply held whole (parseMenu, parseAttributes) stops after maxItems
// lines. Listings are streamed and hold one line at a time.
const (
	maxLine  = 64 << 10
	maxItems = 1 << 20
)

// menuItem is one line of a gopher menu (RFC 1436 §3.8, Gopher+ flag):
// `<type><display> TAB <selector> TAB <host> TAB <port> [TAB +|?]`.
type menuItem struct {
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

// parseMenuItem reads one menu line (without its line end). It never fails: a
// line it cannot read is returned with Valid false and Raw set.
func parseMenuItem(line string) menuItem {
	it := menuItem{Raw: line}
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

// formatItem writes it as a menu line (without line end), the inverse of
// parseMenuItem for valid items.
func formatItem(it menuItem) string {
	s := string(it.Type) + it.Display + "\t" + it.Selector + "\t" + it.Host + "\t" + strconv.Itoa(it.Port)
	if it.Plus != "" {
		s += "\t" + it.Plus
	}
	return s
}

// Locator returns the gopher URL of the item on scheme ("gopher" or
// "gophers": a gophers menu's items stay on TLS), with its host, port,
// type and selector, built with the typed URL's String and parsed back so
// that it round-trips. It is nil for info (i) and error (3) lines, telnet
// items (8, T: they are no gopher resource), and items without a usable
// host, port or type. An `h` item whose selector is "URL:<url>" gets its
// gopher URL too: fetching that yields the redirect to <url>.
func (it menuItem) Locator(scheme string) *URL {
	switch it.Type {
	case 'i', '3', '8', 'T':
		return nil
	}
	if !it.Valid || !hostOK(it.Host) || it.Port == 0 || it.Type <= ' ' || it.Type >= 0x7f {
		return nil
	}
	u := &schemes.URL{Scheme: scheme, Authority: true, Host: strings.ToLower(it.Host), HasPath: true,
		DefaultPort: schemes.PortOf(declared, scheme)}
	if it.Port != u.DefaultPort {
		u.Port = it.Port
	}
	// Parsing the formatted URL checks the host and gives its canonical
	// form (IDNA).
	pu, err := schemes.Parse((&URL{Type: it.Type, Selector: it.Selector, u: u}).String())
	if err != nil {
		return nil // a host no URL can hold
	}
	g, err := Parse(pu)
	if err != nil {
		return nil
	}
	return g
}

// URL returns the absolute URL a client goes to for the item, as a
// Gopher+ "moved" reply names it: the target of an `h` item whose selector
// is "URL:<url>", telnet/tn3270 for types 8 and T, else the item's gopher
// URL (Locator); "" when there is none.
func (it menuItem) URL(scheme string) string {
	switch it.Type {
	case 'h':
		if u, ok := urlSelector(it.Selector); ok {
			return u
		}
	case '8', 'T':
		return telnetURL(it)
	}
	if g := it.Locator(scheme); g != nil {
		return g.String()
	}
	return ""
}

// urlSelector returns the target of a "URL:<url>" selector (the gopher
// convention for links to other schemes).
func urlSelector(sel string) (string, bool) {
	u, ok := strings.CutPrefix(sel, "URL:")
	return u, ok && u != ""
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
func telnetURL(it menuItem) string {
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

// kindOf says what an item of gopher type t is:
//
//   - 1 (menu): a dir;
//   - 7 (search) and 2 (CSO phone book): a search, which takes words;
//   - 8 and T (telnet, tn3270): a session;
//   - i (info) and 3 (error): info, text that names nothing;
//   - the document types of RFC 1436 (0 4 5 6 9 g I), of common use (s d h
//     P M p r c x) and of Gopher+ (: ; <): a file;
//   - anything else (+, a redundant server, included): unknown.
func kindOf(t byte) schemes.EntryKind {
	switch t {
	case '1':
		return schemes.EntryDir
	case '7', '2':
		return schemes.EntrySearch
	case '8', 'T':
		return schemes.EntrySession
	case 'i', '3':
		return schemes.EntryInfo
	}
	if strings.IndexByte(documentTypes, t) >= 0 {
		return schemes.EntryFile
	}
	return schemes.EntryUnknown
}

// documentTypes are the item types whose reply is a document.
const documentTypes = "04569gIsdhPMprcx:;<"

// typeText is the type as a string for Extra: the character when it is
// printable ASCII, else %XX.
func typeText(t byte) string {
	if t > ' ' && t < 0x7f {
		return string(t)
	}
	return fmt.Sprintf("%%%02X", t)
}

// nameOf derives an item's local name from its selector: its last
// "/"-segment ("/text/lf.txt" names "lf.txt"; "/docs/" names "docs"), or
// for a "URL:<url>" selector the last segment of the target's path; ""
// when there is none, when it holds TAB, CR, LF or NUL, or when
// schemes.SafeName refuses it ("..").
func nameOf(sel string) string {
	if u, ok := urlSelector(sel); ok {
		_, rest, ok := strings.Cut(u, "://")
		_, path, hasPath := strings.Cut(rest, "/")
		if !ok || !hasPath {
			return ""
		}
		path, _, _ = strings.Cut(path, "?")
		path, _, _ = strings.Cut(path, "#")
		sel = path
	}
	s := strings.TrimRight(sel, "/")
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		s = s[i+1:]
	}
	if strings.ContainsAny(s, fieldBreakers) {
		return ""
	}
	n, _ := schemes.SafeName(s)
	return n
}

// Entry converts it to a listing entry of a menu on scheme:
//
//   - Kind by gopher type (kindOf); a line that is no item (fewer than four
//     fields, other than an info line) is raw, its text in Title;
//   - Title is the display string, trailing spaces trimmed ("" when it
//     is the Name);
//   - Name is derived from the selector (nameOf, through SetName), "" for
//     info, error and telnet lines;
//   - Size is -1: menus tell no sizes;
//   - Locator is the item's gopher URL (menuItem.Locator); nil for info, error
//     and telnet lines; Form, for an item with a +ASK form ("?"), is its
//     URL with the Gopher+ string "?";
//   - Extra holds "gopher_type" (the type character, %XX when not
//     printable) first, then "gopher_plus" ("+" or "?") for Gopher+ items,
//     "error" = "true" for error (3) lines, and "url" for the real
//     destination of telnet items (telnet://host:port/) and `h` items
//     whose selector is "URL:<url>". Such an `h` item is a link: its
//     Target is that URL as well, while its Locator stays the gopher item,
//     whose retrieval gives the redirect that the fetch Client polices.
func (it menuItem) Entry(scheme string) schemes.Entry {
	e := schemes.Entry{Title: strings.TrimRight(it.Display, " "), Size: -1}
	if !it.Valid && it.Type != 'i' {
		e.Kind, e.Title = schemes.EntryRaw, it.Raw
		return e
	}
	e.Kind = kindOf(it.Type)
	e.Extra.Set("gopher_type", typeText(it.Type))
	if it.Plus != "" {
		e.Extra.Set("gopher_plus", it.Plus)
	}
	switch it.Type {
	case 'i':
		return e
	case '3':
		e.Extra.Set("error", "true")
		return e
	case '8', 'T':
		// The selector is a login hint, not a name.
		if u := telnetURL(it); u != "" {
			e.Extra.Set("url", u)
		}
		return e
	case 'h':
		if u, ok := urlSelector(it.Selector); ok {
			e.Kind, e.Target = schemes.EntryLink, u
			e.Extra.Set("url", u)
		}
	}
	e.SetName(nameOf(it.Selector))
	if e.Title == e.Name {
		e.Title = "" // the Name says it all
	}
	if g := it.Locator(scheme); g != nil {
		e.Locator = g
		if it.Plus == "?" {
			e.Form = formAt(g)
		}
	}
	return e
}

// formAt is the URL of the +ASK form of the item at g: g with the
// Gopher+ string "?" (§3.4.9), or nil when it cannot be made.
func formAt(g *URL) schemes.Locator {
	empty, ask := "", "?"
	if f := g.with(&empty, &ask); f != nil {
		return f
	}
	return nil
}

// lineReader reads lines of at most maxLine bytes: longer ones are cut
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
		if len(b)+len(frag) > maxLine {
			if !l.cut {
				b = append(b, frag[:max(0, maxLine-len(b))]...)
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

// menuReader reads a menu one item at a time, to its "." line or EOF
// (pygopherd and Gopher+ `+-2` replies have no "."). Blank lines are
// skipped; lines it cannot read are returned with Valid false.
type menuReader struct {
	lr *lineReader
	// terminated says whether a "." line ended the menu.
	terminated bool
}

func newMenuReader(r io.Reader) *menuReader {
	return &menuReader{lr: &lineReader{br: bufio.NewReaderSize(r, 4096)}}
}

// next returns the next item, or io.EOF at the end of the menu.
func (m *menuReader) next() (menuItem, error) {
	for {
		line, err := m.lr.next()
		if err != nil {
			return menuItem{}, err
		}
		if line == "." {
			m.terminated = true
			return menuItem{}, io.EOF
		}
		if line == "" && !m.lr.cut {
			continue // blank lines some servers add
		}
		return parseMenuItem(line), nil
	}
}

// parseMenu reads a whole menu (menuReader), at most maxItems lines.
// terminated says whether a "." line ended it.
func parseMenu(r io.Reader) (items []menuItem, terminated bool, err error) {
	m := newMenuReader(r)
	for len(items) < maxItems {
		it, err := m.next()
		if errors.Is(err, io.EOF) {
			return items, m.terminated, nil
		}
		if err != nil {
			return items, false, err
		}
		items = append(items, it)
	}
	return items, false, fmt.Errorf("menu longer than %d lines", maxItems)
}
