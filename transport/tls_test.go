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

// testCert returns a server TLS config with httptest's certificate (valid
// for 127.0.0.1) and a PEM file of that certificate, to trust it.
func testCert(t *testing.T) (*tls.Config, string) {
	t.Helper()
	hs := httptest.NewUnstartedServer(http.NotFoundHandler())
	hs.StartTLS()
	cert := hs.TLS.Certificates[0]
	caPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: hs.Certificate().Raw})
	hs.Close()
	f := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(f, caPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}}, f
}

// tlsGreeter is a TLS server on 127.0.0.1 that greets and echoes, like an
// implicit-TLS NNTP server. It returns the server and a PEM file of its
// certificate.
func tlsGreeter(t *testing.T) (*server, string) {
	t.Helper()
	cfg, caFile := testCert(t)
	srv := newServer(t, func(c net.Conn) {
		tc := tls.Server(c, cfg)
		if tc.Handshake() != nil {
			return
		}
		greeter(tc)
	})
	return srv, caFile
}

// startTLSServer greets in plain text and, after "STARTTLS", answers "382"
// and continues as tlsGreeter does, like an NNTP server (RFC 4642).
func startTLSServer(t *testing.T) (*server, string) {
	t.Helper()
	cfg, caFile := testCert(t)
	srv := newServer(t, func(c net.Conn) {
		io.WriteString(c, "200 plain\r\n")
		line, err := bufio.NewReader(c).ReadString('\n') // the client sends nothing more before the handshake
		if err != nil || line != "STARTTLS\r\n" {
			return
		}
		io.WriteString(c, "382 go ahead\r\n")
		tc := tls.Server(c, cfg)
		if tc.Handshake() != nil {
			return
		}
		greeter(tc)
	})
	return srv, caFile
}

func TestDialTLS(t *testing.T) {
	checkGoroutines(t)
	srv, caFile := tlsGreeter(t)
	d := &Dialer{ConnectTimeout: 5 * time.Second, IdleTimeout: 5 * time.Second}

	cfg, err := TLSConfig(caFile, false, "")
	if err != nil {
		t.Fatal(err)
	}
	trusting := *d
	trusting.TLS = cfg
	tc, err := trusting.DialTLS(t.Context(), "nntps", "127.0.0.1", srv.port())
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
	_, err = d.DialTLS(t.Context(), "nntps", "127.0.0.1", srv.port())
	se := wantKind(t, err, schemes.KindSafety)
	if se.Setting != SettingTrust || se.Phase != "tls" {
		t.Errorf("error %+v", se)
	}
	// ...nor for another name...
	wrongName := *d
	wrongName.TLS, _ = TLSConfig(caFile, false, "wrong.name")
	_, err = wrongName.DialTLS(t.Context(), "nntps", "127.0.0.1", srv.port())
	wantKind(t, err, schemes.KindSafety)
	// ...unless -k.
	insecure := *d
	insecure.TLS, _ = TLSConfig("", true, "")
	tc, err = insecure.DialTLS(t.Context(), "nntps", "127.0.0.1", srv.port())
	if err != nil {
		t.Fatal(err)
	}
	tc.Close()
}

func TestDialTLSNotTLS(t *testing.T) {
	srv := newServer(t, func(c net.Conn) { io.WriteString(c, "220 plain text server here\r\n"); io.Copy(io.Discard, c) })
	d := &Dialer{ConnectTimeout: 5 * time.Second}
	_, err := d.DialTLS(t.Context(), "nntps", "127.0.0.1", srv.port())
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

// upgradeTo dials srv, reads the greeting and asks for STARTTLS, leaving
// the connection ready for the handshake.
func upgradeTo(t *testing.T, ctx context.Context, d *Dialer, srv *server) net.Conn {
	t.Helper()
	c, err := d.Dial(ctx, "nntp", "127.0.0.1", srv.port())
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	if line, err := br.ReadString('\n'); err != nil || line != "200 plain\r\n" {
		t.Fatalf("greeting %q, %v", line, err)
	}
	io.WriteString(c, "STARTTLS\r\n")
	if line, err := br.ReadString('\n'); err != nil || line != "382 go ahead\r\n" {
		t.Fatalf("STARTTLS reply %q, %v", line, err)
	}
	return c
}

// TestStartTLS: an upgrade of a dialed connection returns a net.Conn over
// which the exchange goes on, with the *Conn (counters, binding) still
// under it, the Dialer's TLS settings untouched and the note in the
// context's trace.
func TestStartTLS(t *testing.T) {
	checkGoroutines(t)
	srv, caFile := startTLSServer(t)
	var dialerBuf, scopeBuf strings.Builder
	cfg, err := TLSConfig(caFile, false, "")
	if err != nil {
		t.Fatal(err)
	}
	d := &Dialer{ConnectTimeout: 5 * time.Second, IdleTimeout: 5 * time.Second, Trace: NewTrace(&dialerBuf), TLS: cfg}
	ctx := schemes.WithTrace(t.Context(), NewTrace(&scopeBuf))
	c := upgradeTo(t, ctx, d, srv)
	defer c.Close()
	plain := c.(*Conn).BytesRead()

	var sd schemes.Dialer = d // as a handler sees it
	tc, err := sd.StartTLS(ctx, c, "nntp", "127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	defer tc.Close()
	if cfg.ServerName != "" {
		t.Errorf("StartTLS changed the Dialer's TLS settings: ServerName %q", cfg.ServerName)
	}
	br := bufio.NewReader(tc)
	if line, err := br.ReadString('\n'); err != nil || line != "220 hello\r\n" {
		t.Fatalf("greeting over TLS %q, %v", line, err)
	}
	io.WriteString(tc, "QUIT\r\n")
	if line, err := br.ReadString('\n'); err != nil || line != "QUIT\r\n" {
		t.Fatalf("echo over TLS %q, %v", line, err)
	}
	if wc, ok := ConnOf(tc); !ok || wc != c || wc.BytesRead() <= plain {
		t.Errorf("ConnOf(upgraded) = %v, %v: want the dialed *Conn, counting the TLS bytes", wc, ok)
	}
	if got := scopeBuf.String(); !strings.Contains(got, "* TLS 1.3 with 127.0.0.1, cipher ") {
		t.Errorf("context's trace lacks the TLS note:\n%s", got)
	}
	if got := dialerBuf.String(); got != "" {
		t.Errorf("Dialer.Trace got notes meant for the context's trace:\n%s", got)
	}
}

// TestStartTLSFailures: an untrusted certificate is KindSafety and leaves
// the connection for the caller to close; a server that never answers the
// handshake is a timeout under ConnectTimeout, and canceled with the
// context.
func TestStartTLSFailures(t *testing.T) {
	srv, _ := startTLSServer(t)
	d := &Dialer{ConnectTimeout: 5 * time.Second}
	c := upgradeTo(t, t.Context(), d, srv)
	_, err := d.StartTLS(t.Context(), c, "nntp", "127.0.0.1")
	se := wantKind(t, err, schemes.KindSafety)
	if se.Phase != "tls" || se.Scheme != "nntp" {
		t.Errorf("error %+v: want phase tls, scheme nntp", se)
	}
	if err := c.Close(); err != nil {
		t.Errorf("the connection was closed by the failed StartTLS: %v", err)
	}

	mute := newServer(t, silent)
	d.ConnectTimeout = 50 * time.Millisecond
	c, err = d.Dial(t.Context(), "nntp", "127.0.0.1", mute.port())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = d.StartTLS(t.Context(), c, "nntp", "127.0.0.1")
	if se := wantKind(t, err, schemes.KindTimeout); !se.Retryable {
		t.Errorf("handshake timeout %+v not retryable", se)
	}

	d.ConnectTimeout = 0
	ctx, cancel := context.WithCancel(t.Context())
	c, err = d.Dial(ctx, "nntp", "127.0.0.1", mute.port())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	time.AfterFunc(20*time.Millisecond, cancel) // cancel while the handshake waits
	_, err = d.StartTLS(ctx, c, "nntp", "127.0.0.1")
	wantKind(t, err, schemes.KindCanceled)
}
