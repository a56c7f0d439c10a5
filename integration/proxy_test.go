//go:build integration

package integration

import (
	"context"
	"encoding/base64"
	"errors"
	"io"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/integration/conformance"
	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// TestHTTPThroughTinyproxy fetches from nginx through tinyproxy, which
// allows CONNECT only to ports 443, 563 and 8443 (as proxies commonly
// allow 443 only): a plain http: URL must be forwarded in absolute form,
// an https: URL tunnelled, and the proxy password must appear nowhere.
func TestHTTPThroughTinyproxy(t *testing.T) {
	testbed.Require(t, testbed.Tinyproxy)
	testbed.Require(t, "http")
	testbed.Require(t, "https")
	cfg, err := transport.TLSConfig(testbed.CACertFile(), false, "")
	if err != nil {
		t.Fatal(err)
	}
	client := func(user *url.Userinfo) (*fetch.Client, *conformance.SyncBuffer) {
		proxy := &url.URL{Scheme: "http", User: user, Host: testbed.Addr(testbed.ProxyPort)}
		out := &conformance.SyncBuffer{}
		c := &fetch.Client{
			Dialer: &transport.Dialer{ConnectTimeout: 10 * time.Second, IdleTimeout: 30 * time.Second,
				Proxy: func(string, string, int) (*url.URL, error) { return proxy, nil }},
			Trace: transport.NewTrace(out),
			TLS:   cfg,
		}
		t.Cleanup(c.CloseIdleConnections)
		return c, out
	}
	httpURL := "http://" + testbed.Addr(testbed.HTTPPort) + "/text/lf.txt"
	httpsURL := "https://" + testbed.Addr(testbed.HTTPSPort) + "/text/lf.txt"
	want := testbed.FixtureFiles["text/lf.txt"]

	c, out := client(url.UserPassword(testbed.ProxyUser, testbed.ProxyPassword))
	off := testbed.LogSize(testbed.Tinyproxy)
	for _, u := range []string{httpURL, httpsURL} {
		resp, err := c.Get(context.Background(), u)
		if err != nil {
			t.Fatalf("%s through the proxy: %v", u, err)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || string(b) != want {
			t.Errorf("%s through the proxy: %q, %v", u, b, err)
		}
	}
	log, err := testbed.ReadProtocolLogSince(testbed.Tinyproxy, off)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"GET " + httpURL + " HTTP/1.1", "CONNECT " + testbed.Addr(testbed.HTTPSPort) + " HTTP/1.1"} {
		if !strings.Contains(string(log), line) {
			t.Errorf("tinyproxy log lacks %q:\n%s", line, log)
		}
	}
	if strings.Contains(string(log), "CONNECT "+testbed.Addr(testbed.HTTPPort)) {
		t.Errorf("the http: URL was tunnelled:\n%s", log)
	}
	creds := base64.StdEncoding.EncodeToString([]byte(testbed.ProxyUser + ":" + testbed.ProxyPassword))
	if s := out.String(); strings.Contains(s, testbed.ProxyPassword) || strings.Contains(s, creds) ||
		!strings.Contains(s, "Proxy-Authorization: Basic ****") {
		t.Errorf("trace shows the proxy password, or lacks the redacted header:\n%s", s)
	}

	// Without credentials the proxy's 407 is a refused login (exit 4).
	anon, _ := client(nil)
	_, err = anon.Get(context.Background(), httpURL)
	var se *schemes.Error
	if !errors.As(err, &se) || se.Code != 407 || se.Kind != schemes.KindPermission {
		t.Errorf("without credentials: %v, want the proxy's 407 as a permission error", err)
	}
}
