//go:build integration

package integration

import (
	"fmt"
	"strings"
	"testing"

	"github.com/urlget/urlget/integration/conformance"
	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/schemes"
)

// escapePath escapes each segment of a fixture path for a hierarchical URL,
// where "/", ";" and "?" are reserved.
func escapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = schemes.Escape(s, "/;?")
	}
	return strings.Join(segs, "/")
}

func base(scheme, userinfo string, port int) func(string) string {
	return func(p string) string {
		return fmt.Sprintf("%s://%s%s/%s", scheme, userinfo, testbed.Addr(port), escapePath(p))
	}
}

// TestConformanceFile runs the suite with file: URLs on the fixture tree the
// servers share, read locally.
func TestConformanceFile(t *testing.T) {
	root := escapePath(strings.TrimPrefix(testbed.FixtureDir(), "/"))
	conformance.Run(t, conformance.Target{
		Name: "local",
		URL:  func(p string) string { return "file:///" + root + "/" + escapePath(p) },
	})
}

// TestConformanceHTTP runs the suite against nginx.
func TestConformanceHTTP(t *testing.T) {
	testbed.Require(t, "nginx")
	conformance.Run(t, conformance.Target{
		Name:         "nginx",
		URL:          base("http", "", testbed.HTTPPort),
		SecretURL:    base("http", "tester:http-pass-7@", testbed.HTTPPort),
		Secret:       "http-pass-7",
		NotFoundCode: 404,
	})
}

// TestConformanceHTTPS runs the suite against nginx over TLS, verifying its
// certificate with the test bed's CA.
func TestConformanceHTTPS(t *testing.T) {
	testbed.Require(t, "https")
	conformance.Run(t, conformance.Target{
		Name:         "nginx-tls",
		URL:          base("https", "", testbed.HTTPSPort),
		SecretURL:    base("https", "tester:https-pass-9@", testbed.HTTPSPort),
		Secret:       "https-pass-9",
		NotFoundCode: 404,
		TLS:          &conformance.TLSConfig{CAFile: testbed.CACertFile()},
	})
}
