package http

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/urlget/urlget/schemes"
)

// response turns the answer to a GET into a Response. It does not
// consume or close the response body; when the returned Response has a
// Body already (a complete resume) or is a redirect, Fetch discards the
// response body, otherwise it hands it to the caller. restart is set,
// saying why, when the partial copy must not be continued from this
// answer (see resumePlan): Fetch then asks for the whole resource.
func (h *Handler) response(loc *URL, req *schemes.Request, x *exchange, rs resumePlan) (r *schemes.Response, restart string, err error) {
	resp, tr := x.resp, x.tr
	status := resp.StatusCode
	switch {
	case status == http.StatusNotModified && !req.IfModifiedSince.IsZero():
		// RFC 9110 §15.4.5: the copy the caller holds is current.
		r = describe(loc, resp)
		r.NotModified, r.Body = true, io.NopCloser(strings.NewReader(""))
		return r, "", nil
	case status == http.StatusPreconditionFailed && !req.IfUnmodifiedSince.IsZero():
		// RFC 9110 §13.1.4: the resource changed after the date.
		r = describe(loc, resp)
		r.Changed, r.Body = true, io.NopCloser(strings.NewReader(""))
		return r, "", nil
	case isRedirect(status):
		r, err := redirectResponse(loc, resp, tr)
		return r, "", err
	case status == http.StatusPartialContent && len(req.Ranges) > 0:
		// Several ranges: the server's reply as it is (multipart, or
		// one part when it merged them), as curl writes it.
		r = describe(loc, resp)
		r.Length, r.SHA256 = max(resp.ContentLength, 0), ""
		return r, "", nil
	case status == http.StatusPartialContent:
		return h.partial(loc, req, resp, tr)
	case status == http.StatusRequestedRangeNotSatisfiable && req.Ranged():
		// An error status as any other (its page, with ErrorPages), which
		// says the range starts past the end when the server tells the
		// size.
		e := statusError(loc, resp).(*schemes.Error)
		e.Msg = fmt.Sprintf("%s: range %s (Content-Range %q)", resp.Status, rs.spec, resp.Header.Get("Content-Range"))
		if _, _, total, ok := contentRange(resp.Header.Get("Content-Range")); ok && total >= 0 {
			e.Err = &schemes.RangeNotSatisfiable{Size: total, Err: e.Err}
		}
		return nil, "", e
	case status == http.StatusRequestedRangeNotSatisfiable && req.Offset > 0:
		// "bytes */N" with N the offset: the local copy is complete, if
		// the rule lets it be continued at all.
		_, _, total, ok := contentRange(resp.Header.Get("Content-Range"))
		if ok {
			may, why := req.MayResume(remoteOf(resp, total))
			if !may {
				return nil, why, nil // shorter than the copy, or changed
			}
			if total == req.Offset {
				note(tr, why)
				tr.Info(fmt.Sprintf("all %d bytes already retrieved", total))
				r = describe(loc, resp)
				r.Offset, r.Size = total, total
				r.Body = io.NopCloser(strings.NewReader(""))
				return r, "", nil
			}
		}
		return nil, "", &schemes.Error{Scheme: loc.g.Scheme, Phase: "response", Kind: schemes.KindProtocol, Code: status,
			Msg: fmt.Sprintf("cannot resume at byte %d: server answered %s (Content-Range %q)",
				req.Offset, resp.Status, resp.Header.Get("Content-Range"))}
	case status >= 200 && status < 300 && len(req.Ranges) > 0:
		return nil, "", &schemes.Error{Scheme: loc.g.Scheme, Phase: "response", Kind: schemes.KindProtocol, Code: status,
			Msg: fmt.Sprintf("asked for the byte ranges %s, the server sent %s with the whole resource instead", rs.spec, resp.Status)}
	case status >= 200 && status < 300:
		// The whole resource: a range or a resume request was ignored
		// or, with If-Range, refused because the resource changed. The
		// caller cuts out the range, or rewrites from the start.
		if rs.ranged() {
			tr.Info(rs.wholeSent(req.Ranged()))
		}
		r = describe(loc, resp)
		r.Size = resp.ContentLength
	default:
		return nil, "", statusError(loc, resp)
	}
	return r, "", nil
}

// partial is the Response for a 206 answering one range (req.Ranged) or a
// resume: its Content-Range must start where asked (for a suffix, where
// the last bytes start), and a resume's must pass the resume rule, else
// restart says why the whole resource is asked for instead.
func (h *Handler) partial(loc *URL, req *schemes.Request, resp *http.Response, tr schemes.Trace) (*schemes.Response, string, error) {
	first, last, total, ok := contentRange(resp.Header.Get("Content-Range"))
	want := max(req.Offset, 0)
	if req.Suffix > 0 && ok {
		want = first // the server knows where the last bytes start
		if total >= 0 {
			want = max(total-req.Suffix, 0)
		}
	}
	if !ok || first != want {
		return nil, "", &schemes.Error{Scheme: loc.g.Scheme, Phase: "response", Kind: schemes.KindProtocol, Code: resp.StatusCode,
			Msg: fmt.Sprintf("206 with Content-Range %q, want bytes %d-", resp.Header.Get("Content-Range"), want)}
	}
	if req.Offset > 0 && !req.Ranged() {
		may, why := req.MayResume(remoteOf(resp, total))
		if !may {
			return nil, why, nil
		}
		note(tr, why)
	}
	r := describe(loc, resp)
	r.Offset, r.Size = first, total
	if total < 0 || last+1 < total {
		r.Length = last - first + 1 // the body ends before the resource does
	}
	return r, "", nil
}

// note traces msg unless it is empty.
func note(tr schemes.Trace, msg string) {
	if msg != "" {
		tr.Info(msg)
	}
}

// describe is what a successful response's headers say of the resource:
// Kind file, Type, ModTime (to the second), ETag, Name and SHA256; the
// caller sets Size and Offset.
func describe(loc *URL, resp *http.Response) *schemes.Response {
	r := &schemes.Response{Kind: schemes.EntryFile, Size: -1, Status: resp.StatusCode,
		Type: resp.Header.Get("Content-Type"), ETag: resp.Header.Get("ETag")}
	if t, ok := lastModified(resp); ok {
		r.ModTime, r.Precision = t, time.Second
	}
	r.SuggestedName = dispositionName(resp.Header.Get("Content-Disposition"))
	r.Name = r.SuggestedName
	if r.Name == "" {
		r.Name = loc.LocalName()
	}
	r.SHA256 = sha256Of(resp.Header)
	return r
}

// pageResponse is the Response of an error status whose page the caller
// asked for (Request.ErrorPages): described as a resource is, with
// Failure the error fail is, the Body the caller's to set (Fetch) or
// none (Stat).
func pageResponse(loc *URL, x *exchange, fail error) *schemes.Response {
	r := describe(loc, x.resp)
	r.Size, r.Head, r.Failure = x.resp.ContentLength, x.head, fail
	return r
}

// redirectResponse is the Response for a 3xx: the absolute URL to go to,
// and no Body.
func redirectResponse(loc *URL, resp *http.Response, tr schemes.Trace) (*schemes.Response, error) {
	to, err := redirect(loc, resp)
	if err != nil {
		return nil, err
	}
	tr.Info("redirect to " + schemes.RedactString(to))
	return &schemes.Response{Size: -1, Status: resp.StatusCode, Redirect: to}, nil
}

func isRedirect(status int) bool {
	switch status {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// redirect resolves the Location of resp against the request URL with
// schemes.Resolve, which works on the escaped text and so keeps every
// escape as the server wrote it. A Location without a fragment inherits the
// request's (RFC 9110 §10.2.2). A relative Location keeps the request URL's
// user and password, like any relative reference: the fetch client shows
// redirect targets redacted.
func redirect(loc *URL, resp *http.Response) (string, error) {
	where := resp.Header.Get("Location")
	fail := func(msg string, err error) error {
		return &schemes.Error{Scheme: loc.g.Scheme, Phase: "response", Kind: schemes.KindProtocol, Code: resp.StatusCode,
			Msg: msg, Err: err}
	}
	if strings.TrimSpace(where) == "" {
		return "", fail(resp.Status+" without a Location", nil)
	}
	to, err := schemes.Resolve(loc.String(), where)
	if err != nil {
		return "", fail(fmt.Sprintf("bad Location %q", schemes.RedactString(where)), err)
	}
	if loc.g.Fragment != nil && !strings.Contains(to, "#") {
		to += "#" + *loc.g.Fragment
	}
	return to, nil
}

// statusError maps an unusable status to a kind: 404 and 410 are "not
// found", 401, 403 and 407 "permission", 503 and 429 "busy" (retryable,
// after the Retry-After the server asks for), everything else "protocol",
// of which the statuses that are usually passing (408, 500, 502, 504:
// with 503 and 429 those curl's --retry tries again) are retryable. A
// status of 400 and up has schemes.ErrErrorStatus in its chain.
func statusError(loc *URL, resp *http.Response) error {
	e := &schemes.Error{Scheme: loc.g.Scheme, Phase: "response", Kind: schemes.KindProtocol, Code: resp.StatusCode,
		Msg: resp.Status}
	switch resp.StatusCode {
	case http.StatusServiceUnavailable, http.StatusTooManyRequests:
		e = schemes.BusyError(loc.g.Scheme, "response", resp.StatusCode, resp.Status)
		e.RetryAfter = retryAfter(resp.Header, time.Now())
	case http.StatusNotFound, http.StatusGone:
		e.Kind = schemes.KindNotFound
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusProxyAuthRequired:
		e.Kind = schemes.KindPermission
	case http.StatusRequestTimeout, http.StatusInternalServerError, http.StatusBadGateway, http.StatusGatewayTimeout:
		e.Retryable = true
	}
	switch {
	case resp.StatusCode >= 400:
		e.Err = schemes.Reason("", schemes.ErrErrorStatus) // no text: the status says it
	case resp.StatusCode >= 300:
		e.Msg += " (not a redirect urlget follows)"
	}
	return e
}

// contentRange parses "bytes first-last/total" and "bytes */total"; first
// and last are -1 in the second form, total is -1 when "*".
func contentRange(s string) (first, last, total int64, ok bool) {
	unit, rest, found := strings.Cut(strings.TrimSpace(s), " ")
	if !found || !strings.EqualFold(unit, "bytes") {
		return 0, 0, 0, false
	}
	rng, tot, found := strings.Cut(strings.TrimSpace(rest), "/")
	if !found {
		return 0, 0, 0, false
	}
	total = -1
	if tot != "*" {
		if total, ok = num(tot); !ok {
			return 0, 0, 0, false
		}
	}
	if rng == "*" {
		if total < 0 {
			return 0, 0, 0, false
		}
		return -1, -1, total, true
	}
	a, b, found := strings.Cut(rng, "-")
	if !found {
		return 0, 0, 0, false
	}
	first, ok1 := num(a)
	last, ok2 := num(b)
	if !ok1 || !ok2 || last < first || total >= 0 && last >= total {
		return 0, 0, 0, false
	}
	return first, last, total, true
}

func num(s string) (int64, bool) {
	if s == "" || s[0] < '0' || s[0] > '9' {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// dispositionName is the file name a Content-Disposition header suggests,
// cut to its last path element; "" when there is none usable.
func dispositionName(cd string) string {
	if cd == "" {
		return ""
	}
	_, params, err := mime.ParseMediaType(cd)
	if err != nil {
		return ""
	}
	return schemes.BaseName(params["filename"])
}

// sha256Of reads the resource's SHA-256 from Repr-Digest (RFC 9530,
// "sha-256=:base64:") or Digest (RFC 3230, "SHA-256=base64"); both describe
// the whole representation, so they hold for a 206 too. It returns lower-case
// hex, or "".
func sha256Of(h http.Header) string {
	for _, field := range []string{"Repr-Digest", "Digest"} {
		for _, v := range h.Values(field) {
			for _, item := range strings.Split(v, ",") {
				alg, val, ok := strings.Cut(strings.TrimSpace(item), "=")
				if !ok || !strings.EqualFold(strings.TrimSpace(alg), "sha-256") {
					continue
				}
				val = strings.Trim(strings.TrimSpace(val), ":")
				if sum, err := base64.StdEncoding.DecodeString(val); err == nil && len(sum) == 32 {
					return hex.EncodeToString(sum)
				}
				if sum, err := hex.DecodeString(val); err == nil && len(sum) == 32 {
					return hex.EncodeToString(sum) // some servers send hex
				}
			}
		}
	}
	return ""
}
