package gateway

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net/http"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// maxMessage bounds a form the gateway is posted (a message, answers).
const maxMessage = 1 << 20

// sendKey is the secret a Server's send tokens are made with, new for
// each Server: a token is good only for pages this process served.
func sendKey() []byte {
	k := make([]byte, 32)
	rand.Read(k)
	return k
}

// token binds a form of the gateway (purpose: "send" a message, "ask"
// a server's questions) to its URL: a page of another origin cannot
// read it, so a POST carrying it came from the gateway's own form (the
// cross-origin check already refuses other sites' POSTs; this holds even
// where a browser sends neither Origin nor Sec-Fetch-Site).
func (s *Server) token(purpose, raw string) string {
	m := hmac.New(sha256.New, s.key)
	io.WriteString(m, purpose+"\x00"+raw)
	return hex.EncodeToString(m.Sum(nil))
}

// checkToken reads the form posted to loc's address, bounded, and
// reports whether it carries the token of purpose; when not, it has
// answered with the failure.
func (s *Server) checkToken(w http.ResponseWriter, r *http.Request, purpose string, loc schemes.Locator) bool {
	r.Body = http.MaxBytesReader(w, r.Body, maxMessage)
	if err := r.ParseForm(); err != nil {
		s.errorPage(w, http.StatusBadRequest, loc.Redacted(), err)
		return false
	}
	if !hmac.Equal([]byte(r.PostForm.Get("token")), []byte(s.token(purpose, loc.String()))) {
		s.errorPage(w, http.StatusForbidden, loc.Redacted(), errors.New("the form's token is missing or wrong: post it from the gateway's own page"))
		return false
	}
	return true
}

// composePage is the form for a URL of a sending scheme (mailto:) when
// the gateway may send: GET shows it, filled with the message the URL
// describes (its recipients, subject and body), and nothing is sent
// until the person posts it.
func (s *Server) composePage(w http.ResponseWriter, comp schemes.Composer, loc schemes.Locator) {
	pageHeaders(w.Header())
	pages().ExecuteTemplate(w, "compose", struct {
		URL   string
		Token string
		Draft schemes.Draft
	}{loc.Redacted(), s.token("send", loc.String()), comp.Draft()})
}

// send sends the message a compose form posted to raw's address: only
// with AllowSend, for a scheme that sends, with the form's token. The
// answers to a server's form (a URL that is an Answerer's) go to answer.
func (s *Server) send(w http.ResponseWriter, r *http.Request, raw string) {
	loc, err := s.c.Parse(raw)
	if err != nil {
		s.errorPage(w, http.StatusBadRequest, schemes.RedactString(raw), err)
		return
	}
	if a := formOf(loc); a != nil {
		s.answer(w, r, loc, a)
		return
	}
	comp, ok := loc.(schemes.Composer)
	if !ok || !s.c.Caps(loc).Has(schemes.Sends) {
		w.Header().Set("Allow", "GET, HEAD")
		s.errorPage(w, http.StatusMethodNotAllowed, loc.Redacted(), errors.New("only a message to send is posted here; everything else is read with GET"))
		return
	}
	if !s.opt.AllowSend {
		s.errorPage(w, http.StatusForbidden, loc.Redacted(), errors.New("this gateway sends no mail: start it with "+s.word(SettingAllowSend)+" to allow it"))
		return
	}
	if !s.checkToken(w, r, "send", loc) {
		return
	}
	msg, err := comp.WithMessage(r.PostForm.Get("subject"), r.PostForm.Get("body"))
	resp, done := s.submit(w, r, loc, msg, err)
	if resp == nil {
		return
	}
	defer done()
	// A sent message has no body; a dry run's is the message composed.
	var shown []byte
	if resp.Body != nil {
		shown, _ = io.ReadAll(io.LimitReader(resp.Body, maxMessage))
	}
	pageHeaders(w.Header())
	pages().ExecuteTemplate(w, "sent", struct {
		URL, Message string
	}{loc.Redacted(), string(shown)})
}

// submit retrieves sub, the URL that sends or submits what a form
// posted to loc's address (made with the error made), within r's
// upstream bounds (upstream). It answers every failure itself, naming
// loc, and returns nil; else the response and done, which closes it and
// gives the slot back.
func (s *Server) submit(w http.ResponseWriter, r *http.Request, loc, sub schemes.Locator, made error) (*fetch.Response, func()) {
	if made != nil {
		s.errorPage(w, http.StatusBadRequest, loc.Redacted(), made)
		return nil, nil
	}
	ctx, release := s.upstream(w, r, sub)
	if ctx == nil {
		return nil, nil
	}
	resp, err := s.once.Do(ctx, &fetch.Request{URL: sub})
	if err != nil {
		release()
		s.errorPage(w, statusOf(err), loc.Redacted(), err)
		return nil, nil
	}
	return resp, func() { resp.Close(); release() }
}
