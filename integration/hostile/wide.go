package hostile

import (
	"io"
	"strconv"
	"strings"
)

// FTPWideListing serves an ordinary FTP session whose every LIST is a
// directory of n distinct files ("f0000000" on), in the ls -l form
// vsftpd writes; n < 0 never ends. Retrievals are refused at once (502),
// so a mirror's transfers cost little and the memory measured is its
// walk's and its plan's.
func FTPWideListing(n int64) func(*Conn) {
	return ftpServer{greet: greeting, list: func(w io.Writer) error {
		const batch = 1 << 20
		for base := int64(0); n < 0 || base < n; base += batch {
			m := int64(batch)
			if n >= 0 {
				m = min(m, n-base)
			}
			err := writeLines(w, int(m), func(b []byte, i int) []byte {
				b = append(b, "-rw-r--r--    1 1000     1000         1234 Jan 02  2020 f"...)
				return append(appendPadded(b, base+int64(i)), "\r\n"...)
			})
			if err != nil {
				return err
			}
		}
		return nil
	}}.serve
}

// GopherCrawl serves a gopher site that never ends: the menu at selector
// "/n<i>" lists width menus "/n<i*width+1>" … "/n<i*width+width>",, each
// item under a selector of one path segment. width 1
// is a flat chain (/n0 → /n1 → /n2 …) that path depth never bounds.
func GopherCrawl(width int) func(*Conn) {
	return func(c *Conn) {
		sel, err := newLineReader(c).next()
		if err != nil {
			return
		}
		i, _ := strconv.ParseInt(strings.TrimPrefix(sel, "/n"), 10, 64)
		var b []byte
		for k := 1; k <= width; k++ {
			b = append(b, "1menu "...)
			b = strconv.AppendInt(b, i*int64(width)+int64(k), 10)
			b = append(b, "\t/n"...)
			b = strconv.AppendInt(b, i*int64(width)+int64(k), 10)
			b = append(b, "\t127.0.0.1\t"...)
			b = strconv.AppendInt(b, int64(c.s.Port()), 10)
			b = append(b, "\r\n"...)
		}
		b = append(b, ".\r\n"...)
		c.Write(b)
	}
}

// appendPadded appends i in decimal, zero-padded to 7 digits.
func appendPadded(b []byte, i int64) []byte {
	s := strconv.FormatInt(i, 10)
	for range 7 - len(s) {
		b = append(b, '0')
	}
	return append(b, s...)
}

// requestLine reads an HTTP request's head and returns its target ("/"
// when it has none); ok is false when the client went away first.
func requestLine(c *Conn) (target string, ok bool) {
	lr := newLineReader(c)
	line, err := lr.next()
	if err != nil {
		return "", false
	}
	for {
		h, err := lr.next()
		if err != nil {
			return "", false
		}
		if h == "" {
			break
		}
	}
	_, target, _ = strings.Cut(line, " ")
	target, _, _ = strings.Cut(target, " ")
	return target, true
}

// HTTPWideIndex serves "/" as an index page of n links to files
// "f0000000"… (one a line, in nginx's <pre> form), ended by </html> and
// the close (no Content-Length); every other path is a 404. Each reply
// closes its connection.
func HTTPWideIndex(n int) func(*Conn) {
	return func(c *Conn) {
		target, ok := requestLine(c)
		if !ok {
			return
		}
		if target != "/" {
			httpReply(c, "404 Not Found", "text/plain", "", true)
			return
		}
		io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\n\r\n<html><body><pre>\r\n")
		err := writeLines(c, n, func(b []byte, i int) []byte {
			b = append(b, `<a href="f`...)
			b = appendPadded(b, int64(i))
			b = append(b, `">f`...)
			b = appendPadded(b, int64(i))
			return append(b, "</a> 02-Jan-2020 10:00  1234\r\n"...)
		})
		if err == nil {
			io.WriteString(c, "</pre></body></html>\r\n")
		}
	}
}

// GopherWideMenu serves the empty selector as a menu of n text files
// "/f0000000"… on this server, ended by its "." line; any other selector
// is a one-line text file.
func GopherWideMenu(n int) func(*Conn) {
	return func(c *Conn) {
		sel, err := newLineReader(c).next()
		if err != nil {
			return
		}
		if sel != "" && sel != "/" {
			io.WriteString(c, "x\r\n.\r\n")
			return
		}
		port := strconv.Itoa(c.s.Port())
		err = writeLines(c, n, func(b []byte, i int) []byte {
			b = append(b, "0f"...)
			b = appendPadded(b, int64(i))
			b = append(b, "\t/f"...)
			b = appendPadded(b, int64(i))
			return append(b, "\t127.0.0.1\t"+port+"\r\n"...)
		})
		if err == nil {
			io.WriteString(c, ".\r\n")
		}
	}
}
