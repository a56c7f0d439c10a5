package hostile

import "bufio"

// Z39.50-1995's APDUs are context-class constructed elements (Z39.50
// ASN.1: InitializeRequest [20], InitializeResponse [21]).
const (
	z3950InitRequest  = 0xb4
	z3950InitResponse = 0xb5
)

// z3950Init reads the client's InitializeRequest, and says whether it
// was one.
func z3950Init(c *Conn) bool {
	tag, _, err := readElement(bufio.NewReader(c))
	return err == nil && tag == z3950InitRequest
}

// Z3950HugeReply answers the InitializeRequest with an InitializeResponse
// that announces 2^31-1 octets, and sends them for as long as the client
// reads.
func Z3950HugeReply(c *Conn) {
	if !z3950Init(c) {
		return
	}
	if _, err := c.Write(hugeHeader(z3950InitResponse)); err == nil {
		repeatByte(c, 0x04, 1<<31-1)
	}
}

// Z3950DeepReply answers the InitializeRequest with an InitializeResponse
// of indefinite length whose contents nest without end.
func Z3950DeepReply(c *Conn) {
	if z3950Init(c) {
		nestForever(c, []byte{z3950InitResponse, 0x80})
	}
}

// Z3950EndlessReply answers the InitializeRequest with an
// InitializeResponse of indefinite length that never ends: one-octet
// OCTET STRINGs, one after another, and never the end-of-contents.
func Z3950EndlessReply(c *Conn) {
	if !z3950Init(c) {
		return
	}
	if _, err := c.Write([]byte{z3950InitResponse, 0x80}); err != nil {
		return
	}
	values := make([]byte, chunk-chunk%3)
	for i := 0; i < len(values); i += 3 {
		values[i], values[i+1], values[i+2] = 0x04, 0x01, 'A'
	}
	for {
		if _, err := c.Write(values); err != nil {
			return
		}
	}
}
