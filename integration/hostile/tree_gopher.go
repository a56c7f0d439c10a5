package hostile

import (
	"io"
	"strconv"
	"strings"
)

// GopherTree serves t as a plain gopher site (RFC 1436): the menu "/"
// (or "") lists d1, the files and d2 as type 1 and type 9 items,
// "/d1/" and "/d2/" list their files, and a file's selector ("/a.bin",
// "/d1/x.bin") gives its bytes. Every menu ends with its "." line, but
// once t is cut the top menu stops after TreeCutAfter items and the
// connection is closed cleanly, as a server that died there would leave
// it.
func GopherTree(t *Tree) func(*Conn) { return gopherTree(t, false) }

// GopherPlusTree serves t as pygopherd serves its menus: a plain menu
// never ends with its "." line, and a menu asked the Gopher+ way
// (`sel TAB +`) comes as a `+-2` reply, whole when the server closes the
// connection. Once t is cut, the top menu stops after TreeCutAfter items
// and the connection is closed cleanly, which a `+-2` reply cannot tell
// from its end (as an FTP listing confirmed with 226 cannot).
func GopherPlusTree(t *Tree) func(*Conn) { return gopherTree(t, true) }

// gopherTree is GopherTree, or GopherPlusTree when plus is set.
func gopherTree(t *Tree, plus bool) func(*Conn) {
	return func(c *Conn) {
		sel, err := newLineReader(c).next()
		if err != nil {
			return
		}
		asPlus := false
		if plus {
			sel, asPlus = strings.CutSuffix(sel, "\t+")
		}
		p := strings.TrimPrefix(sel, "/")
		if body, ok := treeFile(p); ok {
			if asPlus {
				body = "+-2\r\n" + body
			}
			io.WriteString(c, body)
			return
		}
		names, cut, ok := t.entries(strings.TrimSuffix(p, "/"))
		if !ok {
			io.WriteString(c, "3not found\t\terror.host\t1\r\n.\r\n")
			return
		}
		var b []byte
		if asPlus {
			b = append(b, "+-2\r\n"...)
		}
		for _, n := range names {
			typ, item := "9", p+n
			if strings.HasSuffix(n, "/") {
				typ = "1"
			}
			b = append(b, typ+strings.TrimSuffix(n, "/")+"\t/"+item+"\t127.0.0.1\t"...)
			b = append(strconv.AppendInt(b, int64(c.s.Port()), 10), "\r\n"...)
		}
		if !cut && !plus {
			b = append(b, ".\r\n"...)
		}
		c.Write(b)
	}
}
