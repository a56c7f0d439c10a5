package conformance

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"testing"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// TLSConfig says how a TLS target's certificate is verified.
type TLSConfig struct {
	CAFile string // PEM file of the CA that signed the server's certificate
}

func (c *TLSConfig) config(t *testing.T) *tls.Config {
	cfg, err := transport.TLSConfig(c.CAFile, false, "")
	if err != nil {
		t.Fatalf("TLS config: %v", err)
	}
	return cfg
}

// testUntrustedCertificate: a server whose certificate the client cannot
// verify is refused before any data moves, as a safety error (exit 7);
// skipping verification (-k) then fetches the file.
func testUntrustedCertificate(t *testing.T, tg Target) {
	e := newEnv(t, tg)
	e.dialer.Dialer.TLS = &tls.Config{RootCAs: x509.NewCertPool(), MinVersion: tls.VersionTLS12} // trusts nothing
	_, resp, err := e.get(context.Background(), tg.URL("README.txt"))
	if err == nil {
		t.Fatalf("fetched %v from a server with an untrusted certificate", resp.URL)
	}
	var se *schemes.Error
	if !errors.As(err, &se) || se.Kind != schemes.KindSafety || se.Kind.ExitCode() != 7 {
		t.Fatalf("err %v (kind %v): want a safety error, exit 7", err, schemes.KindOf(err))
	}
	var uerr x509.UnknownAuthorityError
	if !errors.As(err, &uerr) {
		t.Errorf("err %v does not carry the x509 verification failure", err)
	}
	e.c.CloseIdleConnections()

	insecure := newEnv(t, tg)
	insecure.dialer.Dialer.TLS = &tls.Config{InsecureSkipVerify: true, MinVersion: tls.VersionTLS12}
	got, _, err := insecure.get(context.Background(), tg.URL("README.txt"))
	if err != nil || !bytes.Equal(got, fixture(t, "README.txt")) {
		t.Fatalf("with verification off: %d bytes, %v", len(got), err)
	}
}
