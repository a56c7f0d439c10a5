package hostile

import (
	"io"
	"strconv"
)

// GopherMenu answers any request with a menu of n items (RFC 1436 §3.8),
// "0item N TAB /N TAB 127.0.0.1 TAB 70", ended by its "." line.
func GopherMenu(n int) func(*Conn) {
	return func(c *Conn) {
		if _, err := newLineReader(c).next(); err != nil {
			return
		}
		err := writeLines(c, n, func(b []byte, i int) []byte {
			b = append(b, "0item "...)
			b = strconv.AppendInt(b, int64(i), 10)
			b = append(b, "\t/"...)
			b = strconv.AppendInt(b, int64(i), 10)
			return append(b, "\t127.0.0.1\t70\r\n"...)
		})
		if err == nil {
			io.WriteString(c, ".\r\n")
		}
	}
}

// GopherPlusCut answers any request with a Gopher+ `+-1` reply (a
// dot-terminated block) that the connection's close cuts before its "."
// line.
func GopherPlusCut(c *Conn) {
	if _, err := newLineReader(c).next(); err != nil {
		return
	}
	io.WriteString(c, "+-1\r\nthe first line\r\nthe second line\r\n")
}

// GopherBody answers any request with n bytes of a binary item and
// closes: a complete plain-Gopher type 9 reply.
func GopherBody(n int64) func(*Conn) {
	return func(c *Conn) {
		if _, err := newLineReader(c).next(); err != nil {
			return
		}
		repeatByte(c, 0xA5, n)
	}
}
