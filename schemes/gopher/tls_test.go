package gopher

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// TestGophersTLS fetches a gophers URL from a TLS fake server, through
// transport.Dialer's StartTLS and through a plain test dialer.
func TestGophersTLS(t *testing.T) {
	// Borrow httptest's certificate for 127.0.0.1.
	hs := httptest.NewUnstartedServer(nil)
	hs.StartTLS()
	cert, pool := hs.TLS.Certificates[0], x509.NewCertPool()
	pool.AddCert(hs.Certificate())
	hs.Close()

	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			buf := make([]byte, 64)
			n, _ := c.Read(buf)
			if string(buf[:n]) == "/secret.txt\r\n" {
				io.WriteString(c, "over TLS\r\n")
			}
			c.Close()
		}
	}()
	raw := "gophers://" + ln.Addr().String() + "/0/secret.txt"
	for name, d := range map[string]schemes.Dialer{"transport": &transport.Dialer{}, "plain": plainDialer{}} {
		req := &schemes.Request{URL: mustParse(t, raw), Dialer: d, TLS: &tls.Config{RootCAs: pool}}
		resp, err := (&Handler{}).Fetch(context.Background(), req)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(b) != "over TLS\n" {
			t.Errorf("%s: %q", name, b)
		}
	}
	// Without the CA the certificate is refused.
	req := &schemes.Request{URL: mustParse(t, raw), Dialer: &transport.Dialer{}}
	if _, err := (&Handler{}).Fetch(context.Background(), req); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("untrusted certificate: %v", err)
	}
}

// plainDialer dials without transport's policies, as a library user's
// dialer might.
type plainDialer struct{}

func (plainDialer) Dial(ctx context.Context, _, host string, port int) (net.Conn, error) {
	var d net.Dialer
	return d.DialContext(ctx, "tcp", net.JoinHostPort(host, strconv.Itoa(port)))
}
