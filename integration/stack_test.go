//go:build integration

// Package integration holds the tests that run against the container test
// bed (docker-compose.yml; see integration/README.md and package testbed).
package integration

import (
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/urlget/urlget/integration/testbed"
)

// TestStackHealth runs every server's health probe (the first bytes of its
// greeting or of a minimal request) from Go, so the stack is proven before
// the conformance tests use it.
func TestStackHealth(t *testing.T) {
	for _, c := range testbed.Checks {
		t.Run(c.Name, func(t *testing.T) {
			err := testbed.CheckOnce(testbed.Addr(c.Port), c.Probe, 10*time.Second)
			if err == nil {
				return
			}
			if testbed.InCI() {
				t.Fatalf("%s (%s): %v", c.Name, testbed.Addr(c.Port), err)
			}
			t.Skipf("%s (%s) not available, run integration/stack.sh up: %v", c.Name, testbed.Addr(c.Port), err)
		})
	}
}

// TestStackHTTPS checks nginx's TLS endpoint with the exported test CA.
func TestStackHTTPS(t *testing.T) {
	testbed.Require(t, "https")
	pem, err := os.ReadFile(testbed.CACertFile())
	if err != nil {
		t.Fatalf("reading the test CA: %v", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		t.Fatalf("no certificate in %s", testbed.CACertFile())
	}
	client := &http.Client{
		Timeout:   10 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}},
	}
	resp, err := client.Get("https://" + testbed.Addr(testbed.HTTPSPort) + "/text/lf.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if want := testbed.FixtureFiles["text/lf.txt"]; resp.StatusCode != 200 || string(body) != want {
		t.Fatalf("GET /text/lf.txt: %s %q, want 200 %q", resp.Status, body, want)
	}
}

// TestStackLogs checks that every service's protocol log exists on the host
// and is readable (proftpd's records commands only, so it may still be empty).
func TestStackLogs(t *testing.T) {
	services := []string{testbed.Vsftpd, testbed.VsftpdFTPS, testbed.Proftpd, testbed.Pureftpd, testbed.Nginx,
		testbed.Gophernicus, testbed.Pygopherd, testbed.INN, testbed.Telnetd, testbed.SMTP}
	for _, s := range services {
		t.Run(s, func(t *testing.T) {
			testbed.Require(t, s)
			deadline := time.Now().Add(5 * time.Second)
			for {
				b, err := testbed.ReadProtocolLog(s)
				if err == nil && (len(b) > 0 || s == testbed.Proftpd) {
					return
				}
				if time.Now().After(deadline) {
					p, _ := testbed.ProtocolLog(s)
					t.Fatalf("protocol log %s empty or unreadable: %v", p, err)
				}
				time.Sleep(100 * time.Millisecond)
			}
		})
	}
}

// TestStackFixtures checks the generated fixture tree on the host.
func TestStackFixtures(t *testing.T) {
	fi, err := os.Stat(testbed.FixtureDir() + "/" + testbed.BigFile)
	if err != nil {
		if testbed.InCI() {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	if fi.Size() != testbed.BigFileSize {
		t.Fatalf("%s: size %d, want %d", testbed.BigFile, fi.Size(), testbed.BigFileSize)
	}
}
