// Package httprange answers HTTP byte ranges (RFC 9110 §14) from a
// retrieval: the one rule that the fetch Client's RoundTripper and the
// `urlget serve` gateway share. It is not API: both tell it in their own
// documentation.
package httprange

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// Parse reads an HTTP Range of one byte range, "bytes=N-" or
// "bytes=N-M"; end is -1 when open. Other forms (a suffix "bytes=-N",
// several ranges, another unit) are not ok: the caller answers them with
// the whole resource, as RFC 9110 §14.2 allows.
func Parse(v string) (start, end int64, ok bool) {
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

// Length is the length of the range start to end that Parse read, for
// a fetch.Request's Length: 0 when it is open (end -1).
func Length(start, end int64) int64 {
	if end < 0 || end-start+1 <= 0 {
		return 0 // open, or too long to count: to the end
	}
	return end - start + 1
}

// Reply is how a retrieved resource answers an HTTP request that
// may have asked for a byte range (Answer).
type Reply struct {
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

// Answer says how resp, retrieved for a request that asked for the
// bytes start to end (end -1: to the last; ranged false: asked for no
// range), answers it. It is 206 only where the scheme resumed exactly at
// start (or start is 0) and the size is known, so that Content-Range can
// be told; a resource it could not resume is sent whole with 200, which
// a client must accept (RFC 9110 §14.2); a start at or past the end is
// 416 (§15.5.17). A response that starts elsewhere than asked, or resumed
// at a size unknown, is an error of KindProtocol (a 502).
func Answer(resp *schemes.Response, ranged bool, start, end int64) (Reply, error) {
	if resp.Offset != 0 && (!ranged || resp.Offset != start) {
		return Reply{}, &schemes.Error{Phase: "range", Kind: schemes.KindProtocol,
			Msg: fmt.Sprintf("asked for byte %d, the server started at %d", start, resp.Offset)}
	}
	if ranged && resp.Size >= 0 && start >= resp.Size {
		return Reply{Status: http.StatusRequestedRangeNotSatisfiable, Length: -1,
			ContentRange: fmt.Sprintf("bytes */%d", resp.Size)}, nil
	}
	if ranged && resp.Offset == start && resp.Size >= 0 {
		last := resp.Size - 1
		if end >= 0 && end < last {
			last = end
		}
		return Reply{Status: http.StatusPartialContent, Length: last - start + 1,
			ContentRange: fmt.Sprintf("bytes %d-%d/%d", start, last, resp.Size)}, nil
	}
	if resp.Offset != 0 {
		return Reply{}, &schemes.Error{Phase: "range", Kind: schemes.KindProtocol,
			Msg: "the server resumed a resource of unknown size"}
	}
	return Reply{Status: http.StatusOK, Length: resp.Size}, nil
}

// Unsatisfiable is the 416 Reply for err, a retrieval's failure, when it
// says the range asked for starts past the resource's end
// (schemes.RangeNotSatisfiable, which a scheme that sends ranges returns
// rather than the whole resource); ok is false for any other failure.
func Unsatisfiable(err error) (r Reply, ok bool) {
	var rns *schemes.RangeNotSatisfiable
	if !errors.As(err, &rns) {
		return Reply{}, false
	}
	return Reply{Status: http.StatusRequestedRangeNotSatisfiable, Length: -1,
		ContentRange: fmt.Sprintf("bytes */%d", rns.Size)}, true
}
