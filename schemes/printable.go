package schemes

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Printable shows s safely on a terminal or in a log: CR, LF and tab as
// \r, \n and \t, other control characters and invalid UTF-8 bytes as
// \xNN, and other unprintable runes (bidirectional overrides and the
// like) as \uNNNN, so that text from a server can neither move the cursor
// nor fake a line. With max > 0, output past max bytes is cut with a
// marker saying how much was left out. Both the protocol trace and the
// command's messages use it.
func Printable(s string, max int) string {
	if (max <= 0 || len(s) <= max) && utf8.ValidString(s) && !strings.ContainsFunc(s, unprintable) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if max > 0 && b.Len() >= max {
			fmt.Fprintf(&b, "...[%d more bytes]", len(s)-i)
			break
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unprintable(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func unprintable(r rune) bool { return !unicode.IsPrint(r) && r != ' ' }
