package nntp

import (
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/urlget/urlget/schemes"
)

// TestStaleRedialedOnce: a server that drops every pooled session when it
// is used (the request's first command meets the close, before any
// reply) costs each request one new connection, however many idle ones
// the pool holds: the pool re-dials once (schemes.Conns.Use) where the
// handler's loop went through every idle session.
func TestStaleRedialedOnce(t *testing.T) {
	const idle = 3
	served := map[*fakeConn]bool{}
	drops := 0
	f := newFake(t, func(c *fakeConn, cmd string) string {
		switch cmd {
		case "CAPABILITIES":
			return capsINN
		case "ARTICLE <a@x>":
			if served[c] {
				drops++
				return "<close>" // the server dropped the idle session
			}
			served[c] = true
			return "220 0 <a@x>\r\nbody\r\n.\r\n"
		}
		return ""
	})
	h := &Handler{Server: fmt.Sprintf("127.0.0.1:%d", f.port())}
	defer closeIdle(h)
	var open []*schemes.Response
	for range idle { // sessions in the pool: articles open at once, then read
		resp, err := h.Fetch(context.Background(), &schemes.Request{URL: locate(t, "news:a@x"), Dialer: fakeDialer{}, Conns: conns(h), Trace: &recTrace{}})
		if err != nil {
			t.Fatal(err)
		}
		open = append(open, resp)
	}
	for _, resp := range open {
		io.ReadAll(resp.Body)
		resp.Close()
	}
	for i := 1; i <= 2*idle; i++ {
		tr := &recTrace{}
		if b, _, err := fetchAll(t, h, "news:a@x", tr, nil); err != nil || string(b) != "body\n" {
			t.Fatalf("request %d: %q %v\n%s", i, b, err, tr)
		}
		f.replyMu.Lock()
		d := drops
		f.replyMu.Unlock()
		if n := f.connCount(); n != idle+i || d != i {
			t.Fatalf("after request %d: %d connections, %d dropped on use; want %d and %d (one re-dial a request)", i, n, d, idle+i, i)
		}
	}
}
