package hostile

import (
	"io"
	"strconv"
)

// SMTPGreeting serves an SMTP greeting of lines continuation lines
// ("220-…", RFC 5321 §4.2.1) before its last line, then answers the next
// command with 421 and closes.
func SMTPGreeting(lines int) func(*Conn) {
	return func(c *Conn) {
		err := writeLines(c, lines, func(b []byte, i int) []byte {
			b = append(b, "220-hostile greeting line "...)
			return append(strconv.AppendInt(b, int64(i), 10), "\r\n"...)
		})
		if err != nil {
			return
		}
		if _, err := io.WriteString(c, "220 hostile ESMTP\r\n"); err != nil {
			return
		}
		if _, err := newLineReader(c).next(); err == nil {
			io.WriteString(c, "421 closing\r\n")
		}
	}
}

// NNTPGroups serves a news server (RFC 3977) whose LIST ACTIVE names n
// groups, "hostile.N 1 1 y" each.
func NNTPGroups(n int) func(*Conn) {
	return func(c *Conn) {
		nntpServe(c, "LIST ACTIVE\r\n", func(verb, arg string) (bool, error) {
			if verb != "LIST" || arg != "" && arg != "ACTIVE" {
				return false, nil
			}
			if _, err := io.WriteString(c, "215 groups follow\r\n"); err != nil {
				return true, err
			}
			err := writeLines(c, n, func(b []byte, i int) []byte {
				b = append(b, "hostile."...)
				return append(strconv.AppendInt(b, int64(i), 10), " 1 1 y\r\n"...)
			})
			if err == nil {
				_, err = io.WriteString(c, ".\r\n")
			}
			return true, err
		})
	}
}
