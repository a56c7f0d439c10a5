package gateway

import (
	"bufio"
	"bytes"
	"context"
	"html/template"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// A message (a news article, a mail) is shown on a page of its own: its
// header fields in a table, the message-ids and newsgroups they name as
// links, its body as text. What makes it one is its media type, whatever
// the scheme that brought it.
const (
	// maxHeader bounds the header read before the body: past it the
	// rest is shown as text, so that a page's memory stays bounded.
	maxHeader = 64 << 10
	// maxFields bounds the fields shown in the table, the same way.
	maxFields = 500
)

// messageTypes are the media types shown as messages: RFC 5322 mail,
// Usenet's message/news (RFC 5536 made it message/rfc822's alias) and
// RFC 6532's UTF-8 header fields.
var messageTypes = map[string]bool{"message/rfc822": true, "message/news": true, "message/global": true}

// isMessage reports whether ctype is the media type of a message.
func isMessage(ctype string) bool {
	t, _, err := mime.ParseMediaType(ctype)
	return err == nil && messageTypes[t]
}

// messageText holds the article page's own templates, beside the other
// pages'. The header table, an id each, comes before the body's <pre>,
// which is written as the message streams; the newline after <pre> is
// one an HTML parser drops, so that a body's own first empty line stays.
const messageText = `
{{define "messagehead"}}{{template "head" .URL}}<style>#header{border-collapse:collapse}#header th{text-align:left;vertical-align:top;padding-right:1em;white-space:nowrap}#header td{overflow-wrap:anywhere}</style>
<table id="header">
{{range .Fields}}<tr><th>{{.Name}}</th><td>{{range .Parts}}{{if .Href}}<a href="{{.Href}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}{{end}}</td></tr>
{{end}}</table>
{{with .Note}}<p class="error" id="header-note">{{.}}</p>
{{end}}<pre id="body">
{{end}}
{{define "messagetail"}}</pre>{{with .}}
<p class="error" id="error">{{.}}</p>{{end}}
</body></html>
{{end}}`

// headerField is one field of a message header: its name, and its value
// unfolded (the line breaks before folded lines removed, RFC 5322
// §2.2.3) and otherwise as it came, white space around it trimmed.
type headerField struct{ Name, Value string }

// parseHeader reads the header fields at the start of p. With final, p
// is all there is; otherwise more may follow, and a field that may go on
// past p's end is left for later. It returns the fields, the bytes they
// took (the empty line that ends the header included), whether the
// header ended (at its empty line, or at the end of a final p), and, when
// it stopped before, why: a line that is no header field, or more than
// maxFields fields. What it did not take is the body's, as text.
func parseHeader(p []byte, final bool) (fields []headerField, n int, ended bool, stop string) {
	for {
		if n == len(p) && final {
			return fields, n, true, "" // a header without a body
		}
		line, next, ok := lineAt(p, n, final)
		switch {
		case !ok:
			return fields, n, false, ""
		case len(line) == 0:
			return fields, next, true, ""
		case line[0] == ' ' || line[0] == '\t':
			return fields, n, false, "a header line continues no field; the rest is shown as it came"
		}
		colon := bytes.IndexByte(line, ':')
		name := bytes.TrimRight(line[:max(colon, 0)], " \t")
		if colon <= 0 || !fieldName(name) {
			return fields, n, false, "a header line is no field (Name: value); the rest is shown as it came"
		}
		value := bytes.Clone(line[colon+1:])
		i := next
		for {
			// The next line's first byte says whether it goes on with
			// this field: a field is taken before a line too long to
			// read whole that starts the next.
			if i == len(p) {
				if final {
					break
				}
				return fields, n, false, "" // the field may go on
			}
			if p[i] != ' ' && p[i] != '\t' {
				break
			}
			more, after, ok := lineAt(p, i, final)
			if !ok {
				return fields, n, false, "" // the field goes on past p
			}
			value = append(value, more...)
			i = after
		}
		if len(fields) == maxFields {
			return fields, n, false, "the header has more than " + strconv.Itoa(maxFields) + " fields; the rest is shown as it came"
		}
		fields = append(fields, headerField{string(name), string(bytes.Trim(value, " \t"))})
		n = i
	}
}

// lineAt returns the line of p that starts at i, without its LF or CR LF,
// and where the next starts; ok is false when it has no LF yet and more
// may follow (with final, the last line needs none).
func lineAt(p []byte, i int, final bool) (line []byte, next int, ok bool) {
	j := bytes.IndexByte(p[i:], '\n')
	if j < 0 {
		if !final {
			return nil, i, false
		}
		return bytes.TrimSuffix(p[i:], []byte("\r")), len(p), true
	}
	return bytes.TrimSuffix(p[i:i+j], []byte("\r")), i + j + 1, true
}

// fieldName reports whether b is a field name: printable ASCII other
// than ":" (RFC 5322 §2.2).
func fieldName(b []byte) bool {
	for _, c := range b {
		if c <= ' ' || c >= 0x7f {
			return false
		}
	}
	return len(b) > 0
}

// fieldView is what the page shows of one field: its value in parts,
// some of them links.
type fieldView struct {
	Name  string
	Parts []valuePart
}

// valuePart is text of a field's value, linked when Href is set (a
// gateway address, which the gateway wrote).
type valuePart struct {
	Text string
	Href template.URL
}

// linkedFields are the fields whose values name articles by message-id
// (RFC 5536 §3.1.3, §3.2.10, §3.2.12; RFC 5322 §3.6.4) and those that
// name newsgroups, separated by commas (RFC 5536 §3.1.4, §3.2.6).
var linkedFields = map[string]func(s *Server, l schemes.ArticleLinker, v string) []valuePart{
	"message-id": idParts, "references": idParts, "in-reply-to": idParts, "supersedes": idParts,
	"newsgroups": groupParts, "followup-to": groupParts,
}

// viewField prepares f for the page: linked where it names articles or
// groups and loc can name them; in other fields, encoded-words (RFC 2047)
// decoded; every part shown as Printable text.
func (s *Server) viewField(f headerField, loc schemes.Locator) fieldView {
	v := fieldView{Name: f.Name}
	if link, ok := linkedFields[strings.ToLower(f.Name)]; ok {
		if l, ok := loc.(schemes.ArticleLinker); ok {
			v.Parts = link(s, l, f.Value)
			return v
		}
	} else if d, err := new(mime.WordDecoder).DecodeHeader(f.Value); err == nil {
		f.Value = d
	}
	v.Parts = []valuePart{{Text: shown(f.Value)}}
	return v
}

// shown is text from a server as the page shows it: a tab as a space (a
// folded line's), other control characters as Printable writes them.
func shown(s string) string {
	return schemes.Printable(strings.ReplaceAll(s, "\t", " "), 0)
}

// idParts splits v at each "<...>" and links the message-ids loc can
// name.
func idParts(s *Server, l schemes.ArticleLinker, v string) []valuePart {
	var parts []valuePart
	for v != "" {
		i := strings.IndexByte(v, '<')
		j := strings.IndexByte(v[max(i, 0):], '>')
		if i < 0 || j < 0 {
			break
		}
		id := v[i : i+j+1]
		parts = appendPart(parts, v[:i], "")
		loc, err := l.MessageLocator(id)
		parts = appendPart(parts, id, s.linkTo(loc, err))
		v = v[i+j+1:]
	}
	return appendPart(parts, v, "")
}

// groupParts links each newsgroup of the comma-separated v that loc can
// name.
func groupParts(s *Server, l schemes.ArticleLinker, v string) []valuePart {
	var parts []valuePart
	for i, g := range strings.Split(v, ",") {
		if i > 0 {
			parts = appendPart(parts, ",", "")
		}
		name := strings.Trim(g, " \t")
		lead := g[:strings.Index(g, name)]
		loc, err := l.GroupLocator(name)
		parts = appendPart(parts, lead, "")
		parts = appendPart(parts, name, s.linkTo(loc, err))
		parts = appendPart(parts, g[len(lead)+len(name):], "")
	}
	return parts
}

// linkTo is the gateway address of loc, or "" when there is none.
func (s *Server) linkTo(loc schemes.Locator, err error) template.URL {
	if err != nil {
		return ""
	}
	return template.URL(LocatorAddress(loc))
}

// appendPart adds text to parts, joined to the last part when neither
// is a link.
func appendPart(parts []valuePart, text string, href template.URL) []valuePart {
	if text == "" {
		return parts
	}
	if n := len(parts); n > 0 && href == "" && parts[n-1].Href == "" {
		parts[n-1].Text += shown(text)
		return parts
	}
	return append(parts, valuePart{Text: shown(text), Href: href})
}

// messagePage shows resp, a message, as a page: its header fields, then
// its body streaming, escaped as it comes, so that the page's memory is
// maxHeader and a buffer whatever the body's size. A message resumed
// mid-way (a Range asked) is asked for again whole: the page is the
// whole message, answered with 200 (RFC 9110 §14.2).
func (s *Server) messagePage(ctx context.Context, w http.ResponseWriter, r *http.Request, loc schemes.Locator, resp *fetch.Response) {
	if resp.Offset != 0 {
		resp.Close()
		var err error
		if resp, err = s.c.Do(ctx, &fetch.Request{URL: loc}); err != nil {
			s.errorPage(w, statusOf(err), loc.Redacted(), err)
			return
		}
		defer resp.Close()
	}
	pageHeaders(w.Header())
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	br := bufio.NewReaderSize(resp.Body, maxHeader)
	p, peekErr := br.Peek(maxHeader)
	final := len(p) < maxHeader // all there is, or all before a failure
	fields, n, ended, note := parseHeader(p, final)
	if !ended && note == "" {
		note = "the header is longer than " + strconv.Itoa(maxHeader>>10) + " KiB; the rest is shown as it came"
	}
	view := struct {
		URL    string
		Fields []fieldView
		Note   string
	}{URL: resp.URL.Redacted(), Note: note}
	for _, f := range fields {
		view.Fields = append(view.Fields, s.viewField(f, resp.URL))
	}
	bw := bufio.NewWriterSize(w, 32<<10)
	if pages().ExecuteTemplate(bw, "messagehead", view) != nil {
		return
	}
	br.Discard(n)
	var body io.Reader = br
	if final {
		// Peek took the failure (or the end) from the reader: the body
		// is what it holds, and the failure is shown after it.
		body = io.LimitReader(br, int64(br.Buffered()))
	}
	rc := http.NewResponseController(w)
	buf := make([]byte, 32<<10)
	var readErr error
	for readErr == nil {
		var k int
		k, readErr = body.Read(buf)
		if escapeText(bw, buf[:k]) != nil {
			return // the client went away
		}
		if br.Buffered() == 0 {
			// The next read waits for the server: what came is shown now.
			if bw.Flush() != nil || rc.Flush() != nil {
				return
			}
		}
	}
	if readErr == io.EOF && final {
		readErr = peekErr
	}
	var failed string
	if readErr != nil && readErr != io.EOF {
		failed = readErr.Error()
	}
	pages().ExecuteTemplate(bw, "messagetail", failed)
	bw.Flush()
}

// escapeText writes p as HTML text for a <pre>: the characters of markup
// as entities, control characters other than tab, LF and CR as Printable
// writes them. Bytes of UTF-8 go as they are, so p may end mid-character.
func escapeText(w *bufio.Writer, p []byte) error {
	const hex = "0123456789abcdef"
	start := 0
	for i, c := range p {
		var esc string
		switch {
		case c == '<':
			esc = "&lt;"
		case c == '>':
			esc = "&gt;"
		case c == '&':
			esc = "&amp;"
		case c == '"':
			esc = "&#34;"
		case c == '\'':
			esc = "&#39;"
		case c < ' ' && c != '\t' && c != '\n' && c != '\r' || c == 0x7f:
			esc = string([]byte{'\\', 'x', hex[c>>4], hex[c&15]})
		default:
			continue
		}
		w.Write(p[start:i])
		w.WriteString(esc)
		start = i + 1
	}
	_, err := w.Write(p[start:])
	return err
}
