package hostile

import (
	"bufio"
	"errors"
	"io"
)

// The BER of these fakes is written here from X.690 §8.1, apart from the
// client's internal/ber: a fake that shared the client's encoder would
// share its mistakes.

// maxRequest bounds a client's message as a fake reads it: an LDAP
// SearchRequest or a Z39.50 InitializeRequest is a few hundred octets.
const maxRequest = 64 << 10

// errBadRequest is a client message a fake cannot read: one longer than
// maxRequest, or of an indefinite length.
var errBadRequest = errors.New("unreadable request")

// readElement reads one whole BER element (a client's message) and
// returns its first identifier octet and its contents.
func readElement(r *bufio.Reader) (tag byte, contents []byte, err error) {
	if tag, err = r.ReadByte(); err != nil {
		return 0, nil, err
	}
	if tag&0x1f == 0x1f { // a tag number in more octets (X.690 §8.1.2.4)
		for {
			b, err := r.ReadByte()
			if err != nil {
				return 0, nil, err
			}
			if b&0x80 == 0 {
				break
			}
		}
	}
	first, err := r.ReadByte()
	if err != nil {
		return 0, nil, err
	}
	n := int(first)
	if first&0x80 != 0 {
		octets := int(first & 0x7f)
		if octets == 0 || octets > 3 {
			return 0, nil, errBadRequest
		}
		n = 0
		for range octets {
			b, err := r.ReadByte()
			if err != nil {
				return 0, nil, err
			}
			n = n<<8 | int(b)
		}
	}
	if n > maxRequest {
		return 0, nil, errBadRequest
	}
	contents = make([]byte, n)
	_, err = io.ReadFull(r, contents)
	return tag, contents, err
}

// appendHeader appends an element's identifier octet and the definite
// length n in the shortest form (X.690 §8.1.3).
func appendHeader(b []byte, tag byte, n int) []byte {
	b = append(b, tag)
	switch {
	case n < 0x80:
		return append(b, byte(n))
	case n < 1<<8:
		return append(b, 0x81, byte(n))
	case n < 1<<16:
		return append(b, 0x82, byte(n>>8), byte(n))
	}
	return append(b, 0x83, byte(n>>16), byte(n>>8), byte(n))
}

// appendElement appends a whole element: tag, length, contents.
func appendElement(b []byte, tag byte, contents []byte) []byte {
	return append(appendHeader(b, tag, len(contents)), contents...)
}

// hugeHeader is the identifier octet tag followed by a length of
// 2^31-1 octets in the long form.
func hugeHeader(tag byte) []byte { return []byte{tag, 0x84, 0x7f, 0xff, 0xff, 0xff} }

// nestForever writes, after prefix, constructed context [0] elements of
// indefinite length, each inside the one before, until the client goes:
// depth without end, in no more bytes a level than two.
func nestForever(w io.Writer, prefix []byte) {
	if _, err := w.Write(prefix); err != nil {
		return
	}
	level := make([]byte, chunk)
	for i := 0; i < len(level); i += 2 {
		level[i], level[i+1] = 0xa0, 0x80
	}
	for {
		if _, err := w.Write(level); err != nil {
			return
		}
	}
}
