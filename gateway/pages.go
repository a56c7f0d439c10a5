package gateway

import (
	"bufio"
	"encoding/json"
	"html/template"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// pagesText is the gateway's HTML. html/template escapes every value, so a
// name, title or URL a server sent is text on the page, whatever it holds.
// The only values given as template.URL are hrefs the gateway wrote
// itself: a gateway address (escapeTarget leaves no quote in it), or the
// URL of a Locator, whose scheme is one the registry parsed — never
// "javascript:".
const pagesText = `
{{define "head"}}<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{{.}}</title>
<style>body{font-family:sans-serif;margin:1em 2em}li.info{white-space:pre;font-family:monospace;list-style:none}.meta,dl.extra{color:#666;font-size:smaller}dl.extra,dl.extra dt,dl.extra dd{display:inline;margin:0}dl.extra dt::after{content:": "}dl.extra dd{margin-right:.8em}dl.extra dd:last-child{margin-right:0}#crumbs{font-family:monospace}</style>
</head><body>
<form action="/go" method="get"><input name="url" size="80" placeholder="a URL of a scheme the start page lists"> <button>Go</button></form>
<h1>{{.}}</h1>
{{end}}
{{define "start"}}{{template "head" "urlget gateway"}}<p>Type a URL of one of these schemes above: <span id="retrieves">{{join .Retrieves}}</span>.{{with .Links}} <span id="links">{{join .}}</span> URLs are shown as links, never acted on.{{end}}</p></body></html>
{{end}}
{{define "error"}}{{template "head" .URL}}<p id="error">{{.Msg}}</p>{{with .Search}}{{template "searchform" .}}{{end}}</body></html>
{{end}}
{{define "refused"}}{{template "head" .URL}}<p id="error">{{.Msg}}</p><p>The gateway follows no server's redirect there by itself. To go there, follow it yourself: <a id="refused" href="{{.Href}}">{{.To}}</a></p></body></html>
{{end}}
{{define "link"}}{{template "head" .}}<p>The gateway does not start sessions or send mail; open this URL with your own program: <a id="link" href="{{.}}">{{.}}</a></p></body></html>
{{end}}
{{define "compose"}}{{template "head" .URL}}<p>Nothing is sent until you press Send.</p>
<form id="compose" method="post"><input type="hidden" name="token" value="{{.Token}}">
<dl id="recipients">{{with .Draft.To}}<dt>To</dt><dd>{{range $i, $a := .}}{{if $i}}, {{end}}{{$a}}{{end}}</dd>{{end}}{{with .Draft.Cc}}<dt>Cc</dt><dd>{{range $i, $a := .}}{{if $i}}, {{end}}{{$a}}{{end}}</dd>{{end}}{{with .Draft.Bcc}}<dt>Bcc</dt><dd>{{range $i, $a := .}}{{if $i}}, {{end}}{{$a}}{{end}}</dd>{{end}}</dl>
<p><label>Subject <input name="subject" size="60" value="{{.Draft.Subject}}"></label></p>
<p><textarea name="body" rows="12" cols="72">{{.Draft.Body}}</textarea></p>
<p><button>Send</button></p></form></body></html>
{{end}}
{{define "sent"}}{{template "head" .URL}}<p id="sent">Sent.</p>{{with .Message}}<pre>{{.}}</pre>{{end}}</body></html>
{{end}}
{{define "searchform"}}<form class="search" method="get" action="/search"><input type="hidden" name="url" value="{{.}}"><input name="q" size="40"> <button>Search</button></form>{{end}}
{{define "listhead"}}{{template "head" .URL}}{{with .Crumbs}}<nav id="crumbs">{{range $i, $c := .}}{{if $i}} {{end}}{{if $c.Href}}<a href="{{$c.Href}}">{{$c.Name}}</a>{{else}}<span aria-current="page">{{$c.Name}}</span>{{end}}{{end}}</nav>
{{end}}{{with .Up}}<p><a id="up" rel="up" href="{{.Href}}">Up to {{.Name}}</a></p>
{{end}}{{with .Search}}{{template "searchform" .}}
{{end}}<ul id="entries">
{{end}}
{{define "entry"}}{{if .Info}}<li class="info">{{.Label}}</li>
{{else}}<li class="{{.Kind}}">{{if .Href}}<a href="{{.Href}}">{{.Label}}</a>{{else}}{{.Label}}{{end}}{{with .Meta}} <span class="meta">{{.}}</span>{{end}}{{with .Extra}} <dl class="extra">{{range .}}<dt>{{.Key}}</dt><dd>{{.Value}}</dd>{{end}}</dl>{{end}}{{if .Search}}
{{template "searchform" .Search}}{{end}}</li>
{{end}}{{end}}
{{define "listerror"}}<li class="error">{{.}}</li>
{{end}}
{{define "listtail"}}</ul></body></html>
{{end}}`

// pages are the gateway's templates, parsed at the first page written
// rather than at every start of urlget (0.3 ms), served or not.
var pages = sync.OnceValue(func() *template.Template {
	t := template.Must(template.New("").Funcs(template.FuncMap{"join": joinNames}).Parse(pagesText))
	template.Must(t.New("ask").Parse(askText))
	template.Must(t.New("message").Parse(messageText))
	return t
})

// startPage is "/": the URL box, and the schemes it takes.
func (s *Server) startPage(w http.ResponseWriter, _ *http.Request) {
	pageHeaders(w.Header())
	s.cacheAs(w.Header(), nil, cacheListing)
	pages().ExecuteTemplate(w, "start", startSchemes(s.c.Registry, s.opt.AllowFile))
}

// errorPage answers with status and a page saying what failed.
func (s *Server) errorPage(w http.ResponseWriter, status int, url string, err error) {
	h := w.Header()
	for _, k := range []string{"Content-Length", "Last-Modified", "Accept-Ranges", "ETag", "Vary"} {
		h.Del(k)
	}
	h.Set("Cache-Control", noStore)
	pageHeaders(h)
	w.WriteHeader(status)
	pages().ExecuteTemplate(w, "error", struct{ URL, Msg, Search string }{url, err.Error(), ""})
}

// refusedPage answers with status and a page saying that the retrieval
// of url was refused a redirect to to, with to as a link to its gateway
// address: the person who follows it chooses to, and the gateway's rules
// apply to it as to any address. A target with no gateway address is
// only named (errorPage).
func (s *Server) refusedPage(w http.ResponseWriter, status int, url, to string, err error) {
	href := Address(to)
	if href == "" {
		s.errorPage(w, status, url, err)
		return
	}
	pageHeaders(w.Header())
	w.WriteHeader(status)
	pages().ExecuteTemplate(w, "refused", struct {
		URL, Msg, To string
		Href         template.URL
	}{url, err.Error(), to, template.URL(href)})
}

// searchPage answers a search asked without words (a gopher type 7 item
// whose handler would ask at a terminal) with the failure and a form
// for the words.
func (s *Server) searchPage(w http.ResponseWriter, loc schemes.Locator, search string, err error) {
	pageHeaders(w.Header())
	pages().ExecuteTemplate(w, "error", struct{ URL, Msg, Search string }{loc.Redacted(), err.Error(), search})
}

// linkPage shows url, of a scheme the gateway never acts on, as a link.
func (s *Server) linkPage(w http.ResponseWriter, url string) {
	pageHeaders(w.Header())
	pages().ExecuteTemplate(w, "link", template.URL(url))
}

// entryView is what the "entry" template shows of one Entry.
type entryView struct {
	Kind   schemes.EntryKind
	Info   bool
	Label  string
	Href   template.URL
	Meta   string
	Extra  schemes.Extras // what only its scheme knows, as a <dl>
	Search string         // the search's URL, for the form
}

// view prepares e for the page; proxy pages link to URLs themselves (the
// browser sends them back through its proxy), gateway pages to gateway
// addresses. A directory reads as `ls -F` and lynx show one: its name
// ends in "/", and it has no size (a server's count of its directory's
// blocks, "4096", is no size a person can use).
func (s *Server) view(e schemes.Entry, proxy bool) entryView {
	// Control characters from a server are shown, not obeyed.
	v := entryView{Kind: e.Kind, Label: schemes.Printable(e.Label(), 0)}
	if e.Kind == schemes.EntryInfo || e.Kind == schemes.EntryRaw {
		v.Info = true
		return v
	}
	if v.Label == "" && e.Locator != nil {
		v.Label = schemes.Printable(e.Locator.Redacted(), 0)
	}
	if e.Kind == schemes.EntryDir && !strings.HasSuffix(v.Label, "/") {
		v.Label += "/"
	}
	var meta []byte
	if e.Size >= 0 && e.Kind != schemes.EntryDir {
		meta = strconv.AppendInt(meta, e.Size, 10)
		meta = append(meta, " bytes"...)
	}
	if !e.ModTime.IsZero() {
		if len(meta) > 0 {
			meta = append(meta, ", "...)
		}
		meta = appendTime(meta, e.ModTime, e.Precision)
	}
	if e.Target != "" {
		if len(meta) > 0 {
			meta = append(meta, ' ')
		}
		meta = append(meta, "→ "+e.Target...)
	}
	v.Meta = schemes.Printable(string(meta), 0)
	for _, x := range e.Extra {
		v.Extra = append(v.Extra, schemes.Extra{Key: schemes.Printable(x.Key, 0), Value: schemes.Printable(x.Value, 0)})
	}
	if e.Locator == nil && e.Kind == schemes.EntryLink {
		// A link to a URL (a gemini page's link to another server or
		// scheme) is followed as that URL; a path (a symbolic link's)
		// is no URL and stays text.
		if loc, err := s.c.Parse(e.Target); err == nil && strings.Contains(e.Target, ":") {
			e.Locator = loc
		}
	}
	if e.Locator == nil {
		// A session (a gopher telnet item) has no URL to retrieve, only
		// its destination's, which the person's own client opens.
		if u, ok := e.Extra.Get("url"); ok && e.Kind == schemes.EntrySession {
			if loc, err := s.c.Parse(u); err == nil && s.c.Caps(loc).Has(schemes.Interactive) {
				v.Href = template.URL(loc.Redacted())
			}
		}
		return v
	}
	caps := s.c.Caps(e.Locator)
	switch {
	case caps&(schemes.Interactive|schemes.Sends) != 0:
		v.Href = template.URL(e.Locator.Redacted()) // the person's own client acts on it
	case proxy:
		v.Href = template.URL(stripped(e.Locator)) // no password: see logins
	case e.Form != nil && LocatorAddress(e.Form) != "":
		// Opened at its questions, as a Gopher+ client opens an +ASK item.
		v.Href = template.URL(LocatorAddress(e.Form))
	default:
		if a := LocatorAddress(e.Locator); a != "" {
			v.Href = template.URL(a)
		}
	}
	if e.Kind == schemes.EntrySearch {
		v.Search = searchURL(e.Locator)
	}
	return v
}

// appendTime appends t, in UTC, to as much of a second as precision
// says it holds: a day (an old file in an FTP LIST) is a date, a minute a
// date and a minute, anything finer (or unknown) the second.
func appendTime(b []byte, t time.Time, precision time.Duration) []byte {
	layout := time.DateTime
	switch {
	case precision >= 24*time.Hour:
		layout = time.DateOnly
	case precision >= time.Minute:
		layout = "2006-01-02 15:04"
	}
	return t.UTC().AppendFormat(b, layout)
}

// searchURL is the URL a search form for loc sends (its words replacing
// any loc has), or "" when loc takes no words.
func searchURL(loc schemes.Locator) string {
	if sr, ok := loc.(schemes.Searcher); ok {
		if _, err := sr.WithSearch(""); err == nil {
			return stripped(loc)
		}
	}
	return ""
}

// listHead is what the "listhead" template shows above a listing's
// entries.
type listHead struct {
	URL    string
	Search string  // the URL the page's search form sends, if it takes words
	Crumbs []crumb // the directories above, for a directory's page
	Up     *crumb  // the nearest of them with a page
}

// listPage renders a listing as it streams from the server: memory stays
// one entry's, whatever the listing's length.
func (s *Server) listPage(w http.ResponseWriter, r *http.Request, resp *fetch.Response, proxy bool) {
	pageHeaders(w.Header())
	bw := startList(w, r, "text/html; charset=utf-8")
	if bw == nil {
		return
	}
	defer bw.Flush()
	head := listHead{URL: resp.URL.Redacted()}
	if resp.Kind != schemes.EntryFile {
		// A document shown as a page (Request.Browse) takes no words
		// of its own, though its URL could carry some: the server asks
		// for them when it wants them (searchPage).
		head.Search = searchURL(resp.URL)
	}
	if resp.Kind == schemes.EntryDir {
		// A search's hits have no place of their own to go up from.
		head.Crumbs = s.crumbs(resp.URL, proxy)
		head.Up = up(head.Crumbs)
	}
	pages().ExecuteTemplate(bw, "listhead", head)
	for e, err := range schemes.Entries(resp.Listing) {
		if err != nil {
			pages().ExecuteTemplate(bw, "listerror", err.Error())
			break
		}
		if pages().ExecuteTemplate(bw, "entry", s.view(e, proxy)) != nil {
			return // the client went away
		}
	}
	pages().ExecuteTemplate(bw, "listtail", nil)
}

// listJSON writes a listing as {"entries": [...]}, each entry as
// `urlget --json` writes it (schemes.Entry's MarshalJSON), as it streams.
func (s *Server) listJSON(w http.ResponseWriter, r *http.Request, l schemes.Listing) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	bw := startList(w, r, "application/json")
	if bw == nil {
		return
	}
	defer bw.Flush()
	io.WriteString(bw, `{"entries":[`)
	sep := ""
	for e, err := range schemes.Entries(l) {
		if err != nil {
			b, _ := json.Marshal(err.Error())
			io.WriteString(bw, `],"error":`+string(b)+"}\n")
			return
		}
		b, err := json.Marshal(e)
		if err != nil {
			continue
		}
		io.WriteString(bw, sep)
		bw.Write(b)
		sep = ","
	}
	io.WriteString(bw, "]}\n")
}

// startList sends a listing's head, and returns where its body goes (nil
// for HEAD).
func startList(w http.ResponseWriter, r *http.Request, ctype string) *bufio.Writer {
	w.Header().Set("Content-Type", ctype)
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return nil
	}
	return bufio.NewWriter(w)
}
