package fetch

import (
	"errors"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/urlget/urlget/schemes"
)

// How a retrieval is told in HTTP's terms, for every caller that answers
// with HTTP: the Client's RoundTripper and the `urlget serve` gateway.

// ListingMediaType is the Content-Type of a listing told in HTTP (the
// RoundTripper's answer to a directory, menu, group or search): JSON
// lines, one object per line, each an entry as `urlget --json` writes it
// (schemes.Entry's MarshalJSON: name, title, kind, size, modtime,
// precision_s, url, target, extra), in the server's order. The profile
// parameter names it a urlget listing, so that a reader can tell it from
// other newline-delimited JSON.
const ListingMediaType = `application/x-ndjson; profile="urlget-listing"`

// DefaultRetryAfter is the Retry-After told with a 503 when the server
// that was busy named no time of its own: a minute, a polite first wait
// for a server that refused a session (FTP 421, NNTP 400).
const DefaultRetryAfter = time.Minute

// HTTPStatus is the HTTP status that tells err, a retrieval's failure, by
// its kind (schemes.KindOf):
//
//   - not found: 404;
//   - permission: 401 when refused at a login step (loginRefused),
//     else 403; safety (a rule of the Client's refused it): 403;
//   - busy: 503 (to be told with a Retry-After);
//   - timeout: 504; usage (a malformed URL or request): 400;
//   - unsupported (a scheme or a feature): 501;
//   - a local failure: 500;
//   - a byte range past the resource's end (schemes.RangeNotSatisfiable):
//     416;
//   - anything else — connect, protocol, canceled, other: 502, the
//     server behind could not be reached or said what cannot be used.
func HTTPStatus(err error) int {
	if rns := (*schemes.RangeNotSatisfiable)(nil); errors.As(err, &rns) {
		return http.StatusRequestedRangeNotSatisfiable
	}
	switch schemes.KindOf(err) {
	case schemes.KindNotFound:
		return http.StatusNotFound
	case schemes.KindUsage:
		return http.StatusBadRequest
	case schemes.KindPermission:
		if loginRefused(err) {
			return http.StatusUnauthorized
		}
		return http.StatusForbidden
	case schemes.KindSafety:
		return http.StatusForbidden
	case schemes.KindBusy:
		return http.StatusServiceUnavailable
	case schemes.KindTimeout:
		return http.StatusGatewayTimeout
	case schemes.KindUnsupported:
		return http.StatusNotImplemented
	case schemes.KindLocal:
		return http.StatusInternalServerError
	}
	return http.StatusBadGateway
}

// loginRefused reports whether err is a permission refused at a login
// step — the phase "login", or an authentication exchange ("auth…") —
// or for want of a user or password (the Part at fault): what HTTP
// tells with 401, which asks for credentials, rather than 403.
func loginRefused(err error) bool {
	var e *schemes.Error
	if !errors.As(err, &e) || e.Kind != schemes.KindPermission {
		return false
	}
	return e.Phase == "login" || strings.HasPrefix(e.Phase, "auth") || e.Part == "user" || e.Part == "password"
}

// retryAfter is the Retry-After value, in whole seconds, for err told as
// 503: the time the server asked for (schemes.Error.RetryAfter), rounded
// up, else DefaultRetryAfter.
func retryAfter(err error) string {
	d := DefaultRetryAfter
	var e *schemes.Error
	if errors.As(err, &e) && e.RetryAfter > 0 {
		d = e.RetryAfter
	}
	return strconv.FormatInt(int64((d+time.Second-1)/time.Second), 10)
}

// MediaType is the Content-Type of r's bytes: the one the server or the
// scheme told (a gopher item type, a Gopher+ view, a WAIS document type,
// HTTP's own), else the one its name suggests (mime.TypeByExtension),
// else application/octet-stream.
func MediaType(r *schemes.Response) string {
	if r.Type != "" {
		return r.Type
	}
	if t := mime.TypeByExtension(path.Ext(r.Name)); t != "" {
		return t
	}
	return "application/octet-stream"
}

// notModifiedSince reports whether a resource last modified at mod, known
// to prec, has not changed since ims, to the second of an HTTP date
// (If-Modified-Since): only when the latest time mod can stand for is
// not after ims. An unknown time is never unmodified.
func notModifiedSince(mod time.Time, prec time.Duration, ims time.Time) bool {
	return !mod.IsZero() && !ims.IsZero() && !schemes.ChangedAfter(mod, prec, ims)
}
