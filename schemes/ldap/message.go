package ldap

import (
	"bufio"
	"errors"
	"fmt"

	"github.com/urlget/urlget/internal/ber"
)

// The BER identifiers of the LDAP messages and elements this package
// reads (RFC 4511 §4 and Appendix B; X.690 §8.1.2: class, constructed bit
// and tag number in one octet, all below 31 here).
const (
	berBoolean     = ber.ClassUniversal | ber.TagBoolean
	berInteger     = ber.ClassUniversal | ber.TagInteger
	berOctetString = ber.ClassUniversal | ber.TagOctetString
	berEnumerated  = ber.ClassUniversal | ber.TagEnumerated
	berSequence    = ber.ClassUniversal | ber.Constructed | ber.TagSequence
	berSet         = ber.ClassUniversal | ber.Constructed | ber.TagSet
	// berIndefinite is the length octet of the indefinite form (X.690
	// §8.1.3.6), which LDAP never uses (RFC 4511 §5.1).
	berIndefinite = 0x80

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

// errBER is a malformed BER element from the server: ber.ErrMalformed,
// which the splitter returns, so that errors.Is finds one kind.
var errBER = ber.ErrMalformed

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

// next reads the next message whole. An indefinite length, which LDAP
// forbids (RFC 4511 §5.1), is refused at once on the message itself,
// and by the splitter on an element inside one.
func (m *msgReader) next() (message, error) {
	if p, _ := m.r.Peek(2); len(p) == 2 && p[1] == berIndefinite {
		return message{}, errors.New("the server sends a message of indefinite length, which LDAP forbids (RFC 4511 §5.1)")
	}
	var err error
	if m.buf, err = ber.AppendElement(m.buf[:0], m.r, m.max); err != nil {
		if errors.Is(err, ber.ErrTooLong) {
			return message{}, fmt.Errorf("the server sends a message of more than the %d bytes allowed", m.max)
		}
		return message{}, err
	}
	b, _, err := ber.Expect(m.buf, berSequence)
	if err != nil {
		return message{}, err
	}
	idc, rest, err := ber.Expect(b, berInteger)
	if err != nil {
		return message{}, err
	}
	var msg message
	if msg.id, err = ber.Int(idc); err != nil {
		return message{}, err
	}
	if msg.op, msg.body, rest, err = ber.Element(rest); err != nil {
		return message{}, err
	}
	if len(rest) > 0 {
		if msg.controls, _, err = ber.Expect(rest, tagControls); err != nil {
			return message{}, err
		}
	}
	return msg, nil
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
	codeC, rest, err := ber.Expect(c, berEnumerated)
	if err != nil {
		return r, err
	}
	code, err := ber.Int(codeC)
	if err != nil || code < 0 || code > 0xffff {
		return r, errBER
	}
	r.code = uint16(code)
	if _, rest, err = ber.Expect(rest, berOctetString); err != nil { // matchedDN
		return r, err
	}
	diag, rest, err := ber.Expect(rest, berOctetString)
	if err != nil {
		return r, err
	}
	r.diagnostic = string(diag)
	if len(rest) > 0 && rest[0] == tagReferral {
		refs, _, err := ber.Expect(rest, tagReferral)
		if err != nil {
			return r, err
		}
		for len(refs) > 0 {
			var u []byte
			if u, refs, err = ber.Expect(refs, berOctetString); err != nil {
				return r, err
			}
			r.referrals = append(r.referrals, string(u))
		}
	}
	return r, nil
}
