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

// maxMessage bounds the form a message is sent from.
const maxMessage = 1 << 20

// sendKey is the secret a Server's send tokens are made with, new for
// each Server: a token is good only for pages this process served.
func sendKey() []byte {
	k := make([]byte, 32)
	rand.Read(k)
	return k
}

// token binds a send form to its URL: a page of another origin cannot
// read it, so a POST carrying it came from the gateway's own form (the
// cross-origin check already refuses other sites' POSTs; this holds even
// where a browser sends neither Origin nor Sec-Fetch-Site).
func (s *Server) token(raw string) string {
	m := hmac.New(sha256.New, s.key)
	io.WriteString(m, "send\x00"+raw)
	return hex.EncodeToString(m.Sum(nil))
}

// composePage is the form for a URL of a sending scheme (mailto:) when
// the gateway may send: GET shows it, filled with the message the URL
// describes (its recipients, subject and body), and nothing is sent
// until the person posts it.
func (s *Server) composePage(w http.ResponseWriter, comp schemes.Composer, loc schemes.Locator) {
	pageHeaders(w.Header())
	pages.ExecuteTemplate(w, "compose", struct {
		URL   string
		Token string
		Draft schemes.Draft
	}{loc.Redacted(), s.token(loc.String()), comp.Draft()})
}

// send sends the message a compose form posted to raw's address: only
// with AllowSend, for a scheme that sends, with the form's token.
func (s *Server) send(w http.ResponseWriter, r *http.Request, raw string) {
	loc, err := s.c.Parse(raw)
	if err != nil {
		s.errorPage(w, http.StatusBadRequest, schemes.RedactString(raw), err)
		return
	}
	comp, ok := loc.(schemes.Composer)
	if !ok || !s.c.Caps(loc).Has(schemes.Sends) {
		w.Header().Set("Allow", "GET, HEAD")
		s.errorPage(w, http.StatusMethodNotAllowed, loc.Redacted(), errors.New("only a message to send is posted here; everything else is read with GET"))
		return
	}
	if !s.opt.AllowSend {
		s.errorPage(w, http.StatusForbidden, loc.Redacted(), errors.New("this gateway sends no mail: start it with --allow-send to allow it"))
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxMessage)
	if err := r.ParseForm(); err != nil {
		s.errorPage(w, http.StatusBadRequest, loc.Redacted(), err)
		return
	}
	if !hmac.Equal([]byte(r.PostForm.Get("token")), []byte(s.token(loc.String()))) {
		s.errorPage(w, http.StatusForbidden, loc.Redacted(), errors.New("the form's token is missing or wrong: send from the gateway's own page"))
		return
	}
	msg, err := comp.WithMessage(r.PostForm.Get("subject"), r.PostForm.Get("body"))
	if err != nil {
		s.errorPage(w, http.StatusBadRequest, loc.Redacted(), err)
		return
	}
	ctx, done := s.upstream(w, r)
	if ctx == nil {
		return
	}
	defer done()
	resp, err := s.c.GetLocator(ctx, msg, fetch.Resume{})
	if err != nil {
		s.errorPage(w, statusOf(err), loc.Redacted(), err)
		return
	}
	defer resp.Close()
	// A sent message has no body; a dry run's is the message composed.
	var shown []byte
	if resp.Body != nil {
		shown, _ = io.ReadAll(io.LimitReader(resp.Body, maxMessage))
	}
	pageHeaders(w.Header())
	pages.ExecuteTemplate(w, "sent", struct {
		URL, Message string
	}{loc.Redacted(), string(shown)})
}
