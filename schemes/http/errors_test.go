package http

import (
	"context"
	"errors"
	"net"
	"testing"

	"github.com/urlget/urlget/schemes"
)

// TestCutResponseHead: a connection that ends (or is reset) inside the
// response head is a retryable connect error (exit 5), like one that ends
// anywhere else before the response is complete, although net/http takes
// the bytes that came for a whole line and calls it malformed ("H", a
// header name cut before its colon); a whole line that is not HTTP is a
// protocol error (exit 6).
func TestCutResponseHead(t *testing.T) {
	for _, tc := range []struct {
		sent  string
		reset bool
		kind  schemes.Kind
	}{
		{sent: "H", kind: schemes.KindConnect},
		{sent: "H", reset: true, kind: schemes.KindConnect},
		{sent: "HTTP/1.1", kind: schemes.KindConnect},
		{sent: "HTTP/1.1 2", kind: schemes.KindConnect},
		{sent: "HTTP/1.1 200", reset: true, kind: schemes.KindConnect},
		{sent: "HTTP/1.1 200 OK\r\nContent-", kind: schemes.KindConnect},
		{sent: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n", kind: schemes.KindConnect},
		{sent: "SSH-2.0-OpenSSH_9.2\r\n", kind: schemes.KindProtocol},
		{sent: "HTTP/1.12\r\n", kind: schemes.KindProtocol},
		{sent: "HTTP/1.1 2000 OK\r\n\r\n", kind: schemes.KindProtocol},
		{sent: "HTTP/1.1 200 OK\r\nno colon\r\n\r\n", kind: schemes.KindProtocol},
	} {
		addr, _ := rawServer(t, func(c net.Conn, _ string) {
			c.Write([]byte(tc.sent))
			if tc.reset {
				c.(*net.TCPConn).SetLinger(0)
			}
			c.Close()
		})
		loc, err := parse("http://" + addr + "/x")
		if err != nil {
			t.Fatal(err)
		}
		h := &Handler{}
		_, err = h.Fetch(context.Background(), &schemes.Request{URL: loc, Dialer: &testDialer{}})
		h.CloseIdleConnections()
		var se *schemes.Error
		if !errors.As(err, &se) || se.Kind != tc.kind || se.Retryable != (tc.kind == schemes.KindConnect) {
			t.Errorf("%q (reset %v): err %v, want kind %v", tc.sent, tc.reset, err, tc.kind)
		}
	}
}
