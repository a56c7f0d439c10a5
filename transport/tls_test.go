package transport

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/pem"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

// tlsGreeter is a TLS server on 127.0.0.1 that greets and echoes, like an
// implicit-TLS NNTP server; it uses httptest's certificate (valid for
// 127.0.0.1). It returns the server and a PEM file of its certificate.
func tlsGreeter(t *testing.T) (*server, string) {
	t.Helper()
	hs := httptest.NewUnstartedServer(http.NotFoundHandler())
	hs.StartTLS()
	cert := hs.TLS.Certificates[0]
	caPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: hs.Certificate().Raw})
	hs.Close()
	cfg := &tls.Config{Certificates: []tls.Certificate{cert}}
	srv := newServer(t, func(c net.Conn) {
		tc := tls.Server(c, cfg)
		if tc.Handshake() != nil {
			return
		}
		greeter(tc)
	})
	f := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(f, caPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	return srv, f
}

func TestDialTLS(t *testing.T) {
	checkGoroutines(t)
	srv, caFile := tlsGreeter(t)
	d := &Dialer{ConnectTimeout: 5 * time.Second, IdleTimeout: 5 * time.Second}

	cfg, err := TLSConfig(caFile, false, "")
	if err != nil {
		t.Fatal(err)
	}
	tc, err := d.DialTLS(t.Context(), "nntps", "127.0.0.1", srv.port(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(tc).ReadString('\n')
	if err != nil || line != "220 hello\r\n" {
		t.Fatalf("greeting %q, %v", line, err)
	}
	if c, ok := ConnOf(tc); !ok || c.BytesRead() == 0 {
		t.Errorf("ConnOf(tls conn) = %v, %v", c, ok)
	}
	tc.Close()

	// Without the CA the certificate is not trusted...
	_, err = d.DialTLS(t.Context(), "nntps", "127.0.0.1", srv.port(), nil)
	se := wantKind(t, err, schemes.KindSafety)
	if !strings.Contains(se.Msg, "--cacert") || se.Phase != "tls" {
		t.Errorf("error %+v", se)
	}
	// ...nor for another name...
	cfg2, _ := TLSConfig(caFile, false, "wrong.name")
	_, err = d.DialTLS(t.Context(), "nntps", "127.0.0.1", srv.port(), cfg2)
	wantKind(t, err, schemes.KindSafety)
	// ...unless -k.
	insecure, _ := TLSConfig("", true, "")
	tc, err = d.DialTLS(t.Context(), "nntps", "127.0.0.1", srv.port(), insecure)
	if err != nil {
		t.Fatal(err)
	}
	tc.Close()
}

func TestDialTLSNotTLS(t *testing.T) {
	srv := newServer(t, func(c net.Conn) { io.WriteString(c, "220 plain text server here\r\n"); io.Copy(io.Discard, c) })
	d := &Dialer{ConnectTimeout: 5 * time.Second}
	_, err := d.DialTLS(t.Context(), "nntps", "127.0.0.1", srv.port(), nil)
	wantKind(t, err, schemes.KindProtocol)
}

func TestTLSConfigErrors(t *testing.T) {
	_, err := TLSConfig(filepath.Join(t.TempDir(), "missing.pem"), false, "")
	wantKind(t, err, schemes.KindUsage)
	f := filepath.Join(t.TempDir(), "empty.pem")
	os.WriteFile(f, []byte("not pem"), 0o600)
	_, err = TLSConfig(f, false, "")
	wantKind(t, err, schemes.KindUsage)
}

func TestHTTPTransport(t *testing.T) {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "body:"+r.Header.Get("Accept-Encoding"))
	}))
	defer hs.Close()
	var trace syncBuffer
	d := &Dialer{ConnectTimeout: 5 * time.Second, IdleTimeout: 5 * time.Second, Trace: NewTrace(&trace)}
	tr := d.HTTPTransport("http", nil)
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	for range 3 {
		resp, err := client.Get(hs.URL)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(b) != "body:" {
			t.Errorf("body %q: want no Accept-Encoding added", b)
		}
	}

	// The pooled connection outlives the dial's context and is reused.
	if n := strings.Count(trace.String(), "* Connecting to"); n != 1 {
		t.Errorf("%d dials for 3 sequential requests, want 1:\n%s", n, trace.String())
	}

	// A connection net/http dialed is not tied to the dial's context,
	// which net/http may cancel while the connection sits in its pool.
	echoSrv := newServer(t, echo)
	dctx, cancel := context.WithCancel(t.Context())
	c, err := tr.DialContext(dctx, "tcp", echoSrv.addr())
	if err != nil {
		t.Fatal(err)
	}
	wc := c.(*Conn)
	wc.mu.Lock()
	bound := wc.stop != nil
	wc.mu.Unlock()
	if bound {
		t.Error("connection dialed for net/http is still bound to the dial context")
	}
	cancel()
	if _, err := c.Write([]byte("x")); err != nil {
		t.Errorf("write after the dial context ended: %v", err)
	}
	if _, err := io.ReadFull(c, make([]byte, 1)); err != nil {
		t.Errorf("read after the dial context ended: %v", err)
	}
	c.Close()

	// The port policy applies to HTTP too; nothing is dialed.
	_, err = client.Get("http://127.0.0.1:25/")
	wantKind(t, err, schemes.KindSafety)
}

func TestHTTPTransportThroughProxy(t *testing.T) {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	defer hs.Close()
	p := &connectProxy{target: hs.Listener.Addr().String()}
	ps := newServer(t, p.handle)
	d := &Dialer{ConnectTimeout: 5 * time.Second, Proxy: fixedProxy("http://" + ps.addr())}
	tr := d.HTTPTransport("http", nil)
	defer tr.CloseIdleConnections()
	resp, err := (&http.Client{Transport: tr}).Get(hs.URL)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "ok" {
		t.Errorf("body %q", b)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.gotHost) != 1 {
		t.Errorf("proxy saw %d CONNECTs, want 1", len(p.gotHost))
	}
}
