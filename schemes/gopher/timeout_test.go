package gopher

import (
	"context"
	"net"
	"os"
	"testing"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// timeoutOnce is a connection whose first Read fails as an expired idle
// deadline does; later Reads read the connection.
type timeoutOnce struct {
	net.Conn
	failed bool
}

func (c *timeoutOnce) Read(p []byte) (int, error) {
	if !c.failed {
		c.failed = true
		return 0, &net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded}
	}
	return c.Conn.Read(p)
}

// timeoutOnceDialer dials connections whose first Read times out.
type timeoutOnceDialer struct{ *transport.Dialer }

func (d timeoutOnceDialer) Dial(ctx context.Context, scheme, host string, port int) (net.Conn, error) {
	c, err := d.Dialer.Dial(ctx, scheme, host, port)
	if err != nil {
		return nil, err
	}
	return &timeoutOnce{Conn: c}, nil
}

// TestTimeoutIsFinal: a read that times out fails the fetch at once, for
// every kind of reply. No later read waits on the server again: a silent
// server would cost one idle timeout a read, and what it sent after the
// first would be taken for the document (bufio's Peek swallows the error).
func TestTimeoutIsFinal(t *testing.T) {
	for _, path := range []string{"/9/f.bin", "/0/t.txt", "/0/t.txt%09%09+", "/1/d", "/1/d%09%09$"} {
		t.Run(path, func(t *testing.T) {
			s := newFakeServer(t, "+-1\r\n0late\t/late\th\t70\r\n.\r\n")
			req := &schemes.Request{URL: mustParse(t, s.url(path)), Dialer: timeoutOnceDialer{&transport.Dialer{}}}
			r, err := fetchReq(t, &Handler{}, req)
			if schemes.KindOf(err) != schemes.KindTimeout {
				t.Errorf("err %v (kind %v), want a timeout; body %q, %d entries",
					err, schemes.KindOf(err), r.body, len(r.entries))
			}
		})
	}
}
