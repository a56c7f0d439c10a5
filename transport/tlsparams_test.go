package transport

import (
	"bufio"
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"io"
	"math/big"
	"net"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

// clientCert makes a self-signed client certificate named cn.
func clientCert(t *testing.T, cn string) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: cn},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// tlsHello is a TLS server on 127.0.0.1 that, once the handshake is
// done, sends the common name of the client certificate it was shown
// ("-" for none) on the channel and to the client, a line.
func tlsHello(t *testing.T, cfg *tls.Config) (*server, chan string) {
	t.Helper()
	seen := make(chan string, 10)
	srv := newServer(t, func(c net.Conn) {
		tc := tls.Server(c, cfg)
		if tc.Handshake() != nil {
			return
		}
		cn := "-"
		if pc := tc.ConnectionState().PeerCertificates; len(pc) > 0 {
			cn = pc[0].Subject.CommonName
		}
		seen <- cn
		io.WriteString(tc, cn+"\n")
	})
	return srv, seen
}

// handshake dials srv and makes the TLS handshake with opts, then reads
// the server's line.
func handshake(t *testing.T, d *Dialer, srv *server, opts ...schemes.TLSOption) (string, error) {
	t.Helper()
	c, err := d.Dial(t.Context(), "gemini", "127.0.0.1", srv.port())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tc, err := d.StartTLS(t.Context(), c, "gemini", "127.0.0.1", opts...)
	if err != nil {
		return "", err
	}
	line, err := bufio.NewReader(tc).ReadString('\n')
	return line, err
}

// TestStartTLSVerify: with schemes.TLSVerify the scheme's rule decides,
// in place of the roots: it sees the server's chain, its yes lets in a
// certificate no root vouches for, and its no — whatever error says it —
// fails the handshake with KindSafety, even with the Dialer's -k; the
// Dialer's own settings are left as they were.
func TestStartTLSVerify(t *testing.T) {
	cfg, _ := testCert(t)
	srv, _ := tlsHello(t, cfg)
	served, err := x509.ParseCertificate(cfg.Certificates[0].Certificate[0])
	if err != nil {
		t.Fatal(err)
	}
	d := &Dialer{ConnectTimeout: 5 * time.Second}

	var chain []*x509.Certificate
	accept := func(st tls.ConnectionState) error { chain = st.PeerCertificates; return nil }
	if line, err := handshake(t, d, srv, schemes.TLSVerify(accept)); err != nil || line != "-\n" {
		t.Fatalf("accepted by the rule: %q %v", line, err)
	}
	if len(chain) == 0 || !bytes.Equal(chain[0].Raw, served.Raw) {
		t.Errorf("the rule saw %d certificates, not the server's", len(chain))
	}

	no := errors.New("not the one remembered")
	refuse := func(tls.ConnectionState) error { return no }
	for _, k := range []bool{false, true} {
		d := &Dialer{ConnectTimeout: 5 * time.Second, TLS: &tls.Config{InsecureSkipVerify: k, MinVersion: tls.VersionTLS12}}
		_, err := handshake(t, d, srv, schemes.TLSVerify(refuse))
		if se := wantKind(t, err, schemes.KindSafety); se.Phase != "tls" || !errors.Is(err, no) {
			t.Errorf("-k %v: %+v, want the rule's refusal in a tls-phase error", k, se)
		}
		if d.TLS.InsecureSkipVerify != k || d.TLS.VerifyConnection != nil {
			t.Errorf("-k %v: the Dialer's settings changed", k)
		}
	}
	// A rule's own *schemes.Error is the error, as it said it.
	own := &schemes.Error{Scheme: "gemini", Phase: "tls", Kind: schemes.KindSafety, Msg: "certificate changed"}
	if _, err := handshake(t, d, srv, schemes.TLSVerify(func(tls.ConnectionState) error { return own })); err != error(own) {
		t.Errorf("the rule's error: %v, want it as it is", err)
	}
	// Without the rule the roots decide again: none vouches for it.
	if _, err := handshake(t, d, srv); err == nil {
		t.Error("an untrusted certificate let in without the rule")
	} else {
		wantKind(t, err, schemes.KindSafety)
	}
}

// TestStartTLSClientCert: with schemes.TLSClientCert the server is shown
// that certificate, in place of the Dialer's; without it the Dialer's,
// or none.
func TestStartTLSClientCert(t *testing.T) {
	cfg, caFile := testCert(t)
	cfg.ClientAuth = tls.RequestClientCert
	srv, seen := tlsHello(t, cfg)
	trusted, err := TLSConfig(caFile, false, "")
	if err != nil {
		t.Fatal(err)
	}
	site, dialers := clientCert(t, "site"), clientCert(t, "dialer")

	d := &Dialer{ConnectTimeout: 5 * time.Second, TLS: trusted}
	if line, err := handshake(t, d, srv); err != nil || line != "-\n" || <-seen != "-" {
		t.Errorf("no certificate anywhere: %q %v", line, err)
	}
	if line, err := handshake(t, d, srv, schemes.TLSClientCert(&site)); err != nil || line != "site\n" || <-seen != "site" {
		t.Errorf("the handshake's certificate: %q %v", line, err)
	}
	withOwn := trusted.Clone()
	withOwn.Certificates = []tls.Certificate{dialers}
	d = &Dialer{ConnectTimeout: 5 * time.Second, TLS: withOwn}
	if line, err := handshake(t, d, srv, schemes.TLSClientCert(&site)); err != nil || line != "site\n" || <-seen != "site" {
		t.Errorf("in place of the Dialer's: %q %v", line, err)
	}
	if line, err := handshake(t, d, srv); err != nil || line != "dialer\n" || <-seen != "dialer" {
		t.Errorf("the Dialer's, without the option: %q %v", line, err)
	}
	if len(withOwn.Certificates) != 1 || !bytes.Equal(withOwn.Certificates[0].Certificate[0], dialers.Certificate[0]) {
		t.Error("the Dialer's certificates changed")
	}
}
