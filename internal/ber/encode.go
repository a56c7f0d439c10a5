package ber

// TLV encodes one element of class (a Class constant) with tag,
// constructed or not, around the concatenated contents, with a definite
// length (the form every BER reader takes).
func TLV(class byte, constructed bool, tag int, contents ...[]byte) []byte {
	n := 0
	for _, c := range contents {
		n += len(c)
	}
	b := make([]byte, 0, n+8)
	first := class
	if constructed {
		first |= Constructed
	}
	if tag < 0x1f {
		b = append(b, first|byte(tag))
	} else {
		b = append(b, first|0x1f)
		b = AppendBase128(b, tag)
	}
	b = AppendLength(b, n)
	for _, c := range contents {
		b = append(b, c...)
	}
	return b
}

// AppendBase128 appends v (not negative) in base 128, high octets first,
// all but the last with bit 8 set: tag numbers and OID arcs.
func AppendBase128(b []byte, v int) []byte {
	var tmp [10]byte
	i := len(tmp) - 1
	tmp[i] = byte(v & 0x7f)
	for v >>= 7; v > 0; v >>= 7 {
		i--
		tmp[i] = byte(v&0x7f) | 0x80
	}
	return append(b, tmp[i:]...)
}

// AppendLength appends a definite length n (not negative): the short
// form below 128, else the long form in the fewest octets.
func AppendLength(b []byte, n int) []byte {
	if n < 0x80 {
		return append(b, byte(n))
	}
	var tmp [8]byte
	i := len(tmp)
	for ; n > 0; n >>= 8 {
		i--
		tmp[i] = byte(n)
	}
	b = append(b, 0x80|byte(len(tmp)-i))
	return append(b, tmp[i:]...)
}

// IntContents is v's INTEGER contents: the fewest two's complement
// octets (X.690 §8.3.2).
func IntContents(v int64) []byte {
	b := []byte{byte(v)}
	for v >>= 8; ; v >>= 8 {
		last := b[0]
		if (v == 0 && last&0x80 == 0) || (v == -1 && last&0x80 != 0) {
			return b
		}
		b = append([]byte{byte(v)}, b...)
	}
}

// OIDContents is the OBJECT IDENTIFIER contents of arcs o, which has at
// least two arcs (X.690 §8.19).
func OIDContents(o []int) []byte {
	b := AppendBase128(nil, o[0]*40+o[1])
	for _, a := range o[2:] {
		b = AppendBase128(b, a)
	}
	return b
}
