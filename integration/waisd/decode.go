package waisd

import (
	"errors"
	"fmt"
)

// errDrop means: close the connection without a reply, as freeWAIS-sf's
// child does when it cannot read a request.
var errDrop = errors.New("request unreadable: connection dropped")

// field is one decoded tagged field.
type field struct {
	tag int
	val []byte
}

// cursor reads request bytes.
type cursor struct {
	buf []byte
	i   int
}

func (c *cursor) more() bool { return c.i < len(c.buf) }

// ci reads a compressed integer, at most 5 bytes.
func (c *cursor) ci() (int, error) {
	n := 0
	for k := 0; k < 5; k++ {
		if c.i == len(c.buf) {
			return 0, fmt.Errorf("%w: integer cut", errDrop)
		}
		b := c.buf[c.i]
		c.i++
		n = n*128 + int(b&0x7f)
		if b < 0x80 {
			return n, nil
		}
	}
	return 0, fmt.Errorf("%w: integer too long", errDrop)
}

// next reads one tagged field.
func (c *cursor) next() (field, error) {
	tag, err := c.ci()
	if err != nil {
		return field{}, err
	}
	n, err := c.ci()
	if err != nil {
		return field{}, err
	}
	if n > len(c.buf)-c.i {
		return field{}, fmt.Errorf("%w: field of %d bytes past the end", errDrop, n)
	}
	f := field{tag, c.buf[c.i : c.i+n]}
	c.i += n
	return f, nil
}

// fieldsOf reads all fields of b; tags outside allowed are an error, as
// freeWAIS-sf's readers skip nothing (wais-notes §3).
func fieldsOf(b []byte, allowed ...int) ([]field, error) {
	c := &cursor{buf: b}
	var out []field
	for c.more() {
		f, err := c.next()
		if err != nil {
			return nil, err
		}
		ok := false
		for _, a := range allowed {
			ok = ok || a == f.tag
		}
		if !ok {
			return nil, fmt.Errorf("%w: unknown tag %d", errDrop, f.tag)
		}
		out = append(out, f)
	}
	return out, nil
}

// numberOf reads a num field's value (1–4 bytes).
func numberOf(v []byte) int {
	n := 0
	for _, b := range v {
		n = n<<8 | int(b)
	}
	return n
}
