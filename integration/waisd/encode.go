package waisd

import (
	"bytes"
	"fmt"
	"strings"
)

// This file is the server's own encoder, written from wais-notes §2 and
// shared with nothing in the client.

// putCI writes n as a compressed integer (wais-notes §2): 7-bit groups,
// most significant first, every byte but the last with its top bit set.
func putCI(w *bytes.Buffer, n int) {
	if n >= 0x80 {
		putCIHigh(w, n>>7)
	}
	w.WriteByte(byte(n & 0x7f))
}

func putCIHigh(w *bytes.Buffer, n int) {
	if n >= 0x80 {
		putCIHigh(w, n>>7)
	}
	w.WriteByte(byte(n&0x7f) | 0x80)
}

// putString writes a string/any field: tag, length, bytes.
func putString(w *bytes.Buffer, tag int, v []byte) {
	putCI(w, tag)
	putCI(w, len(v))
	w.Write(v)
}

// putNumber writes a num field in the fewest big-endian bytes of 1 to 4.
func putNumber(w *bytes.Buffer, tag, v int) {
	size := 4
	switch {
	case v < 1<<8:
		size = 1
	case v < 1<<16:
		size = 2
	case v < 1<<24:
		size = 3
	}
	putCI(w, tag)
	putCI(w, size)
	for s := size - 1; s >= 0; s-- {
		w.WriteByte(byte(v >> (8 * s)))
	}
}

// putGroup writes a field whose value is other fields.
func putGroup(w *bytes.Buffer, tag int, inner *bytes.Buffer) { putString(w, tag, inner.Bytes()) }

// putDiagnostic writes the diagnostic record, which breaks the TLV rule:
// tag 28, a 2-byte big-endian length, code + message + a flag byte, and
// a 0x1d trailer outside the length (wais-notes §2).
func putDiagnostic(w *bytes.Buffer, code, msg string) {
	flag := byte(0)
	if code == "SF" {
		flag = 1
	}
	n := len(code) + len(msg) + 1
	w.WriteByte(28)
	w.WriteByte(byte(n >> 8))
	w.WriteByte(byte(n))
	w.WriteString(code)
	w.WriteString(msg)
	w.WriteByte(flag)
	w.WriteByte(0x1d)
}

// counter3 writes a 3-byte big-endian fixed field.
func counter3(w *bytes.Buffer, n int) { w.Write([]byte{byte(n >> 16), byte(n >> 8), byte(n)}) }

// DocURL is the URL of a document as wais-notes §7 writes it, with the
// server's own escaping: wais://addr/db/TYPE/LENGTH/docname, docname each
// DocID record as "tag=value;" with every byte outside A–Z a–z 0–9 . / - _ $
// written %XX. The integration tests build the URLs of the fixtures with
// it, so a client's parsing is checked against the server's writing.
func DocURL(addr, db, typ string, length int, id []byte) string {
	var b strings.Builder
	fmt.Fprintf(&b, "wais://%s/%s/%s/%d/", addr, escapeURL(db), escapeURL(typ), length)
	c := &cursor{buf: id}
	for c.more() {
		f, err := c.next()
		if err != nil {
			break
		}
		fmt.Fprintf(&b, "%d=%s;", f.tag, escapeURL(string(f.val)))
	}
	return b.String()
}

func escapeURL(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', '0' <= c && c <= '9', strings.IndexByte("./-_$", c) >= 0:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}
