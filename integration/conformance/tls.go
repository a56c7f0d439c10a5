package conformance

import (
	"crypto/tls"
	"testing"

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
