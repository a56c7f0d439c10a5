//go:build integration

// Package integration holds the tests that run against the container test
// bed (docker-compose.yml; see integration/README.md and package testbed).
package integration

import (
	"crypto/tls"
	"encoding/base64"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/internal/await"
)

// TestStackHealth runs every server's health probe (the first bytes of its
// greeting or of a minimal request) from Go, so the stack is proven before
// the conformance tests use it.
func TestStackHealth(t *testing.T) {
	for _, c := range testbed.Checks {
		t.Run(c.Name, func(t *testing.T) {
			err := c.Run(10 * time.Second)
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
	pool, err := testbed.CertPool(testbed.CACertFile())
	if err != nil {
		t.Fatalf("the test CA: %v", err)
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

// TestStackProxy checks tinyproxy with Go's HTTP client: an http:// URL is
// forwarded in absolute form, an https:// URL is tunnelled with CONNECT to
// 8443, CONNECT to 8080 is refused, no credentials get 407, and the request
// lines appear in the protocol log.
func TestStackProxy(t *testing.T) {
	testbed.Require(t, testbed.Tinyproxy)
	testbed.Require(t, "http")
	testbed.Require(t, "https")
	pool, err := testbed.CertPool(testbed.CACertFile())
	if err != nil {
		t.Fatalf("the test CA: %v", err)
	}
	proxy := &url.URL{Scheme: "http", Host: testbed.Addr(testbed.ProxyPort),
		User: url.UserPassword(testbed.ProxyUser, testbed.ProxyPassword)}
	get := func(proxy *url.URL, target string) (*http.Response, []byte) {
		t.Helper()
		client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
			Proxy:           http.ProxyURL(proxy),
			TLSClientConfig: &tls.Config{RootCAs: pool},
		}}
		resp, err := client.Get(target)
		if err != nil {
			t.Fatalf("GET %s via %s: %v", target, proxy.Redacted(), err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp, body
	}
	want := testbed.FixtureFiles["text/lf.txt"]
	httpURL := "http://" + testbed.Addr(testbed.HTTPPort) + "/text/lf.txt"
	httpsURL := "https://" + testbed.Addr(testbed.HTTPSPort) + "/text/lf.txt"
	off := testbed.LogSize(testbed.Tinyproxy)

	for _, target := range []string{httpURL, httpsURL} {
		if resp, body := get(proxy, target); resp.StatusCode != 200 || string(body) != want {
			t.Errorf("GET %s via the proxy: %s %q, want 200 %q", target, resp.Status, body, want)
		}
	}
	noAuth := &url.URL{Scheme: "http", Host: proxy.Host}
	if resp, _ := get(noAuth, httpURL); resp.StatusCode != http.StatusProxyAuthRequired || resp.Header.Get("Proxy-Authenticate") == "" {
		t.Errorf("GET %s without credentials: %s %v, want 407 with Proxy-Authenticate", httpURL, resp.Status, resp.Header)
	}
	// CONNECT to the plain HTTP port is not allowed (ConnectPort).
	refuse := testbed.ReadPrefix("CONNECT "+testbed.Addr(testbed.HTTPPort)+" HTTP/1.1\r\nHost: "+testbed.Addr(testbed.HTTPPort)+
		"\r\nProxy-Authorization: Basic "+base64.StdEncoding.EncodeToString([]byte(testbed.ProxyUser+":"+testbed.ProxyPassword))+
		"\r\n\r\n", "HTTP/1.1 403 ")
	if err := testbed.CheckOnce(proxy.Host, refuse, 10*time.Second); err != nil {
		t.Errorf("CONNECT to %s: %v", testbed.Addr(testbed.HTTPPort), err)
	}

	// tinyproxy logs the request line (and a refusal) before it answers.
	log, err := testbed.ReadProtocolLogSince(testbed.Tinyproxy, off)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"GET " + httpURL + " HTTP/1.1",
		"CONNECT " + testbed.Addr(testbed.HTTPSPort) + " HTTP/1.1",
		"CONNECT " + testbed.Addr(testbed.HTTPPort) + " HTTP/1.1",
		"Refused CONNECT method on port 8080",
	} {
		if !strings.Contains(string(log), line) {
			t.Errorf("tinyproxy log lacks %q; it has:\n%s", line, log)
		}
	}
}

// TestStackLogs checks that every service's protocol log exists on the host
// and is readable (proftpd's records commands only, so it may still be empty).
func TestStackLogs(t *testing.T) {
	services := []string{testbed.Vsftpd, testbed.VsftpdFTPS, testbed.Proftpd, testbed.Pureftpd, testbed.Nginx,
		testbed.Gophernicus, testbed.Pygopherd, testbed.INN, testbed.Telnetd, testbed.Tinyproxy, testbed.SMTP, testbed.Slapd, testbed.Zebra}
	for _, s := range services {
		t.Run(s, func(t *testing.T) {
			testbed.Require(t, s)
			var err error
			if !await.Poll(func() bool {
				var b []byte
				b, err = testbed.ReadProtocolLog(s)
				return err == nil && (len(b) > 0 || s == testbed.Proftpd)
			}) {
				p, _ := testbed.ProtocolLog(s)
				t.Fatalf("protocol log %s empty or unreadable: %v", p, err)
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
