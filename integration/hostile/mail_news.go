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
		reply := func(s string) error {
			_, err := io.WriteString(c, s+"\r\n")
			return err
		}
		if reply("200 hostile news server") != nil {
			return
		}
		lr := newLineReader(c)
		for {
			line, err := lr.next()
			if err != nil {
				return
			}
			verb, arg := command(line)
			switch {
			case verb == "CAPABILITIES":
				err = reply("101 Capability list:\r\nVERSION 2\r\nREADER\r\nLIST ACTIVE\r\n.")
			case verb == "MODE":
				err = reply("200 reader")
			case verb == "LIST" && (arg == "" || arg == "ACTIVE"):
				if err = reply("215 groups follow"); err != nil {
					return
				}
				err = writeLines(c, n, func(b []byte, i int) []byte {
					b = append(b, "hostile."...)
					return append(strconv.AppendInt(b, int64(i), 10), " 1 1 y\r\n"...)
				})
				if err == nil {
					err = reply(".")
				}
			case verb == "QUIT":
				reply("205 bye")
				return
			default:
				err = reply("500 unknown command")
			}
			if err != nil {
				return
			}
		}
	}
}
