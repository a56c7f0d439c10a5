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
	"sync"
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// TestGophersTLS fetches a gophers URL from a TLS fake server: the
// handshake is the Dialer's StartTLS, and an untrusted certificate is
// refused as a safety error.
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
			switch string(buf[:n]) {
			case "/secret.txt\r\n":
				io.WriteString(c, "over TLS\r\n")
			case "\r\n":
				io.WriteString(c, "0secret\t/secret.txt\t127.0.0.1\t"+strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)+"\r\n.\r\n")
			}
			c.Close()
		}
	}()
	raw := "gophers://" + ln.Addr().String() + "/0/secret.txt"
	d := &startTLSDialer{Dialer: &transport.Dialer{TLS: &tls.Config{RootCAs: pool}}}
	r, err := fetchReq(t, &Handler{}, &schemes.Request{URL: mustParse(t, raw), Dialer: d})
	if err != nil {
		t.Fatal(err)
	}
	if r.body != "over TLS\n" || r.resp.Kind != schemes.EntryFile {
		t.Errorf("%q, kind %q", r.body, r.resp.Kind)
	}
	if got := d.calls(); len(got) != 1 || got[0] != "gophers 127.0.0.1" {
		t.Errorf("StartTLS calls %q, want one for gophers 127.0.0.1", got)
	}
	// A gophers menu lists gophers items.
	r, err = fetchReq(t, &Handler{}, &schemes.Request{URL: mustParse(t, "gophers://"+ln.Addr().String()+"/"), Dialer: d})
	if err != nil || len(r.entries) != 1 || schemestest.LocatorString(r.entries[0]) != raw {
		t.Errorf("menu %+v %v, want one entry for %s", r.entries, err, raw)
	}
	// Without the CA the certificate is refused.
	_, err = fetchReq(t, &Handler{}, &schemes.Request{URL: mustParse(t, raw), Dialer: &transport.Dialer{}})
	if schemes.KindOf(err) != schemes.KindSafety || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("untrusted certificate: %v (kind %v)", err, schemes.KindOf(err))
	}
}

// startTLSDialer is a transport Dialer that records its StartTLS calls.
type startTLSDialer struct {
	*transport.Dialer
	mu     sync.Mutex
	called []string
}

func (d *startTLSDialer) StartTLS(ctx context.Context, c net.Conn, scheme, host string, opts ...schemes.TLSOption) (net.Conn, error) {
	d.mu.Lock()
	d.called = append(d.called, scheme+" "+host)
	d.mu.Unlock()
	return d.Dialer.StartTLS(ctx, c, scheme, host, opts...)
}

func (d *startTLSDialer) calls() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.called...)
}
