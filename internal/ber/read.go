package ber

import (
	"bufio"
	"io"
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
// element, io.ErrUnexpectedEOF.
func AppendElement(dst []byte, r *bufio.Reader, max int) ([]byte, error) {
	e := elementReader{r: r, buf: dst, end: len(dst) + max}
	start := len(dst)
	if err := e.element(0); err != nil {
		if err == io.EOF && len(e.buf) > start {
			err = io.ErrUnexpectedEOF
		}
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

// byte reads one octet into buf.
func (e *elementReader) byte() (byte, error) {
	if len(e.buf) >= e.end {
		return 0, ErrTooLong
	}
	b, err := e.r.ReadByte()
	if err != nil {
		return 0, err
	}
	e.buf = append(e.buf, b)
	return b, nil
}

// element reads one element, depth levels down: its identifier, its
// length, its contents.
func (e *elementReader) element(depth int) error {
	if depth > MaxDepth {
		return malformed("nested deeper than %d", MaxDepth)
	}
	first, err := e.byte()
	if err != nil {
		return err
	}
	if first&0x1f == 0x1f { // high tag number form
		for i := 0; ; i++ {
			if i == MaxTagOctets {
				return malformed("tag number too large")
			}
			b, err := e.byte()
			if err != nil {
				return err
			}
			if b&0x80 == 0 {
				break
			}
		}
	}
	l, err := e.byte()
	if err != nil {
		return err
	}
	if l == 0x80 {
		return e.indefinite(first, depth)
	}
	n := int(l)
	if l&0x80 != 0 {
		k := int(l & 0x7f)
		if k > MaxLengthOctets {
			return malformed("length of %d octets", k)
		}
		n = 0
		for range k {
			b, err := e.byte()
			if err != nil {
				return err
			}
			n = n<<8 | int(b)
		}
	}
	if n > e.end-len(e.buf) {
		return ErrTooLong // before reading, or making room for, any of it
	}
	at := len(e.buf)
	e.buf = append(e.buf, make([]byte, n)...)
	_, err = io.ReadFull(e.r, e.buf[at:])
	return err
}

// indefinite reads the elements of an indefinite length's contents up
// to and including its end-of-contents octets.
func (e *elementReader) indefinite(first byte, depth int) error {
	if first&Constructed == 0 {
		return malformed("indefinite length on a primitive value")
	}
	for {
		p, err := e.r.Peek(2)
		if err != nil {
			return err
		}
		if p[0] == 0 && p[1] == 0 {
			if _, err := e.byte(); err != nil {
				return err
			}
			_, err := e.byte()
			return err
		}
		if err := e.element(depth + 1); err != nil {
			return err
		}
	}
}
