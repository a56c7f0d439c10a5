package hostile

import (
	"bufio"
	"strconv"
)

// RFC 4511 §4.1.1: an LDAPMessage is a SEQUENCE of the messageID and the
// operation, each operation an APPLICATION-class element.
const (
	ldapMessage      = 0x30 // SEQUENCE
	ldapInteger      = 0x02
	ldapOctets       = 0x04
	ldapEnumerated   = 0x0a
	ldapSet          = 0x31
	ldapSearchEntry  = 0x64 // [APPLICATION 4] SearchResultEntry, constructed
	ldapSearchDone   = 0x65 // [APPLICATION 5] SearchResultDone, constructed
	ldapSearchReqTag = 0x63 // [APPLICATION 3] SearchRequest
	ldapBindRequest  = 0x60 // [APPLICATION 0] BindRequest
	ldapBindResponse = 0x61 // [APPLICATION 1] BindResponse
)

// ldapSearch reads the client's messages up to its SearchRequest, and
// returns that message's ID, encoded. urlget sends no bind for an
// anonymous search (RFC 4511 §4.2.1); a client that binds first (as
// ldapsearch -x does) is answered success.
func ldapSearch(c *Conn) (id []byte, ok bool) {
	r := bufio.NewReader(c)
	for {
		tag, msg, err := readElement(r)
		if err != nil || tag != ldapMessage || len(msg) < 3 || msg[0] != ldapInteger || int(msg[1]) > len(msg)-3 {
			return nil, false
		}
		id, op := msg[2:2+msg[1]], msg[2+msg[1]:]
		switch {
		case len(op) > 0 && op[0] == ldapSearchReqTag:
			return id, true
		case len(op) > 0 && op[0] == ldapBindRequest:
			if _, err := c.Write(ldapResult(id, ldapBindResponse)); err != nil {
				return nil, false
			}
		default:
			return nil, false
		}
	}
}

// ldapResult is a message of ID id whose operation, of tag op, is an
// LDAPResult of success with no matched DN and no message.
func ldapResult(id []byte, op byte) []byte {
	result := appendElement(nil, ldapEnumerated, []byte{0})
	result = append(result, ldapOctets, 0, ldapOctets, 0)
	msg := appendElement(nil, ldapInteger, id)
	msg = appendElement(msg, op, result)
	return appendElement(nil, ldapMessage, msg)
}

// LDAPHugeMessage answers the search with an LDAPMessage that announces
// 2^31-1 octets, and sends them for as long as the client reads.
func LDAPHugeMessage(c *Conn) {
	if _, ok := ldapSearch(c); !ok {
		return
	}
	if _, err := c.Write(hugeHeader(ldapMessage)); err == nil {
		repeatByte(c, 0x04, 1<<31-1)
	}
}

// LDAPIndefinite answers the search with an LDAPMessage of indefinite
// length (which RFC 4511 §5.1 forbids) whose contents nest without end.
func LDAPIndefinite(c *Conn) {
	if _, ok := ldapSearch(c); ok {
		nestForever(c, []byte{ldapMessage, 0x80})
	}
}

// LDAPEntries answers the search with n entries, "cn=eI,dc=hostile" each
// with the one attribute "cn: eI", then a successful SearchResultDone
// (no paged-results cookie: the search is over).
func LDAPEntries(n int) func(*Conn) {
	return func(c *Conn) {
		id, ok := ldapSearch(c)
		if !ok {
			return
		}
		w := bufio.NewWriterSize(c, chunk)
		var name, entry, attrs, msg []byte
		for i := range n {
			name = strconv.AppendInt(append(name[:0], "e"...), int64(i), 10)
			// PartialAttribute ::= SEQUENCE { type, vals SET OF value }
			attrs = appendElement(attrs[:0], ldapOctets, []byte("cn"))
			attrs = appendElement(attrs, ldapSet, appendElement(nil, ldapOctets, name))
			attrs = appendElement(nil, ldapMessage, attrs)
			entry = appendElement(entry[:0], ldapOctets, append(append([]byte("cn="), name...), ",dc=hostile"...))
			entry = appendElement(entry, ldapMessage, attrs)
			msg = appendElement(msg[:0], ldapInteger, id)
			msg = appendElement(msg, ldapSearchEntry, entry)
			if _, err := w.Write(appendElement(nil, ldapMessage, msg)); err != nil {
				return
			}
		}
		w.Write(ldapResult(id, ldapSearchDone))
		w.Flush()
	}
}
