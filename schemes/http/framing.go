package http

import (
	"io"
	"net/http"
	"slices"
)

// framing says how the end of a response body is known, which decides
// whether an index page that stops is whole. net/http fails a body that
// ends short of its Content-Length or chunked terminator
// (io.ErrUnexpectedEOF, which body.Read makes a *schemes.Error); a body
// delimited by the connection's close has no such check, and a server
// that dies mid-page looks like one that finished.
type framing int

const (
	// byClose: HTTP/1.x without Content-Length or chunked coding; the
	// body ends wherever the connection does.
	byClose framing = iota
	byLength
	byChunks
	// byStream: HTTP/2's END_STREAM flag.
	byStream
)

// framingOf is how resp's body is delimited.
func framingOf(resp *http.Response) framing {
	switch {
	case resp.ProtoMajor >= 2:
		return byStream
	case slices.Contains(resp.TransferEncoding, "chunked"):
		return byChunks
	case resp.ContentLength >= 0:
		return byLength
	}
	return byClose
}

// framingOfBody is the framing of a Fetch body; byClose, the cautious
// answer, for a body that did not come from a response.
func framingOfBody(rc io.ReadCloser) framing {
	if b, ok := rc.(*body); ok {
		return b.framing
	}
	return byClose
}

// pageEnd is the rule an index page must meet to be taken as whole once
// its body has ended (io.EOF): a close-delimited page must have shown
// its </html> end tag, and so must any page that opened an <html>
// element. It returns "" for a whole page, else why it may be cut short.
// A framed page without an <html> element (a fragment some hand-made
// indexes are) is whole by its framing alone.
func pageEnd(f framing, opened, closed bool) string {
	switch {
	case closed:
		return ""
	case f == byClose:
		return "the index page ended without </html> and its length was not given: it may be cut short"
	case opened:
		return "the index page opened <html> but ended without </html>: it may be cut short"
	}
	return ""
}
