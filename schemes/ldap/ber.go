package ldap

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// The BER identifiers of the LDAP messages and elements this package
// reads (RFC 4511 §4 and Appendix B; X.690 §8.1.2: class, constructed bit
// and tag number in one octet, all below 31 here).
const (
	berBoolean     = 0x01
	berInteger     = 0x02
	berOctetString = 0x04
	berEnumerated  = 0x0a
	berSequence    = 0x30
	berSet         = 0x31

	opBindResponse      = 0x61 // [APPLICATION 1] BindResponse
	opSearchEntry       = 0x64 // [APPLICATION 4] SearchResultEntry
	opSearchDone        = 0x65 // [APPLICATION 5] SearchResultDone
	opSearchReference   = 0x73 // [APPLICATION 19] SearchResultReference
	opExtendedResponse  = 0x78 // [APPLICATION 24] ExtendedResponse
	opIntermediate      = 0x79 // [APPLICATION 25] IntermediateResponse
	tagControls         = 0xa0 // [0] Controls, after the protocolOp
	tagReferral         = 0xa3 // [3] Referral, in an LDAPResult
	unsolicitedNoticeID = 0    // RFC 4511 §4.4: messageID 0, a notice from the server
)

// errBER is a malformed BER element from the server.
var errBER = errors.New("malformed BER in the server's reply")

// element splits the first BER element off b: its identifier octet, its
// contents and what follows. Only the definite form of length is allowed
// (RFC 4511 §5.1), in at most four octets.
func element(b []byte) (tag byte, content, rest []byte, err error) {
	if len(b) < 2 {
		return 0, nil, nil, errBER
	}
	tag, n, hdr := b[0], int(b[1]), 2
	if n&0x80 != 0 {
		k := n & 0x7f
		if k == 0 || k > 4 || len(b) < 2+k {
			return 0, nil, nil, errBER
		}
		n = 0
		for _, c := range b[2 : 2+k] {
			n = n<<8 | int(c)
		}
		hdr += k
	}
	if n < 0 || n > len(b)-hdr {
		return 0, nil, nil, errBER
	}
	return tag, b[hdr : hdr+n], b[hdr+n:], nil
}

// expect is element, failing unless the identifier is want.
func expect(b []byte, want byte) (content, rest []byte, err error) {
	tag, content, rest, err := element(b)
	if err == nil && tag != want {
		err = fmt.Errorf("%w: element 0x%02x where 0x%02x belongs", errBER, tag, want)
	}
	return content, rest, err
}

// integer reads a BER INTEGER or ENUMERATED's contents (two's
// complement, at most eight octets).
func integer(c []byte) (int64, error) {
	if len(c) == 0 || len(c) > 8 {
		return 0, errBER
	}
	v := int64(int8(c[0]))
	for _, x := range c[1:] {
		v = v<<8 | int64(x)
	}
	return v, nil
}

// message is one LDAPMessage (RFC 4511 §4.1.1): its ID, the identifier
// and contents of its protocolOp, and the contents of its controls (nil
// if none). The slices point into the reader's buffer, valid until the
// next message is read.
type message struct {
	id       int64
	op       byte
	body     []byte
	controls []byte
}

// msgReader reads LDAP messages from a connection, each into one buffer
// it reuses, refusing one longer than max before reading it: memory is
// bounded by the largest message allowed, whatever a server sends.
type msgReader struct {
	r   *bufio.Reader
	buf []byte
	max int
}

// next reads the next message whole.
func (m *msgReader) next() (message, error) {
	var hdr [6]byte
	if _, err := io.ReadFull(m.r, hdr[:2]); err != nil {
		return message{}, err
	}
	if hdr[0] != berSequence {
		return message{}, fmt.Errorf("%w: a message starts with 0x%02x, not a SEQUENCE", errBER, hdr[0])
	}
	n, k := int(hdr[1]), 0
	if n&0x80 != 0 {
		k = n & 0x7f
		if k == 0 || k > 4 {
			return message{}, fmt.Errorf("%w: length of %d octets", errBER, k)
		}
		if _, err := io.ReadFull(m.r, hdr[2:2+k]); err != nil {
			return message{}, unexpected(err)
		}
		n = 0
		for _, c := range hdr[2 : 2+k] {
			n = n<<8 | int(c)
		}
	}
	if n < 0 || n > m.max {
		return message{}, fmt.Errorf("the server sends a message of %d bytes, more than the %d allowed", n, m.max)
	}
	if cap(m.buf) < n {
		m.buf = make([]byte, n)
	}
	b := m.buf[:n]
	if _, err := io.ReadFull(m.r, b); err != nil {
		return message{}, unexpected(err)
	}
	idc, rest, err := expect(b, berInteger)
	if err != nil {
		return message{}, err
	}
	var msg message
	if msg.id, err = integer(idc); err != nil {
		return message{}, err
	}
	if msg.op, msg.body, rest, err = element(rest); err != nil {
		return message{}, err
	}
	if len(rest) > 0 {
		if msg.controls, _, err = expect(rest, tagControls); err != nil {
			return message{}, err
		}
	}
	return msg, nil
}

// unexpected is io.ErrUnexpectedEOF for an EOF inside a message.
func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// result is an LDAPResult (RFC 4511 §4.1.9).
type result struct {
	code       uint16
	diagnostic string
	referrals  []string
}

// parseResult reads an LDAPResult's components from c.
func parseResult(c []byte) (result, error) {
	var r result
	codeC, rest, err := expect(c, berEnumerated)
	if err != nil {
		return r, err
	}
	code, err := integer(codeC)
	if err != nil || code < 0 || code > 0xffff {
		return r, errBER
	}
	r.code = uint16(code)
	if _, rest, err = expect(rest, berOctetString); err != nil { // matchedDN
		return r, err
	}
	diag, rest, err := expect(rest, berOctetString)
	if err != nil {
		return r, err
	}
	r.diagnostic = string(diag)
	if len(rest) > 0 && rest[0] == tagReferral {
		refs, _, err := expect(rest, tagReferral)
		if err != nil {
			return r, err
		}
		for len(refs) > 0 {
			var u []byte
			if u, refs, err = expect(refs, berOctetString); err != nil {
				return r, err
			}
			r.referrals = append(r.referrals, string(u))
		}
	}
	return r, nil
}
