package ber

import (
	"bufio"
	"io"
	"slices"
)

// ReadElement reads one whole element from r, definite or indefinite
// length, and returns its octets (header included) in a new slice. See
// AppendElement for the bounds.
func ReadElement(r *bufio.Reader, max int) ([]byte, error) {
	return AppendElement(nil, r, max)
}

// AppendElement reads one whole element from r and appends its octets
// (header included) to dst; passing a buffer's dst[:0] reuses its memory
// from element to element. The element may hold at most max octets in
// all: a length that would pass max is refused with ErrTooLong before its
// contents are read or room is made for them, and indefinite lengths are
// followed to their end-of-contents within the same bound and MaxDepth,
// so memory stays bounded by max whatever the stream holds. At the end of
// the stream before the first octet the error is io.EOF; inside the
// element, io.ErrUnexpectedEOF. r's buffer must hold at least maxHeader
// octets (bufio's smallest, 16, does).
func AppendElement(dst []byte, r *bufio.Reader, max int) ([]byte, error) {
	e := elementReader{r: r, buf: dst, end: len(dst) + max}
	if err := e.element(0, true); err != nil {
		return dst, err
	}
	return e.buf, nil
}

// elementReader copies one element from r into buf, never past end.
type elementReader struct {
	r   *bufio.Reader
	buf []byte
	end int
}

// element reads one element, depth levels down. Its header is peeked
// at, so that a definite length, the common case, costs one read of
// header and contents together.
func (e *elementReader) element(depth int, first bool) error {
	if depth > MaxDepth {
		return malformed("nested deeper than %d", MaxDepth)
	}
	// Peek at what is buffered of the header, at least two octets, and
	// one more at a time while it is cut short: waiting for maxHeader
	// octets would block on a short element that is all the peer sends.
	p, perr := e.r.Peek(min(max(e.r.Buffered(), 2), maxHeader))
	if len(p) == 0 && first {
		return perr // nothing of the element yet: io.EOF stays io.EOF
	}
	var h Header
	var err error
	if len(p) >= 2 && p[0]&0x1f != 0x1f && p[1] < 0x80 {
		// The common case in short: low tag number, short definite length.
		h = Header{Length: int(p[1]), Size: 2}
	} else {
		h, err = header(p)
	}
	for err == errShort {
		if perr != nil {
			return noEOF(perr)
		}
		p, perr = e.r.Peek(len(p) + 1)
		h, err = header(p)
	}
	if err != nil {
		return err
	}
	room := e.end - len(e.buf)
	if h.Length == Indefinite {
		if h.Size > room {
			return ErrTooLong
		}
		e.buf = append(e.buf, p[:h.Size]...)
		e.r.Discard(h.Size) // peeked: cannot fail
		return e.indefinite(depth)
	}
	if h.Length > room-h.Size {
		return ErrTooLong // before reading, or making room for, any of it
	}
	at, n := len(e.buf), h.Size+h.Length
	if cap(e.buf)-at < n {
		e.buf = slices.Grow(e.buf, n)
	}
	e.buf = e.buf[:at+n]
	if _, err := io.ReadFull(e.r, e.buf[at:]); err != nil {
		return noEOF(err)
	}
	return nil
}

// indefinite reads the elements of an indefinite length's contents up
// to and including its end-of-contents octets (X.690 §8.1.5). Each
// element takes at least two octets of room, so the loop ends at max.
func (e *elementReader) indefinite(depth int) error {
	for {
		p, err := e.r.Peek(2)
		if err != nil {
			return noEOF(err)
		}
		if p[0] == 0 && p[1] == 0 {
			if e.end-len(e.buf) < 2 {
				return ErrTooLong
			}
			e.buf = append(e.buf, 0, 0)
			e.r.Discard(2)
			return nil
		}
		if err := e.element(depth+1, false); err != nil {
			return err
		}
	}
}

// noEOF makes an end inside an element an unexpected one.
func noEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}
