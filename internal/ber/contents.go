package ber

// Int decodes an INTEGER's or ENUMERATED's contents: two's complement,
// at most eight octets (an int64; X.690 §8.3).
func Int(c []byte) (int64, error) {
	if len(c) == 0 || len(c) > 8 {
		return 0, ErrMalformed
	}
	v := int64(int8(c[0]))
	for _, x := range c[1:] {
		v = v<<8 | int64(x)
	}
	return v, nil
}

// Bool decodes a BOOLEAN's contents: one octet, any non-zero one true
// (X.690 §8.2).
func Bool(c []byte) (bool, error) {
	if len(c) != 1 {
		return false, ErrMalformed
	}
	return c[0] != 0, nil
}

// Limits on an OBJECT IDENTIFIER's contents: real ones are a dozen arcs
// of a few octets; an arc must not overflow an int on any platform.
const (
	maxOIDOctets = 64
	maxArc       = 1 << 24
)

// OID decodes an OBJECT IDENTIFIER's contents into its arcs (X.690
// §8.19): base-128 subidentifiers, the first holding two arcs.
func OID(c []byte) ([]int, error) {
	if len(c) == 0 || len(c) > maxOIDOctets {
		return nil, malformed("object identifier of %d octets", len(c))
	}
	var o []int
	v := 0
	for i, b := range c {
		if v > maxArc {
			return nil, malformed("object identifier arc too large")
		}
		v = v<<7 | int(b&0x7f)
		if b&0x80 != 0 {
			if i == len(c)-1 {
				return nil, malformed("truncated object identifier")
			}
			continue
		}
		if o == nil {
			switch {
			case v < 40:
				o = []int{0, v}
			case v < 80:
				o = []int{1, v - 40}
			default:
				o = []int{2, v - 80}
			}
		} else {
			o = append(o, v)
		}
		v = 0
	}
	return o, nil
}
