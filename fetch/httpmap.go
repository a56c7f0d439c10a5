package fetch

import (
	"errors"
	"fmt"
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
//   - permission: 401 when refused at a login step (LoginRefused),
//     else 403; safety (a rule of the Client's refused it): 403;
//   - busy: 503 (send Retry-After, RetryAfter);
//   - timeout: 504; usage (a malformed URL or request): 400;
//   - unsupported (a scheme or a feature): 501;
//   - a local failure: 500;
//   - anything else — connect, protocol, canceled, other: 502, the
//     server behind could not be reached or said what cannot be used.
func HTTPStatus(err error) int {
	switch schemes.KindOf(err) {
	case schemes.KindNotFound:
		return http.StatusNotFound
	case schemes.KindUsage:
		return http.StatusBadRequest
	case schemes.KindPermission:
		if LoginRefused(err) {
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

// LoginRefused reports whether err is a permission refused at a login
// step — the phase "login", or an authentication exchange ("auth…") —
// or for want of a user or password (the Part at fault): what HTTP
// tells with 401, which asks for credentials, rather than 403.
func LoginRefused(err error) bool {
	var e *schemes.Error
	if !errors.As(err, &e) || e.Kind != schemes.KindPermission {
		return false
	}
	return e.Phase == "login" || strings.HasPrefix(e.Phase, "auth") || e.Part == "user" || e.Part == "password"
}

// RetryAfter is the Retry-After value, in whole seconds, for err told as
// 503: the time the server asked for (schemes.Error.RetryAfter), rounded
// up, else DefaultRetryAfter.
func RetryAfter(err error) string {
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

// ParseRange reads an HTTP Range of one byte range, "bytes=N-" or
// "bytes=N-M"; end is -1 when open. Other forms (a suffix "bytes=-N",
// several ranges, another unit) are not ok: the caller answers them with
// the whole resource, as RFC 9110 §14.2 allows.
func ParseRange(v string) (start, end int64, ok bool) {
	spec, found := strings.CutPrefix(v, "bytes=")
	if !found || strings.Contains(spec, ",") {
		return 0, -1, false
	}
	a, b, found := strings.Cut(strings.TrimSpace(spec), "-")
	if !found || a == "" {
		return 0, -1, false
	}
	start, err := strconv.ParseInt(a, 10, 64)
	if err != nil || start < 0 {
		return 0, -1, false
	}
	end = -1
	if b != "" {
		if end, err = strconv.ParseInt(b, 10, 64); err != nil || end < start {
			return 0, -1, false
		}
	}
	return start, end, true
}

// RangeReply is how a retrieved resource answers an HTTP request that
// may have asked for a byte range (ReplyToRange).
type RangeReply struct {
	// Status is 200 (the whole resource), 206 (the part asked for) or
	// 416 (nothing there to send).
	Status int
	// ContentRange is the Content-Range to send with 206 and 416, ""
	// with 200.
	ContentRange string
	// Length is how many bytes of the Body to send (Content-Length), -1
	// when unknown: with 206 the Body holds more, and the caller sends
	// only Length of them.
	Length int64
}

// ReplyToRange says how resp, retrieved for a request that asked for the
// bytes start to end (end -1: to the last; ranged false: asked for no
// range), answers it. It is 206 only where the scheme resumed exactly at
// start (or start is 0) and the size is known, so that Content-Range can
// be told; a resource it could not resume is sent whole with 200, which
// a client must accept (RFC 9110 §14.2); a start at or past the end is
// 416 (§15.5.17). A response that starts elsewhere than asked, or resumed
// at a size unknown, is an error of KindProtocol (a 502).
func ReplyToRange(resp *schemes.Response, ranged bool, start, end int64) (RangeReply, error) {
	if resp.Offset != 0 && (!ranged || resp.Offset != start) {
		return RangeReply{}, &schemes.Error{Phase: "range", Kind: schemes.KindProtocol,
			Msg: fmt.Sprintf("asked for byte %d, the server started at %d", start, resp.Offset)}
	}
	if ranged && resp.Size >= 0 && start >= resp.Size {
		return RangeReply{Status: http.StatusRequestedRangeNotSatisfiable, Length: -1,
			ContentRange: fmt.Sprintf("bytes */%d", resp.Size)}, nil
	}
	if ranged && resp.Offset == start && resp.Size >= 0 {
		last := resp.Size - 1
		if end >= 0 && end < last {
			last = end
		}
		return RangeReply{Status: http.StatusPartialContent, Length: last - start + 1,
			ContentRange: fmt.Sprintf("bytes %d-%d/%d", start, last, resp.Size)}, nil
	}
	if resp.Offset != 0 {
		return RangeReply{}, &schemes.Error{Phase: "range", Kind: schemes.KindProtocol,
			Msg: "the server resumed a resource of unknown size"}
	}
	return RangeReply{Status: http.StatusOK, Length: resp.Size}, nil
}

// notModifiedSince reports whether a resource last modified at mod, known
// to prec, has not changed since ims, to the second of an HTTP date
// (If-Modified-Since): only when the latest time mod can stand for is
// not after ims. An unknown time is never unmodified.
func notModifiedSince(mod time.Time, prec time.Duration, ims time.Time) bool {
	if mod.IsZero() || ims.IsZero() {
		return false
	}
	latest := mod.Add(max(prec, time.Second) - time.Second)
	return !latest.Truncate(time.Second).After(ims)
}
