package http

import (
	"errors"
	"fmt"
	"net/http"
	"slices"

	"golang.org/x/net/http/httpguts"

	"github.com/urlget/urlget/schemes"
)

// sending is what one request of Fetch sends beside its URL: the method
// word and the body.
type sending struct {
	method string
	body   *Body // nil: none
}

// plain reports whether s is a GET without a body: the only request a
// resume, a range or a listing is made of.
func (s sending) plain() bool { return s.method == http.MethodGet && s.body == nil }

// idempotent reports whether s may be sent twice with the effect of once
// (RFC 9110 §9.2.2), so that a failure after it was sent may be tried
// again; a POST may have been acted on.
func (s sending) idempotent() bool {
	switch s.method {
	case "", http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace, http.MethodPut, http.MethodDelete:
		return true
	}
	return false
}

// sendingFor returns what Fetch sends for req: the Handler's Method and
// Body as the redirects that led to req (Request.Redirects) leave them,
// by curl's rules for each status:
//
//   - 307 and 308 keep the method and the body, to whatever host the
//     redirect names (RFC 9110 §15.4.8, §15.4.9);
//   - 301 and 302 turn a request with a body into one without, a GET
//     (RFC 9110 §15.4.2's "for historical reasons"), unless KeepPost
//     has the status; 303 does so to any request but a POST kept;
//   - a redirect of another status, or of another scheme's (a gopher
//     URL item), drops the body: it belongs to the HTTP exchange it was
//     given for.
//
// The body once dropped stays dropped. A Method set is the method word
// of every request, after a redirect too (curl's -X, which says so): a
// request whose body was dropped then goes without one under that word.
func (h *Handler) sendingFor(req *schemes.Request, tr schemes.Trace) sending {
	post := h.Body != nil
	note := ""
	for i, status := range req.Redirects {
		last := i == len(req.Redirects)-1
		switch status {
		case http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
			if post && last {
				note = fmt.Sprintf("the %d redirect keeps the method and the body: sending them again", status)
			}
			continue
		case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther:
			if post && slices.Contains(h.KeepPost, status) {
				if last {
					note = fmt.Sprintf("the %d redirect keeps the POST and its body (%s)", status, h.words.Option(keepOption(status)))
				}
				continue
			}
		}
		if post && last {
			note = fmt.Sprintf("the %d redirect turns the request into a GET without the body", status)
			if h.Method != "" {
				note = fmt.Sprintf("the %d redirect drops the body; the method stays %s, which %s sets for every request, as curl's does",
					status, h.Method, h.words.Option(optionMethod))
			}
		}
		post = false
	}
	s := sending{method: h.Method}
	if post {
		s.body = h.Body
	}
	if s.method == "" {
		s.method = http.MethodGet
		if post {
			s.method = http.MethodPost
		}
	}
	if note != "" {
		tr.Info(note)
	}
	return s
}

// keepOption is the option that keeps a POST after a redirect of status.
func keepOption(status int) string { return fmt.Sprintf("post%d", status) }

// checkMethod refuses the Handler's Method, for a request of loc, when
// it is not a token (checkMethod).
func (h *Handler) checkMethod(loc *URL) error {
	if h.Method == "" {
		return nil
	}
	if err := checkMethod(h.Method); err != nil {
		return &schemes.Error{Scheme: loc.g.Scheme, Phase: "request", Kind: schemes.KindUsage, Part: optionMethod,
			Msg: h.words.Option(optionMethod), Err: err}
	}
	return nil
}

// checkMethod refuses a method word that is not an HTTP token (RFC 9110
// §9.1): a space, CR or LF in it would end the request line or start a
// header field of its own.
func checkMethod(m string) error {
	if m == "" || !validToken(m) {
		return fmt.Errorf("%q is not an HTTP method: want a token (letters, digits and !#$%%&'*+-.^_`|~)", m)
	}
	return nil
}

func validToken(s string) bool {
	for i := 0; i < len(s); i++ {
		if !httpguts.IsTokenRune(rune(s[i])) {
			return false
		}
	}
	return true
}

// sentOnce marks err, a failure of a request that is not idempotent
// once it was written, as not retryable, saying why: the server may have
// acted on it, and a retry would act again. A timeout stays retryable,
// as curl's --retry retries one whatever the method.
func sentOnce(err error, s sending) error {
	var se *schemes.Error
	if !errors.As(err, &se) || !se.Retryable || se.Kind == schemes.KindTimeout || s.idempotent() {
		return err
	}
	c := *se
	c.Retryable = false
	c.Msg += fmt.Sprintf(" (not retried: the server may have acted on the %s already)", s.method)
	return &c
}
