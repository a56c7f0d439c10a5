package wais

import (
	"errors"
	"fmt"
	"io"
	"strconv"
)

// The 25-byte message header (wais-notes §1): msg_len in ten ASCII
// digits, then type, header version, server name, compression, encoding
// and checksum, one field each.
const (
	headerLen    = 25
	msgTypeZ     = 'z' // the only type servers use
	headerVer    = '2' // a higher version makes freeWAIS-sf's child abort
	serverField  = "wais      "
	maxReplyLen  = 1 << 20 // replies are ≤ 100000 bytes (notes §6); far more is hostile
	maxCILen     = 5       // writers use ≤ 4 bytes (notes §2)
	maxNestDepth = 8       // header group → TYPE_BLOCK → TYPE is the deepest seen
)

// Tags (wais-notes §3). Tags of 128 and more take two bytes on the wire.
const (
	tagReferenceID     = 2
	tagDatabaseNames   = 18
	tagElementSetNames = 19
	tagQueryType       = 20
	tagQuery           = 21 // the type-1 query block, outside F
	tagPresentStatus   = 27
	tagDiagnostic      = 28 // 2-byte length and a 0x1d trailer (notes §2)
	tagAttributeList   = 44
	tagTerm            = 45
	tagOperator        = 46
	tagResultSetName   = 17
	tagExtension       = 99 // UserInformationLength: the WAIS fields
	tagSeedWords       = 106
	tagDateFactor      = 111
	tagMaxDocuments    = 114
	tagDocumentID      = 116
	tagVersionNumber   = 117
	tagScore           = 118
	tagBestMatch       = 119
	tagDocumentLength  = 120
	tagSource          = 121
	tagDate            = 122
	tagHeadline        = 123
	tagDocumentText    = 127
	tagLines           = 131
	tagTypeBlock       = 132
	tagType            = 133
	tagHeaderGroup     = 150
	tagTextGroup       = 153
)

// PDU types (wais-notes §3), the byte after the fixed-part length.
const (
	pduSearch         = 22
	pduSearchResponse = 23
)

// diagTrailer ends a diagnostic record, outside its length (notes §2).
const diagTrailer = 0x1d

// header returns the 25-byte header of a request of n APDU bytes.
func header(n int) []byte {
	h := fmt.Appendf(nil, "%010d", n)
	h = append(h, msgTypeZ, headerVer)
	h = append(h, serverField...)
	return append(h, ' ', ' ', '0') // no compression, no encoding, checksum unused
}

// errOverflow is a reply of a header alone with msg_len 0: the server
// could not build it within its buffer (notes §6).
var errOverflow = errors.New("the server's reply buffer overflowed (an empty reply)")

// readMessage reads one reply: its header, then exactly msg_len bytes.
func readMessage(r io.Reader) ([]byte, error) {
	var h [headerLen]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return nil, err
	}
	n, err := strconv.Atoi(string(h[:10]))
	switch {
	case err != nil || n < 0:
		return nil, protoErr("reply header with msg_len %q", h[:10])
	case n == 0:
		return nil, errOverflow
	case n > maxReplyLen:
		return nil, protoErr("reply of %d bytes announced (more than %d)", n, maxReplyLen)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return b, nil
}

// protocolError is a reply urlget cannot read.
type protocolError struct{ msg string }

func (e *protocolError) Error() string { return e.msg }

func protoErr(format string, args ...any) error {
	return &protocolError{fmt.Sprintf(format, args...)}
}

// appendCI appends v as a compressed integer: base 128, most significant
// group first, the high bit set on every byte but the last (notes §2).
func appendCI(b []byte, v int) []byte {
	var tmp [maxCILen]byte
	i := len(tmp) - 1
	tmp[i] = byte(v & 0x7f)
	for v >>= 7; v > 0; v >>= 7 {
		i--
		tmp[i] = byte(v&0x7f) | 0x80
	}
	return append(b, tmp[i:]...)
}

// appendField appends a string/any field: CI(tag) CI(len) bytes.
func appendField(b []byte, tag int, val []byte) []byte {
	b = appendCI(b, tag)
	b = appendCI(b, len(val))
	return append(b, val...)
}

// appendNum appends a num field: CI(tag) CI(n) and v in n big-endian
// bytes, n the fewest of 1–4 that hold it (notes §2).
func appendNum(b []byte, tag, v int) []byte {
	n := 1
	for n < 4 && v >= 1<<(8*n) {
		n++
	}
	b = appendCI(b, tag)
	b = appendCI(b, n)
	for i := n - 1; i >= 0; i-- {
		b = append(b, byte(v>>(8*i)))
	}
	return b
}

// reader reads the fields of an APDU.
type reader struct {
	b   []byte
	off int
}

func (r *reader) done() bool { return r.off >= len(r.b) }

// ci reads a compressed integer of at most maxCILen bytes.
func (r *reader) ci() (int, error) {
	v := 0
	for i := 0; i < maxCILen; i++ {
		if r.off >= len(r.b) {
			return 0, protoErr("a compressed integer cut at byte %d", r.off)
		}
		c := r.b[r.off]
		r.off++
		v = v<<7 | int(c&0x7f)
		if c&0x80 == 0 {
			return v, nil
		}
	}
	return 0, protoErr("a compressed integer longer than %d bytes at byte %d", maxCILen, r.off)
}

// take returns the next n bytes.
func (r *reader) take(n int) ([]byte, error) {
	if n < 0 || n > len(r.b)-r.off {
		return nil, protoErr("a field of %d bytes at byte %d of a %d-byte reply", n, r.off, len(r.b))
	}
	v := r.b[r.off : r.off+n]
	r.off += n
	return v, nil
}

// field reads one tagged field: its tag and value. A diagnostic record
// is read by its own rule (2-byte length, trailer), its value being
// "code message flag".
func (r *reader) field() (tag int, val []byte, err error) {
	if tag, err = r.ci(); err != nil {
		return 0, nil, err
	}
	if tag == tagDiagnostic {
		l, err := r.take(2)
		if err != nil {
			return 0, nil, err
		}
		if val, err = r.take(int(l[0])<<8 | int(l[1])); err != nil {
			return 0, nil, err
		}
		if !r.done() && r.b[r.off] == diagTrailer {
			r.off++
		}
		return tag, val, nil
	}
	n, err := r.ci()
	if err != nil {
		return 0, nil, err
	}
	val, err = r.take(n)
	return tag, val, err
}

// num is the value of a num field (1 to 4 big-endian bytes).
func num(val []byte) (int, error) {
	if len(val) == 0 || len(val) > 4 {
		return 0, protoErr("a number of %d bytes", len(val))
	}
	v := 0
	for _, c := range val {
		v = v<<8 | int(c)
	}
	return v, nil
}
