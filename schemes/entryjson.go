package schemes

import (
	"math"
	"strconv"
	"time"
	"unicode/utf8"
)

// AppendJSON appends e as one JSON object, byte for byte what
// MarshalJSON gives (and encoding/json gave by reflection before): keys
// in the same order, omitted fields the same, strings escaped as
// encoding/json escapes them (HTML characters, U+2028 and U+2029, and
// invalid UTF-8 as \ufffd). It exists for speed: a --json listing of
// millions of names is written by one append per entry, not by
// reflection and a second pass over the output.
func (e Entry) AppendJSON(b []byte) []byte {
	b = append(b, `{"name":`...)
	b = appendJSONString(b, e.Name)
	if e.Title != "" {
		b = append(b, `,"title":`...)
		b = appendJSONString(b, e.Title)
	}
	b = append(b, `,"kind":`...)
	b = appendJSONString(b, string(e.Kind))
	b = append(b, `,"size":`...)
	if e.Size >= 0 {
		b = strconv.AppendInt(b, e.Size, 10)
	} else {
		b = append(b, "null"...)
	}
	if !e.ModTime.IsZero() {
		b = append(b, `,"modtime":"`...)
		b = e.ModTime.AppendFormat(b, time.RFC3339Nano)
		b = append(b, '"')
		if p := e.Precision.Seconds(); p != 0 {
			b = append(b, `,"precision_s":`...)
			b = appendJSONFloat(b, p)
		}
	}
	if e.Locator != nil {
		if u := e.Locator.Redacted(); u != "" {
			b = append(b, `,"url":`...)
			b = appendJSONString(b, u)
		}
	}
	if e.Target != "" {
		b = append(b, `,"target":`...)
		b = appendJSONString(b, e.Target)
	}
	if len(e.Extra) > 0 {
		b = append(b, `,"extra":`...)
		b = e.Extra.appendJSON(b)
	}
	return append(b, '}')
}

// appendJSON appends x as MarshalJSON writes it.
func (x Extras) appendJSON(b []byte) []byte {
	b = append(b, '{')
	for i, kv := range x {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, kv.Key)
		b = append(b, ':')
		b = appendJSONString(b, kv.Value)
	}
	return append(b, '}')
}

// appendJSONFloat appends f as encoding/json writes a float64: the
// shortest form, in exponent form below 1e-6 and from 1e21, its exponent
// without a leading zero.
func appendJSONFloat(b []byte, f float64) []byte {
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// jsonHex is encoding/json's hex alphabet, lower case.
const jsonHex = "0123456789abcdef"

// appendJSONString appends s quoted as encoding/json quotes a string with
// HTML escaping on (json.Marshal's default).
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', jsonHex[c>>4], jsonHex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', jsonHex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
