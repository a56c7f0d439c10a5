package fetch

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// privateCA makes a CA of the test's own and a certificate for 127.0.0.1
// signed by it: the server's configuration, and the roots that trust it.
func privateCA(t *testing.T) (server *tls.Config, roots *x509.CertPool) {
	t.Helper()
	key := func() *ecdsa.PrivateKey {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	caKey, leafKey := key(), key()
	now := time.Now()
	ca := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "urlget test CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		t.Fatal(err)
	}
	leaf := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour), IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	leafDER, err := x509.CreateCertificate(rand.Reader, leaf, caCert, &leafKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	roots = x509.NewCertPool()
	roots.AddCert(caCert)
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{leafDER}, PrivateKey: leafKey}}}, roots
}

// httpsProxy is an https proxy on 127.0.0.1 with cfg's certificate that
// tunnels CONNECT to the address asked. connects counts the tunnels made.
func httpsProxy(t *testing.T, cfg *tls.Config) (u *url.URL, connects *atomic.Int64) {
	t.Helper()
	ln, err := tls.Listen("tcp", "127.0.0.1:0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	connects = &atomic.Int64{}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				req, err := http.ReadRequest(bufio.NewReader(c))
				if err != nil || req.Method != http.MethodConnect {
					return // a refused handshake ends here too
				}
				up, err := net.Dial("tcp", req.Host)
				if err != nil {
					io.WriteString(c, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
					return
				}
				defer up.Close()
				connects.Add(1)
				io.WriteString(c, "HTTP/1.1 200 Connection established\r\n\r\n")
				go io.Copy(up, c)
				io.Copy(c, up)
			}()
		}
	}()
	return &url.URL{Scheme: "https", Host: ln.Addr().String()}, connects
}

// TestClientTLSReachesHTTPSProxy: Client.TLS, set once with a private CA,
// is how the Client checks an https proxy signed by that CA and the https
// server behind it; the caller's Dialer is left as it was. Without it the
// proxy's certificate is refused (KindSafety) before any tunnel is asked.
func TestClientTLSReachesHTTPSProxy(t *testing.T) {
	srvCfg, roots := privateCA(t)
	origin := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "through the proxy")
	}))
	origin.TLS = srvCfg.Clone()
	origin.StartTLS()
	t.Cleanup(origin.Close)
	proxy, connects := httpsProxy(t, srvCfg)

	for _, tc := range []struct {
		name     string
		tls      *tls.Config
		wantKind schemes.Kind // 0: fetched
	}{
		{"Client.TLS trusts the private CA", &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}, 0},
		{"no Client.TLS: the system's roots", nil, schemes.KindSafety},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &transport.Dialer{ConnectTimeout: 5 * time.Second, IdleTimeout: 5 * time.Second,
				Proxy: func(string, string, int) (*url.URL, error) { return proxy, nil }}
			c := &Client{Dialer: d, TLS: tc.tls}
			defer c.CloseIdleConnections()
			before := connects.Load()
			resp, err := c.Get(t.Context(), origin.URL+"/f")
			if tc.wantKind != 0 {
				if schemes.KindOf(err) != tc.wantKind {
					t.Fatalf("err %v (kind %v), want kind %v", err, schemes.KindOf(err), tc.wantKind)
				}
				if n := connects.Load() - before; n != 0 {
					t.Errorf("%d tunnels made through a proxy whose certificate was refused", n)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(resp.Body)
			resp.Close()
			if err != nil || string(b) != "through the proxy" {
				t.Fatalf("body %q, %v", b, err)
			}
			if n := connects.Load() - before; n != 1 {
				t.Errorf("%d tunnels, want 1: the request went around the proxy", n)
			}
			if d.TLS != nil {
				t.Error("the Client changed its caller's Dialer")
			}
		})
	}
}

// TestClientTLSNeedsATransportDialer: with a Dialer that is not a
// *transport.Dialer the Client cannot give it Client.TLS, and dials
// nothing rather than check certificates otherwise than asked.
func TestClientTLSNeedsATransportDialer(t *testing.T) {
	d := &countingDialer{Dialer: &transport.Dialer{}} // a caller's own Dialer, wrapping one
	c := &Client{Dialer: d, TLS: &tls.Config{InsecureSkipVerify: true}}
	_, err := c.Get(t.Context(), "https://127.0.0.1:1/f")
	if schemes.KindOf(err) != schemes.KindUsage {
		t.Fatalf("err %v (kind %v), want KindUsage", err, schemes.KindOf(err))
	}
	if n := d.dials.Load(); n != 0 {
		t.Errorf("%d dials through the wrapped Dialer", n)
	}
}

// TestClientTLSDialerShared: the copy of the Dialer that carries
// Client.TLS is made once and is its clones' too, so that their requests
// find each other's pooled sessions (keyed by the Dialer).
func TestClientTLSDialerShared(t *testing.T) {
	c := &Client{TLS: &tls.Config{MinVersion: tls.VersionTLS12}}
	d := c.dialer()
	td, ok := d.(*transport.Dialer)
	if !ok || td.TLS != c.TLS || td == defaultDialer {
		t.Fatalf("dialer %#v: want a copy of the default one with Client.TLS", d)
	}
	if c.dialer() != d || c.Clone().dialer() != d {
		t.Error("a second request or a clone dials with another copy")
	}
	if (&Client{}).dialer() != schemes.Dialer(defaultDialer) {
		t.Error("a Client without TLS does not use the default Dialer")
	}
}
