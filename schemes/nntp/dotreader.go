package nntp

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// errTooBig is returned by dotReader when the block exceeds its limit.
var errTooBig = errors.New("article larger than the limit")

// dotReader streams a multi-line data block (RFC 3977 §3.1.1) as the
// article's bytes: the terminating "." line is consumed and not returned,
// one leading "." is removed from dot-stuffed lines, and each CRLF becomes
// LF. Everything else, bare CRs and LFs included, passes unchanged. Lines
// longer than the buffer are passed through in pieces, so memory is bounded
// by the buffer whatever the server sends; the total is bounded by max.
type dotReader struct {
	r         *bufio.Reader
	max       int64 // the most bytes returned before errTooBig
	n         int64 // bytes returned so far
	lineStart bool  // the next byte begins a line
	pendingCR bool  // a CR ended the previous piece of a long line
	pending   []byte
	buf       []byte // reused for pending
	err       error  // sticky: io.EOF at the terminator, or the failure
}

func newDotReader(r *bufio.Reader, max int64) *dotReader {
	return &dotReader{r: r, max: max, lineStart: true}
}

// Read implements io.Reader.
func (d *dotReader) Read(p []byte) (int, error) {
	for len(d.pending) == 0 && d.err == nil {
		d.fill()
	}
	if len(d.pending) > 0 {
		n := copy(p, d.pending)
		d.pending = d.pending[n:]
		return n, nil
	}
	return 0, d.err
}

// done reports whether the terminator was read (the connection is then
// positioned at the next reply).
func (d *dotReader) done() bool { return d.err == io.EOF && len(d.pending) == 0 }

// fill reads the next line or piece of a line into pending.
func (d *dotReader) fill() {
	chunk, err := d.r.ReadSlice('\n')
	switch {
	case err == bufio.ErrBufferFull:
		err = nil
	case err == io.EOF:
		d.err = io.ErrUnexpectedEOF // the connection ended before the "." line
		return
	case err != nil:
		d.err = err
		return
	}
	complete := len(chunk) > 0 && chunk[len(chunk)-1] == '\n'
	out := d.buf[:0]
	if d.pendingCR {
		d.pendingCR = false
		if !(len(chunk) > 0 && chunk[0] == '\n') {
			out = append(out, '\r') // a bare CR inside the line: keep it
		}
	}
	if d.lineStart {
		if string(chunk) == ".\r\n" || string(chunk) == ".\n" {
			d.err = io.EOF
			return
		}
		if len(chunk) > 0 && chunk[0] == '.' {
			chunk = chunk[1:]
		}
	}
	switch {
	case complete && len(chunk) >= 2 && chunk[len(chunk)-2] == '\r':
		out = append(out, chunk[:len(chunk)-2]...)
		out = append(out, '\n')
	case !complete && len(chunk) > 0 && chunk[len(chunk)-1] == '\r':
		// The CR may be the first half of a CRLF split across pieces.
		out = append(out, chunk[:len(chunk)-1]...)
		d.pendingCR = true
	default:
		out = append(out, chunk...)
	}
	d.lineStart = complete
	if d.n+int64(len(out)) > d.max {
		d.err = fmt.Errorf("%w (%d bytes)", errTooBig, d.max)
		return
	}
	d.n += int64(len(out))
	d.buf, d.pending = out, out
}
