package http

import (
	"net/http"
	"strings"
	"time"

	"github.com/urlget/urlget/schemes"
)

// resumePlan is how a GET asks for part of a resource: a byte range
// (schemes.Request.Ranged: Range alone, with the range's end, a suffix or
// a list, as curl's -r sends them), or the rest of a partial copy of
// offset bytes under the one resume rule (schemes.Request.MayResume):
//
//   - a copy urlget recorded is asked for with Range and If-Range carrying
//     the record's validator: its ETag when strong (RFC 9110 §13.1.5 allows
//     no weak one), else its modification time. A server whose
//     resource no longer matches answers 200 with everything;
//   - a copy another tool made (no record, or a record with no validator)
//     is asked for with Range only, and the 206 that answers is checked
//     with MayResume: a Last-Modified newer than the copy, or a size
//     shorter than it, means the copy is stale, and the whole resource is
//     asked for again.
//
// Every 206 to a resume is checked with MayResume, also one answering
// If-Range, so that a server that ignores If-Range cannot extend a stale
// copy.
type resumePlan struct {
	offset  int64  // 0: not resuming
	spec    string // the Range value after "bytes=", "" for none
	ifRange string // the If-Range value, "" for none
}

// planResume is the plan for req.
func planResume(req *schemes.Request) resumePlan {
	p := resumePlan{offset: max(req.Offset, 0)}
	switch {
	case len(req.Ranges) > 0:
		p.spec = schemes.FormatByteRanges(req.Ranges)
	case req.Offset > 0 || req.Length > 0 || req.Suffix > 0:
		p.spec = req.Range().String()
	}
	if rec := req.Partial.Record; rec != nil && req.Offset > 0 {
		switch {
		case rec.ETag != "" && !strings.HasPrefix(rec.ETag, "W/"):
			p.ifRange = rec.ETag
		case !rec.ModTime.IsZero():
			p.ifRange = rec.ModTime.UTC().Format(http.TimeFormat)
		}
	}
	return p
}

// ranged says whether the plan asks for part of the resource.
func (p resumePlan) ranged() bool { return p.spec != "" }

// header returns the header fields the plan sends; nil when it asks for
// the whole resource.
func (p resumePlan) header() http.Header {
	if !p.ranged() {
		return nil
	}
	h := http.Header{"Range": {p.rangeValue()}}
	if p.ifRange != "" {
		h.Set("If-Range", p.ifRange)
	}
	return h
}

// lines returns the header fields as Explain shows them, Range first.
func (p resumePlan) lines() []string {
	if !p.ranged() {
		return nil
	}
	l := []string{"Range: " + p.rangeValue()}
	if p.ifRange != "" {
		l = append(l, "If-Range: "+p.ifRange)
	}
	return l
}

func (p resumePlan) rangeValue() string { return "bytes=" + p.spec }

// wholeSent is the note for a 200 answering a Range: the server sent the
// whole resource, from which the caller cuts a range (ranged) or which it
// writes from the start.
func (p resumePlan) wholeSent(ranged bool) string {
	switch {
	case ranged:
		return "the server sent the whole resource (it does not send ranges); the range is cut out of it"
	case p.ifRange != "":
		return "the server sent the whole resource (it changed since the partial copy was made: If-Range did not match, " +
			"or the server does not send ranges); starting from byte 0"
	}
	return "the server sent the whole resource (it does not send ranges); starting from byte 0"
}

// remoteOf is what resp says of the remote resource for MayResume: its
// full size (from Content-Range, given as total), Last-Modified and
// ETag.
func remoteOf(resp *http.Response, total int64) schemes.Remote {
	r := schemes.Remote{Size: total, ETag: resp.Header.Get("ETag")}
	if t, ok := lastModified(resp); ok {
		r.ModTime, r.Precision = t, time.Second
	}
	return r
}

// lastModified is resp's Last-Modified, an HTTP date (exact to the
// second).
func lastModified(resp *http.Response) (time.Time, bool) {
	t, err := http.ParseTime(resp.Header.Get("Last-Modified"))
	return t, err == nil
}
