package http

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/urlget/urlget/schemes"
)

// response turns resp into a Response or an error. It does not consume or
// close resp.Body; when the returned Response has a Body already (a
// redirect, a complete resume), Fetch discards resp.Body, otherwise it
// hands resp.Body to the caller.
func (h *Handler) response(loc *URL, req *schemes.Request, resp *http.Response, tr schemes.Trace) (*schemes.Response, error) {
	status := resp.StatusCode
	r := &schemes.Response{Size: -1, Status: status}
	switch {
	case isRedirect(status):
		to, err := redirect(loc, resp)
		if err != nil {
			return nil, err
		}
		tr.Info("redirect to " + schemes.RedactString(to))
		r.Body = io.NopCloser(strings.NewReader(""))
		r.Redirect = to
		return r, nil
	case status == http.StatusPartialContent:
		first, _, total, ok := contentRange(resp.Header.Get("Content-Range"))
		want := max(req.Offset, 0)
		if !ok || first != want {
			return nil, &schemes.Error{Scheme: loc.g.Scheme, Phase: "response", Kind: schemes.KindProtocol, Code: status,
				URL: loc.Redacted(), Msg: fmt.Sprintf("206 with Content-Range %q, want bytes %d-", resp.Header.Get("Content-Range"), want)}
		}
		r.Offset, r.Size = first, total
	case status == http.StatusRequestedRangeNotSatisfiable && req.Offset > 0:
		// "bytes */N" with N the offset: the local copy is complete.
		_, _, total, ok := contentRange(resp.Header.Get("Content-Range"))
		if !ok || total != req.Offset {
			return nil, &schemes.Error{Scheme: loc.g.Scheme, Phase: "response", Kind: schemes.KindProtocol, Code: status,
				URL: loc.Redacted(), Msg: fmt.Sprintf("cannot resume at byte %d: server answered %s (Content-Range %q)",
					req.Offset, resp.Status, resp.Header.Get("Content-Range"))}
		}
		tr.Info(fmt.Sprintf("all %d bytes already retrieved", total))
		r.Offset, r.Size = total, total
		r.Body = io.NopCloser(strings.NewReader(""))
	case status >= 200 && status < 300:
		// The whole resource: a resume request was ignored or, with
		// If-Range, refused because the resource changed. The caller
		// rewrites from the start.
		if req.Offset > 0 {
			tr.Info("server sent the whole resource; starting from byte 0")
		}
		r.Size = resp.ContentLength
	default:
		return nil, statusError(loc, resp)
	}
	r.Type = resp.Header.Get("Content-Type")
	if t, err := http.ParseTime(resp.Header.Get("Last-Modified")); err == nil {
		r.ModTime = t
	}
	r.Name = dispositionName(resp.Header.Get("Content-Disposition"))
	if r.Name == "" {
		r.Name = loc.Name()
	}
	r.SHA256 = sha256Of(resp.Header)
	return r, nil
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
			URL: loc.Redacted(), Msg: msg, Err: err}
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
// found", 401, 403 and 407 "permission", everything else "protocol", and
// the statuses that are usually passing (429, 500, 502, 503, 504) are
// retryable.
func statusError(loc *URL, resp *http.Response) error {
	e := &schemes.Error{Scheme: loc.g.Scheme, Phase: "response", Kind: schemes.KindProtocol, Code: resp.StatusCode,
		URL: loc.Redacted(), Msg: resp.Status}
	switch resp.StatusCode {
	case http.StatusNotFound, http.StatusGone:
		e.Kind = schemes.KindNotFound
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusProxyAuthRequired:
		e.Kind = schemes.KindPermission
	case http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway,
		http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		e.Retryable = true
	}
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
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
	return baseName(params["filename"])
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

// requestError classifies a failure to get a response. An *schemes.Error
// from the Dialer is returned as it is (with the URL filled in).
func requestError(ctx context.Context, timedOut bool, timeout time.Duration, loc *URL, err error) error {
	var se *schemes.Error
	if errors.As(err, &se) {
		c := *se
		if c.URL == "" {
			c.URL = loc.Redacted()
		}
		if c.Scheme == "" {
			c.Scheme = loc.g.Scheme
		}
		return &c
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // drop net/http's "Get <url>:" prefix: the URL is in the Error already
	}
	if ctx.Err() != nil {
		return ctxError(loc, "request", ctx.Err())
	}
	e := &schemes.Error{Scheme: loc.g.Scheme, Phase: "request", Kind: schemes.KindProtocol, URL: loc.Redacted(), Err: err}
	var ne net.Error
	var cve *tls.CertificateVerificationError
	var rhe tls.RecordHeaderError
	var ae tls.AlertError
	var uae x509.UnknownAuthorityError
	var hne x509.HostnameError
	var cie x509.CertificateInvalidError
	switch {
	case timedOut:
		e.Kind, e.Retryable, e.Msg = schemes.KindTimeout, true, fmt.Sprintf("no response within %v", timeout)
	case errors.As(err, &ne) && ne.Timeout():
		e.Kind, e.Retryable = schemes.KindTimeout, true
	case errors.As(err, &cve), errors.As(err, &uae), errors.As(err, &hne), errors.As(err, &cie):
		// As for every TLS scheme (transport's handshake errors): a server
		// that cannot be authenticated is refused, not retried.
		e.Kind, e.Phase, e.Part = schemes.KindSafety, "tls", "host"
		e.Msg = fmt.Sprintf("TLS certificate of %s is not trusted (use --cacert FILE, or -k to skip verification)",
			loc.g.Host)
	case errors.As(err, &rhe), errors.As(err, &ae):
		e.Kind, e.Phase = schemes.KindConnect, "tls"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		e.Retryable, e.Msg = true, "connection closed before a response"
	}
	return e
}

func ctxError(loc *URL, phase string, err error) error {
	kind := schemes.KindCanceled
	if errors.Is(err, context.DeadlineExceeded) {
		kind = schemes.KindTimeout
	}
	return &schemes.Error{Scheme: loc.g.Scheme, Phase: phase, Kind: kind, URL: loc.Redacted(), Err: err}
}

// body is the Response.Body: the response body, with read errors turned
// into *schemes.Error and the request's resources released on Close.
type body struct {
	rc     io.ReadCloser
	ctx    context.Context
	loc    *URL
	cancel context.CancelCauseFunc
	done   func()
	once   sync.Once
}

func (b *body) Read(p []byte) (int, error) {
	// net/http reacts to cancellation from a goroutine of its own; until
	// then a body it has buffered would still be delivered in full.
	if cerr := b.ctx.Err(); cerr != nil {
		return 0, ctxError(b.loc, "body", cerr)
	}
	n, err := b.rc.Read(p)
	if err == nil || err == io.EOF {
		return n, err
	}
	if cerr := b.ctx.Err(); cerr != nil {
		return n, ctxError(b.loc, "body", cerr)
	}
	e := &schemes.Error{Scheme: b.loc.g.Scheme, Phase: "body", Kind: schemes.KindProtocol, URL: b.loc.Redacted(),
		Retryable: true, Err: err}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		e.Kind = schemes.KindTimeout
	}
	return n, e
}

func (b *body) Close() error {
	err := b.rc.Close()
	b.once.Do(func() {
		b.cancel(nil)
		b.done()
	})
	return err
}
