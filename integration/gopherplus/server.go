// Package gopherplus is a small, faithful Gopher+ server for urlget's
// integration tests, in the manner of UMN gopherd 2.x: dot-terminated
// menus whose items carry the "+" (or "?" for forms) flag, `+N`, `+-1` and
// `+-2` reply headers, `--N` error blocks, attribute blocks (+INFO,
// +ADMIN, +VIEWS, +ABSTRACT, +KEYWORDS, +ASK) for `!`, `!+NAME…` and `$`
// requests, alternate views (`+<type> <lang>`), and +ASK forms submitted
// as RFC 1738 §3.4.9 shows (`sel TAB + TAB 1` and a data block), which it
// records. pygopherd, the other Gopher+ server of the test bed, cannot
// receive form answers.
//
// It serves a directory tree (the fixture tree) at "/", and built-in
// Gopher+ items under "/plus". Plain Gopher requests get files as raw bytes
// until close (so binaries and type 9 fetches are exact), menus ending in
// ".", and a type 3 error line for a missing selector. The selector
// "/_forms" returns the recorded form submissions, one JSON object a line;
// "/plus/links" is a menu of "h URL:" items leading to other schemes.
package gopherplus

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Server serves Gopher+ on a listener. Set the fields before Serve.
type Server struct {
	// Root is the directory served at "/"; "" serves only the built-in items.
	Root string
	// Host and Port are written into menus (the address clients use).
	Host string
	Port int
	// Admin is the +ADMIN name and e-mail, "Name <email>".
	Admin string
	// FormLog, if set, receives each submission as a JSON line.
	FormLog string

	mu    sync.Mutex
	forms []Submission
}

// Submission is one received +ASK form: the selector and the values in
// the order of the questions, as the data block carried them.
type Submission struct {
	Selector string    `json:"selector"`
	Header   string    `json:"header"` // the data block header: "+-1", "+N"
	Lines    []string  `json:"lines"`
	Time     time.Time `json:"time"`
}

// Submissions returns the forms received so far.
func (s *Server) Submissions() []Submission {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Submission(nil), s.forms...)
}

// Serve accepts connections until ln is closed.
func (s *Server) Serve(ln net.Listener) error {
	for {
		c, err := ln.Accept()
		if err != nil {
			return err
		}
		go s.handle(c)
	}
}

// request is a parsed request line.
type request struct {
	sel    string
	search string
	cmd    string // Gopher+ command: "+…", "!…", "$…", "" for plain Gopher
	data   bool   // a data block follows (data flag 1)
}

// parseRequest splits the request line as UMN gopherd does: the second
// field is the Gopher+ command when it starts with +, ! or $, else a
// search, and then the third field is the command; the field after the
// command is the data flag.
func parseRequest(line string) request {
	f := strings.Split(line, "\t")
	r := request{sel: f[0]}
	i := 1
	if len(f) > 1 && !isCmd(f[1]) {
		r.search, i = f[1], 2
	}
	if len(f) > i && isCmd(f[i]) {
		r.cmd = f[i]
		r.data = len(f) > i+1 && f[i+1] == "1"
	}
	return r
}

func isCmd(s string) bool { return s != "" && strings.ContainsRune("+!$", rune(s[0])) }

func (s *Server) handle(c net.Conn) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(60 * time.Second))
	br := bufio.NewReaderSize(c, 8192)
	line, err := readLine(br)
	if err != nil {
		return
	}
	req := parseRequest(line)
	w := bufio.NewWriterSize(c, 64<<10)
	defer w.Flush()
	if req.data {
		lines, hdr, err := readDataBlock(br)
		if err != nil {
			s.plusError(w, 2, "bad data block: "+err.Error())
			return
		}
		s.submit(w, req, hdr, lines)
		return
	}
	s.serve(w, req)
}

// readLine reads one request line (at most 4 KiB), CRLF or LF.
func readLine(br *bufio.Reader) (string, error) {
	var b []byte
	for {
		frag, err := br.ReadSlice('\n')
		b = append(b, frag...)
		if len(b) > 4096 {
			return "", fmt.Errorf("request line too long")
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && len(b) == 0 {
			return "", err
		}
		return strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r"), nil
	}
}

// readDataBlock reads the client's data block: `+-1` dot-terminated lines
// or `+N` bytes (split into lines).
func readDataBlock(br *bufio.Reader) ([]string, string, error) {
	hdr, err := readLine(br)
	if err != nil {
		return nil, "", err
	}
	switch {
	case hdr == "+-1":
		var lines []string
		for len(lines) < 10000 {
			l, err := readLine(br)
			if err != nil {
				return nil, hdr, err
			}
			if l == "." {
				return lines, hdr, nil
			}
			if strings.HasPrefix(l, "..") {
				l = l[1:]
			}
			lines = append(lines, l)
		}
		return nil, hdr, fmt.Errorf("too many lines")
	case strings.HasPrefix(hdr, "+"):
		n, err := strconv.Atoi(hdr[1:])
		if err != nil || n < 0 || n > 1<<20 {
			return nil, hdr, fmt.Errorf("header %q: want +N, +-1", hdr)
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(br, b); err != nil {
			return nil, hdr, err
		}
		return strings.Split(strings.TrimSuffix(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n"), "\n"), hdr, nil
	}
	return nil, hdr, fmt.Errorf("header %q: want +N or +-1", hdr)
}

// submit records a form and answers with a text echoing it.
func (s *Server) submit(w *bufio.Writer, req request, hdr string, lines []string) {
	it := s.lookup(req.sel)
	if it == nil || it.ask == "" {
		s.plusError(w, 1, fmt.Sprintf("'%s' has no form", req.sel))
		return
	}
	sub := Submission{Selector: it.sel, Header: hdr, Lines: lines, Time: time.Now().UTC()}
	s.mu.Lock()
	s.forms = append(s.forms, sub)
	if s.FormLog != "" {
		if f, err := os.OpenFile(s.FormLog, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644); err == nil {
			json.NewEncoder(f).Encode(sub)
			f.Close()
		}
	}
	s.mu.Unlock()
	var b strings.Builder
	name := "stranger"
	if len(lines) > 0 && lines[0] != "" {
		name = lines[0]
	}
	fmt.Fprintf(&b, "Thanks, %s. Your answers:\n", name)
	for i, l := range lines {
		fmt.Fprintf(&b, "%d: %s\n", i+1, l)
	}
	w.WriteString("+-1\r\n")
	writeDotted(w, b.String())
}

// item is one thing the server can serve.
type item struct {
	typ   byte
	sel   string
	name  string
	file  string            // a file or directory of Root, "" for built-ins
	views map[string][]byte // built-in content by view "type[ lang]"; the first of order is the default
	order []string
	ask   string   // +ASK block lines (" Ask: …"), "" if none
	extra []string // extra blocks, whole lines ("+ABSTRACT:", " text")
	dir   bool
	dots  bool // send the default view as a `+-1` dot-terminated block
}

const plusRoot = "/plus"

// builtins are the Gopher+ items under /plus.
func builtins() []*item {
	about := "About this Gopher+ test server (gopherplusd).\n"
	return []*item{
		{typ: '0', sel: plusRoot + "/about.txt", name: "About this server",
			views: map[string][]byte{"text/plain": []byte(about)}, order: []string{"text/plain"},
			extra: []string{"+ABSTRACT:", " The test server of urlget's integration tests,", " with Gopher+ attributes.",
				"+KEYWORDS:", " gopher+ test abstract"}},
		{typ: '0', sel: plusRoot + "/multi.txt", name: "An item with three views",
			views: map[string][]byte{
				"text/plain":             []byte("Plain text view.\n"),
				"text/plain De_DE":       []byte("Die deutsche Ansicht.\n"),
				"application/postscript": []byte("%!PS-Adobe-3.0\n%%Title: multi\nshowpage\n"),
			}, order: []string{"text/plain", "text/plain De_DE", "application/postscript"}},
		{typ: '0', sel: plusRoot + "/form.txt", name: "A form (+ASK)",
			views: map[string][]byte{"text/plain": []byte("A Gopher+ item with an +ASK form.\n")}, order: []string{"text/plain"},
			ask: " Ask: What is your name?\tAnonymous\n AskP: Password?\n Choose: Favourite protocol?\tgopher\tftp\thttp\n" +
				" AskL: Comments?\n Select: Subscribe?:1\n Note: Thank you for testing."},
		{typ: '0', sel: plusRoot + "/stuffed.txt", name: "Dot lines, sent dot-stuffed", dots: true,
			views: map[string][]byte{"text/plain": []byte("before\n.\n..\n.leading dot\nafter\n")}, order: []string{"text/plain"}},
		{typ: '7', sel: plusRoot + "/search", name: "Search the fixture tree"},
		{typ: '1', sel: linksMenu, name: "Links to other schemes", dir: true},
	}
}

// linksMenu holds "h URL:" items leading to other schemes, the kind a
// client's redirect policy must refuse to follow (mailto, telnet, file) or
// may follow (http).
const linksMenu = plusRoot + "/links"

// links are the items of linksMenu.
func links() []*item {
	return []*item{
		{typ: 'h', sel: "URL:mailto:victim@127.0.0.1?subject=sent%20by%20a%20menu", name: "Mail the victim"},
		{typ: 'h', sel: "URL:telnet://127.0.0.1:2323/", name: "A telnet session"},
		{typ: 'h', sel: "URL:file:///etc/passwd", name: "A local file"},
		{typ: 'h', sel: "URL:http://127.0.0.1:8080/text/lf.txt", name: "A web page"},
	}
}

// lookup finds the item for a selector ("" and "/" are the root menu).
func (s *Server) lookup(sel string) *item {
	sel = "/" + strings.Trim(sel, "/")
	if sel == plusRoot {
		return &item{typ: '1', sel: plusRoot, name: "Gopher+ items", dir: true}
	}
	for _, it := range builtins() {
		if it.sel == sel {
			return it
		}
	}
	if s.Root == "" {
		if sel == "/" {
			return &item{typ: '1', sel: "/", name: "Main menu", dir: true}
		}
		return nil
	}
	clean := path.Clean(sel)
	if clean != sel || strings.Contains(sel, "/../") {
		return nil
	}
	p := filepath.Join(s.Root, filepath.FromSlash(clean))
	real, err := filepath.EvalSymlinks(p)
	rootReal, _ := filepath.EvalSymlinks(s.Root)
	if err != nil || (real != rootReal && !strings.HasPrefix(real, rootReal+string(filepath.Separator))) {
		return nil // missing, or a link leading out of the tree
	}
	st, err := os.Stat(real)
	if err != nil {
		return nil
	}
	it := &item{sel: sel, name: path.Base(clean), file: real, dir: st.IsDir()}
	if clean == "/" {
		it.name = "Main menu"
	}
	it.typ = fileType(it.name, it.dir)
	return it
}

// fileType is the gopher type of a file by its name.
func fileType(name string, dir bool) byte {
	switch {
	case dir:
		return '1'
	case strings.HasSuffix(name, ".txt"):
		return '0'
	case strings.HasSuffix(name, ".html"):
		return 'h'
	}
	return '9'
}

// children lists a menu's items.
func (s *Server) children(it *item) []*item {
	var out []*item
	if it.sel == plusRoot {
		return builtins()
	}
	if it.sel == linksMenu {
		return links()
	}
	if it.sel == "/" {
		out = append(out, &item{typ: '1', sel: plusRoot, name: "Gopher+ items", dir: true})
	}
	if it.file == "" {
		return out
	}
	ents, _ := os.ReadDir(it.file)
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		sel := strings.TrimSuffix(it.sel, "/") + "/" + e.Name()
		if c := s.lookup(sel); c != nil {
			out = append(out, c)
		}
	}
	return out
}

// menuLine is an item's line in a menu, with the Gopher+ flag.
func (s *Server) menuLine(it *item) string {
	flag := "+"
	if it.ask != "" {
		flag = "?"
	}
	return fmt.Sprintf("%c%s\t%s\t%s\t%d\t%s", it.typ, it.name, it.sel, s.Host, s.Port, flag)
}

// serve answers a request without client data.
func (s *Server) serve(w *bufio.Writer, req request) {
	if strings.Trim(req.sel, "/") == "_forms" {
		for _, f := range s.Submissions() {
			b, _ := json.Marshal(f)
			w.Write(append(b, '\n'))
		}
		return
	}
	it := s.lookup(req.sel)
	if it == nil {
		msg := fmt.Sprintf("'%s' does not exist", req.sel)
		if req.cmd != "" {
			s.plusError(w, 1, msg)
		} else {
			fmt.Fprintf(w, "3%s\t\terror.host\t1\r\n.\r\n", msg)
		}
		return
	}
	switch {
	case req.cmd == "":
		s.plain(w, it, req)
	case req.cmd[0] == '!':
		w.WriteString("+-1\r\n")
		writeDotted(w, s.attributes(it, req.cmd[1:]))
	case req.cmd[0] == '$':
		if !it.dir {
			s.plusError(w, 1, fmt.Sprintf("'%s' is not a directory", req.sel))
			return
		}
		w.WriteString("+-2\r\n")
		for _, c := range s.children(it) {
			w.WriteString(strings.ReplaceAll(s.attributes(c, req.cmd[1:]), "\n", "\r\n"))
		}
	default:
		s.view(w, it, req, strings.TrimSpace(req.cmd[1:]))
	}
}

// plain answers a plain Gopher request: a menu ending in ".", a search
// result, or the file's bytes until close.
func (s *Server) plain(w *bufio.Writer, it *item, req request) {
	switch {
	case it.dir:
		var b strings.Builder
		for _, c := range s.children(it) {
			b.WriteString(s.menuLine(c) + "\n")
		}
		writeDotted(w, b.String())
	case it.typ == '7':
		writeDotted(w, s.search(req.search))
	case it.file != "":
		s.copyFile(w, it.file)
	case it.dots:
		writeDotted(w, string(it.views[it.order[0]]))
	default:
		w.Write(it.views[it.order[0]])
	}
}

// view answers "+" (default view) and "+<type>[ <lang>]".
func (s *Server) view(w *bufio.Writer, it *item, req request, want string) {
	views := s.viewsOf(it)
	if want != "" {
		found := false
		for _, v := range views {
			if strings.EqualFold(v, want) {
				want, found = v, true
			}
		}
		if !found {
			s.plusError(w, 1, fmt.Sprintf("'%s' has no view %q", req.sel, want))
			return
		}
	} else {
		want = views[0]
	}
	switch {
	case it.dir:
		w.WriteString("+-1\r\n")
		var b strings.Builder
		for _, c := range s.children(it) {
			b.WriteString(s.menuLine(c) + "\n")
		}
		writeDotted(w, b.String())
	case it.typ == '7':
		w.WriteString("+-1\r\n")
		writeDotted(w, s.search(req.search))
	case it.file != "":
		st, err := os.Stat(it.file)
		if err != nil {
			s.plusError(w, 1, "cannot read")
			return
		}
		fmt.Fprintf(w, "+%d\r\n", st.Size())
		s.copyFile(w, it.file)
	case it.dots:
		w.WriteString("+-1\r\n")
		writeDotted(w, string(it.views[want]))
	default:
		b := it.views[want]
		fmt.Fprintf(w, "+%d\r\n", len(b))
		w.Write(b)
	}
}

func (s *Server) viewsOf(it *item) []string {
	switch {
	case it.dir || it.typ == '7':
		return []string{"application/gopher+-menu"}
	case it.file != "":
		if it.typ == '0' {
			return []string{"text/plain"}
		}
		return []string{"application/octet-stream"}
	}
	return it.order
}

// builtinDate is the Mod-Date of the built-in items.
var builtinDate = time.Date(2026, time.November, 21, 4, 55, 34, 0, time.UTC)

// modDate is an item's +ADMIN Mod-Date value as UMN gopherd writes it,
// "Sat Nov 21 04:55:34 2026 <20261121045534>": a file or directory of
// Root has its modification time (in UTC), a built-in item a fixed one.
func modDate(it *item) string {
	t := builtinDate
	if it.file != "" {
		if st, err := os.Stat(it.file); err == nil {
			t = st.ModTime().UTC()
		}
	}
	return t.Format("Mon Jan _2 15:04:05 2006") + " <" + t.Format("20060102150405") + ">"
}

// attributes writes an item's blocks; want ("+ABSTRACT +VIEWS",
// "+ABSTRACT+VIEWS" or "") selects some. +INFO always comes first.
func (s *Server) attributes(it *item, want string) string {
	sel := map[string]bool{}
	for _, n := range strings.FieldsFunc(want, func(r rune) bool { return r == '+' || r == ' ' }) {
		sel[strings.ToUpper(n)] = true
	}
	var b strings.Builder
	block := func(name string, lines ...string) {
		if len(sel) > 0 && !sel[name] && name != "INFO" {
			return
		}
		b.WriteString("+" + name + ":")
		if name == "INFO" {
			b.WriteString(" " + lines[0] + "\n")
			return
		}
		b.WriteString("\n")
		for _, l := range lines {
			b.WriteString(l + "\n")
		}
	}
	block("INFO", s.menuLine(it))
	block("ADMIN", " Admin: "+s.Admin, " Mod-Date: "+modDate(it))
	var vs []string
	for _, v := range s.viewsOf(it) {
		size := "<1k>"
		if c, ok := it.views[v]; ok {
			size = fmt.Sprintf("<%db>", len(c))
		} else if it.file != "" && !it.dir {
			if st, err := os.Stat(it.file); err == nil {
				size = fmt.Sprintf("<%dk>", (st.Size()+1023)/1024)
			}
		}
		vs = append(vs, " "+v+": "+size)
	}
	block("VIEWS", vs...)
	for i := 0; i < len(it.extra); {
		name := strings.TrimSuffix(strings.TrimPrefix(it.extra[i], "+"), ":")
		j := i + 1
		for j < len(it.extra) && strings.HasPrefix(it.extra[j], " ") {
			j++
		}
		block(name, it.extra[i+1:j]...)
		i = j
	}
	if it.ask != "" {
		block("ASK", strings.Split(it.ask, "\n")...)
	}
	return b.String()
}

// search lists fixture files whose path holds the words (case-insensitive).
func (s *Server) search(words string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "iSearch results for %q\t\terror.host\t1\n", words)
	q := strings.ToLower(strings.TrimSpace(words))
	if q == "" || s.Root == "" {
		return b.String()
	}
	filepath.WalkDir(s.Root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(s.Root, p)
		rel = filepath.ToSlash(rel)
		if rel == "many" && d.IsDir() {
			return filepath.SkipDir
		}
		if rel != "." && strings.Contains(strings.ToLower(rel), q) {
			if it := s.lookup("/" + rel); it != nil {
				b.WriteString(s.menuLine(it) + "\n")
			}
		}
		return nil
	})
	return b.String()
}

func (s *Server) copyFile(w io.Writer, name string) {
	f, err := os.Open(name)
	if err != nil {
		return
	}
	defer f.Close()
	io.Copy(w, f)
}

// plusError writes a `--1` error block: code, admin, message, ".".
func (s *Server) plusError(w *bufio.Writer, code int, msg string) {
	fmt.Fprintf(w, "--1\r\n%d %s\r\n", code, s.Admin)
	writeDotted(w, msg+"\n")
}

// writeDotted writes text as RFC 1436 lines: CRLF line ends, a line
// starting with "." gets another, then the "." terminator.
func writeDotted(w io.Writer, text string) {
	var b bytes.Buffer
	for _, l := range strings.SplitAfter(text, "\n") {
		if l == "" {
			continue
		}
		l = strings.TrimSuffix(l, "\n")
		if strings.HasPrefix(l, ".") {
			b.WriteByte('.')
		}
		b.WriteString(l + "\r\n")
	}
	b.WriteString(".\r\n")
	w.Write(b.Bytes())
}
