package gateway

import (
	"errors"
	"html/template"
	"net/http"
	"strconv"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// maxQuestions bounds the answers a posted form may carry.
const maxQuestions = 1000

// askText holds the page of a form a server asks before it answers (a
// Gopher+ +ASK item). Each question is one <p class="KIND"> in
// <form id="ask">; its answer is the field "aN", N its 1-based position,
// and the hidden "n" says how many there are. A check question sends
// "0" from a hidden field before its checkbox, which sends "1" when
// ticked: the last value wins. A password's field is never filled.
const askText = `
{{define "ask"}}{{template "head" .URL}}<p>The server asks these questions before it answers; nothing is sent until you press Submit.</p>
<form id="ask" method="post" action="{{.Action}}"><input type="hidden" name="token" value="{{.Token}}"><input type="hidden" name="n" value="{{len .Questions}}">
{{range .Questions}}<p class="{{.Kind}}">{{template "question" .}}</p>
{{end}}<p><button>Submit</button></p></form></body></html>
{{end}}
{{define "question"}}{{if eq .Kind "note"}}{{.Prompt}}{{else if eq .Kind "check"}}<input type="hidden" name="{{.Name}}" value="0"><label><input type="checkbox" name="{{.Name}}" value="1"{{if eq .Default "1"}} checked{{end}}> {{.Prompt}}</label>{{else}}<label>{{.Prompt}}{{if eq .Kind "file"}} (the file's text){{end}}
{{if eq .Kind "password"}}<input type="password" name="{{.Name}}" autocomplete="off">{{else if eq .Kind "choice"}}<select name="{{.Name}}">{{$d := .Default}}{{range .Choices}}<option value="{{.}}"{{if eq . $d}} selected{{end}}>{{.}}</option>{{end}}</select>{{else if or (eq .Kind "lines") (eq .Kind "file")}}<br><textarea name="{{.Name}}" rows="6" cols="72">{{.Default}}</textarea>{{else}}<input name="{{.Name}}" size="40" value="{{.Default}}">{{end}}</label>{{end}}{{end}}`

// questionView is what the "question" template shows of one question.
type questionView struct {
	schemes.Question
	Name string // its field, "aN"
}

// formOf returns the Answerer of loc when loc names a form, else nil.
func formOf(loc schemes.Locator) schemes.Answerer {
	if a, ok := loc.(schemes.Answerer); ok {
		if _, err := a.AskOnly(); err == nil {
			return a
		}
	}
	return nil
}

// askPage answers a GET of a form's URL with the form: the server is
// asked for the questions only (AskOnly), so a GET submits nothing.
func (s *Server) askPage(w http.ResponseWriter, r *http.Request, loc schemes.Locator, proxy bool) {
	if proxy {
		// Its POST would come back as a proxy request, which sends nothing.
		s.errorPage(w, http.StatusForbidden, loc.Redacted(), errors.New("a form is answered on the gateway's own page: open "+LocatorAddress(loc)+" on the gateway"))
		return
	}
	ask, err := formOf(loc).AskOnly()
	if err != nil {
		s.errorPage(w, http.StatusBadRequest, loc.Redacted(), err)
		return
	}
	ctx, done := s.upstream(w, r, loc)
	if ctx == nil {
		return
	}
	defer done()
	resp, err := s.c.Do(ctx, &fetch.Request{URL: ask})
	if err == nil {
		resp.Close()
		err = errors.New("the server answered without asking its questions")
	}
	var se *schemes.Error
	if !errors.As(err, &se) || se.Form == nil {
		s.errorPage(w, statusOf(err), loc.Redacted(), err)
		return
	}
	qs := make([]questionView, len(se.Form.Questions))
	for i, q := range se.Form.Questions {
		q.Prompt = schemes.Printable(q.Prompt, 0)
		if q.Kind == schemes.QuestionPassword {
			q.Default = "" // a secret is never on a page
		}
		qs[i] = questionView{q, "a" + strconv.Itoa(i+1)}
	}
	pageHeaders(w.Header())
	pages().ExecuteTemplate(w, "ask", struct {
		URL, Token string
		Action     template.URL
		Questions  []questionView
	}{loc.Redacted(), s.token("ask", loc.String()), template.URL(LocatorAddress(loc)), qs})
}

// answer submits the answers a form posted to raw's address (only with
// the form's token) and shows the server's reply as a GET would: a
// listing as a page, a document as the server sent it.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, loc schemes.Locator, a schemes.Answerer) {
	if !s.checkToken(w, r, "ask", loc) {
		return
	}
	n, err := strconv.Atoi(r.PostForm.Get("n"))
	if err != nil || n < 0 || n > maxQuestions {
		s.errorPage(w, http.StatusBadRequest, loc.Redacted(), errors.New("the form's number of questions is missing or wrong"))
		return
	}
	vals := make([]string, n)
	for i := range vals {
		if v := r.PostForm["a"+strconv.Itoa(i+1)]; len(v) > 0 {
			vals[i] = v[len(v)-1]
		}
	}
	sub, err := a.WithAnswers(vals)
	resp, done := s.submit(w, r, loc, sub, err)
	if resp == nil {
		return
	}
	defer done()
	if resp.Listing != nil {
		s.listPage(w, r, resp, false)
		return
	}
	s.document(w, r, resp, false, 0, -1)
}
