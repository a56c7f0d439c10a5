package hostile

import (
	"strings"
	"testing"
)

// TestTreeWire: what the tree fakes send for the top listing, whole and
// cut: the cut gopher menu lacks its "." line, the cut HTTP page its
// Content-Length and </html>.
func TestTreeWire(t *testing.T) {
	for _, tt := range []struct {
		name       string
		serve      func(*Tree) func(*Conn)
		send       string
		cut        bool
		has, hasNo []string
	}{
		{name: "gopher whole", serve: GopherTree, send: "/\r\n", has: []string{"1d1\t/d1/\t127.0.0.1\t", "1d2\t/d2/", "\r\n.\r\n"}},
		{name: "gopher cut", serve: GopherTree, send: "/\r\n", cut: true, has: []string{"1d1\t/d1/", "9a.bin\t/a.bin"},
			hasNo: []string{"9b.bin", "d2", "\r\n.\r\n"}},
		{name: "gopher file", serve: GopherTree, send: "/d1/x.bin\r\n", cut: true, has: []string{"the content of d1/x.bin\n"}},
		{name: "http whole", serve: HTTPTree, send: "GET / HTTP/1.1\r\nHost: h\r\n\r\n",
			has: []string{"Content-Length: ", `<a href="d2/">`, "</html>"}},
		{name: "http cut", serve: HTTPTree, send: "GET / HTTP/1.1\r\nHost: h\r\n\r\n", cut: true,
			has: []string{"HTTP/1.1 200 OK", `<a href="a.bin">`}, hasNo: []string{"Content-Length", "b.bin", "</html>"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tree := &Tree{}
			if tt.cut {
				tree.Cut()
			}
			b := wire(t, tt.serve(tree), tt.send)
			for _, want := range tt.has {
				if !strings.Contains(b, want) {
					t.Errorf("%q lacks %q", b, want)
				}
			}
			for _, not := range tt.hasNo {
				if strings.Contains(b, not) {
					t.Errorf("%q holds %q", b, not)
				}
			}
		})
	}
}
