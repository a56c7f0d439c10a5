package transport

import (
	"bufio"
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
