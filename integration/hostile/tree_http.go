package hostile

import (
	"fmt"
	"io"
	"strings"
)

// HTTPTree serves t over HTTP/1.1, one request a connection: "/" and
// "/d1/", "/d2/" are index pages in nginx's autoindex form (a <pre> of
// links), a file's path gives its bytes, anything else 404. Pages and
// files carry a Content-Length, but once t is cut the top page is sent
// without one (the body ends at the close, Connection: close) and stops
// after TreeCutAfter links, with no </html>: a page cut short that only
// its missing end tag gives away.
func HTTPTree(t *Tree) func(*Conn) {
	return func(c *Conn) {
		lr := newLineReader(c)
		line, err := lr.next()
		if err != nil {
			return
		}
		for { // the rest of the request's head
			h, err := lr.next()
			if err != nil {
				return
			}
			if h == "" {
				break
			}
		}
		_, target, _ := strings.Cut(line, " ")
		target, _, _ = strings.Cut(target, " ")
		p := strings.TrimPrefix(target, "/")
		if body, ok := treeFile(p); ok {
			httpReply(c, "200 OK", "application/octet-stream", body, true)
			return
		}
		names, cut, ok := t.entries(strings.TrimSuffix(p, "/"))
		if !ok || p != "" && !strings.HasSuffix(p, "/") {
			httpReply(c, "404 Not Found", "text/plain", "not found\n", true)
			return
		}
		var b strings.Builder
		fmt.Fprintf(&b, "<html>\r\n<head><title>Index of /%s</title></head>\r\n<body>\r\n<h1>Index of /%s</h1><hr><pre><a href=\"../\">../</a>\r\n", p, p)
		for _, n := range names {
			fmt.Fprintf(&b, "<a href=\"%s\">%s</a>\r\n", n, n)
		}
		if !cut {
			b.WriteString("</pre><hr></body>\r\n</html>\r\n")
		}
		httpReply(c, "200 OK", "text/html", b.String(), !cut)
	}
}

// httpReply writes a response that closes the connection, with a
// Content-Length when length is set (else the body ends at the close).
func httpReply(w io.Writer, status, ctype, body string, length bool) {
	head := "HTTP/1.1 " + status + "\r\nContent-Type: " + ctype + "\r\nConnection: close\r\n"
	if length {
		head += fmt.Sprintf("Content-Length: %d\r\n", len(body))
	}
	io.WriteString(w, head+"\r\n"+body)
}
