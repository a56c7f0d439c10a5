//go:build integration

package integration

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/urlget/urlget/integration/testbed"
)

// The tests here hold urlget to curl's exit semantics for HTTP, its -D
// and its -x, by running both with the same command line: on nginx for
// 200 and 404, on a local server for 500 and 503 (nginx's test bed
// serves no 5xx), and through tinyproxy.

// TestHTTPStatusBesideCurl: for 200, 404 and 500, without -f, with -f and
// with --fail-with-body, to a file and to stdout, urlget exits as curl
// does (0, 22) and writes what curl writes.
func TestHTTPStatusBesideCurl(t *testing.T) {
	testbed.Require(t, testbed.Nginx)
	nginx := "http://" + testbed.Addr(testbed.HTTPPort)
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "it broke", http.StatusInternalServerError)
	}))
	defer failing.Close()
	for _, u := range []struct {
		name, url string
		failed    bool // -f fails on it
	}{
		{"200", nginx + "/text/lf.txt", false},
		{"404", nginx + "/no/such/file", true},
		{"500", failing.URL + "/x", true},
	} {
		for _, flags := range [][]string{{"-sS"}, {"-sSf"}, {"-sS", "--fail-with-body"}} {
			for _, out := range [][]string{{"-o", "f"}, nil} {
				args := append(append(append([]string{}, flags...), out...), u.url)
				t.Run(fmt.Sprintf("%s %q", u.name, args[:len(args)-1]), func(t *testing.T) {
					c, o := both(t, args...)
					want := 0
					if u.failed && len(flags) > 1 || u.failed && flags[0] == "-sSf" {
						want = 22
					}
					if c.code != want || o.code != want {
						t.Errorf("curl exit %d %s; urlget exit %d %s; want %d", c.code, c.stderr, o.code, o.stderr, want)
					}
					if o.stdout != c.stdout {
						t.Errorf("stdout: urlget %q, curl %q", o.stdout, c.stdout)
					}
					sameFiles(t, u.name, c, o)
				})
			}
		}
	}
}

// TestStatusScriptBesideCurl: issue 33's script, `code=$(urlget -s -o
// /dev/null -w '%{http_code}' URL)`, prints what curl prints and exits
// as curl does, so that it runs under `set -e`.
func TestStatusScriptBesideCurl(t *testing.T) {
	testbed.Require(t, testbed.Nginx)
	for _, p := range []string{"/text/lf.txt", "/no/such/file"} {
		u := "http://" + testbed.Addr(testbed.HTTPPort) + p
		for _, f := range []string{"-s", "-sf"} {
			c, o := both(t, f, "-o", os.DevNull, "-w", "%{http_code}", u)
			if c.code != o.code || c.stdout != o.stdout || o.stderr != "" {
				t.Errorf("%s %s: curl exit %d %q; urlget exit %d %q (stderr %q)", f, p, c.code, c.stdout, o.code, o.stdout, o.stderr)
			}
		}
	}
}

// TestRetryPagesBesideCurl: --retry asks again for a 503 without -f, as
// curl does, as many times, and writes the last answer's page; with -f
// both fail with 22 after as many attempts.
func TestRetryPagesBesideCurl(t *testing.T) {
	for _, f := range [][]string{nil, {"-f"}} {
		var attempts [2]atomic.Int32 // curl's, urlget's
		var srv [2]*httptest.Server
		for i := range srv {
			srv[i] = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				http.Error(w, fmt.Sprintf("busy, attempt %d", attempts[i].Add(1)), http.StatusServiceUnavailable)
			}))
			defer srv[i].Close()
		}
		args := append([]string{"-sS", "--retry", "2", "--retry-delay", "1", "-o", "f"}, f...)
		bin, err := exec.LookPath("curl")
		if err != nil {
			t.Skip("no curl to compare with")
		}
		c := runTwin(t, bin, append(args, srv[0].URL+"/x")...)
		o := runTwin(t, urlgetBinary(t), append(args, srv[1].URL+"/x")...)
		if c.code != o.code || attempts[0].Load() != 3 || attempts[1].Load() != 3 {
			t.Errorf("%q: curl exit %d after %d attempts; urlget exit %d after %d (%s)",
				f, c.code, attempts[0].Load(), o.code, attempts[1].Load(), o.stderr)
		}
		cf, _ := os.ReadFile(filepath.Join(c.dir, "f"))
		of, _ := os.ReadFile(filepath.Join(o.dir, "f"))
		if string(cf) != string(of) {
			t.Errorf("%q: curl wrote %q, urlget %q", f, cf, of)
		}
	}
}

// TestDumpHeaderBesideCurl: -D writes nginx's heads as curl does, byte
// for byte but for the Date: to stdout before the body or to a file, one
// block a response through a redirect (-L), for an error status's page
// too; -I of a 404 shows its head, as curl -I.
func TestDumpHeaderBesideCurl(t *testing.T) {
	testbed.Require(t, testbed.Nginx)
	nginx := "http://" + testbed.Addr(testbed.HTTPPort)
	for _, p := range []string{"/text/lf.txt", "/redirect", "/no/such/file", "/text/"} {
		t.Run(p, func(t *testing.T) {
			compareHead(t, "-sSL", "-D", "-", nginx+p)
			compareHead(t, "-sSL", "-D", "-", "-o", os.DevNull, nginx+p)
			c, o := both(t, "-sSL", "-D", "h", "-o", "f", nginx+p)
			if c.code != 0 || o.code != 0 {
				t.Errorf("-D h: curl exit %d, urlget %d %s", c.code, o.code, o.stderr)
			}
			ch, _ := os.ReadFile(filepath.Join(c.dir, "h"))
			oh, _ := os.ReadFile(filepath.Join(o.dir, "h"))
			if d := dateLine.ReplaceAllString(string(ch), "Date: D"); d != dateLine.ReplaceAllString(string(oh), "Date: D") || !strings.HasSuffix(d, "\r\n\r\n") {
				t.Errorf("-D h: urlget %q, curl %q", oh, ch)
			}
			for _, name := range []string{"f"} {
				cf, _ := os.ReadFile(filepath.Join(c.dir, name))
				of, _ := os.ReadFile(filepath.Join(o.dir, name))
				if string(cf) != string(of) {
					t.Errorf("-o %s: urlget %d bytes, curl %d", name, len(of), len(cf))
				}
			}
		})
	}
	t.Run("two URLs", func(t *testing.T) {
		compareHead(t, "-sS", "-D", "-", "-o", os.DevNull, nginx+"/text/lf.txt", "-o", os.DevNull, nginx+"/no/such/file")
	})
	t.Run("-I 404", func(t *testing.T) { compareHead(t, "-sI", nginx+"/no/such/file") })
}

// TestDumpHeaderFTP: for ftp, whose replies are no HTTP head, -D writes
// the lines -I shows (curl writes the FTP replies), and the body as well.
func TestDumpHeaderFTP(t *testing.T) {
	testbed.Require(t, testbed.Vsftpd)
	u := "ftp://" + testbed.Addr(testbed.VsftpdPort) + "/README.txt"
	bin := urlgetBinary(t)
	head := runTwin(t, bin, "-sSI", u)
	got := runTwin(t, bin, "-sS", "-D", "-", u)
	if got.code != 0 || head.stdout == "" || got.stdout != head.stdout+testbed.FixtureFiles["README.txt"] {
		t.Errorf("-D -: exit %d, %q; -I %q", got.code, got.stdout, head.stdout)
	}
}

// TestProxyShorthandBesideCurl: -x through tinyproxy is what curl's -x
// is: the file with the proxy's login; without it the proxy's 407 page,
// exit 0 (22 with -f), for both.
func TestProxyShorthandBesideCurl(t *testing.T) {
	testbed.Require(t, testbed.Tinyproxy)
	testbed.Require(t, testbed.Nginx)
	proxy := "127.0.0.1:" + fmt.Sprint(testbed.ProxyPort)
	u := "http://" + testbed.Addr(testbed.HTTPPort) + "/text/lf.txt"
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"-sS", "-x", "http://" + testbed.ProxyUser + ":" + testbed.ProxyPassword + "@" + proxy, u}, 0},
		{[]string{"-sS", "-x", "http://" + proxy, "-w", "%{http_code}", "-o", "f", u}, 0},
		{[]string{"-sSf", "-x", "http://" + proxy, "-w", "%{http_code}", "-o", "f", u}, 22},
	} {
		c, o := both(t, tc.args...)
		if c.code != tc.code || o.code != tc.code || c.stdout != o.stdout {
			t.Errorf("%q: curl exit %d %q %s; urlget exit %d %q %s", tc.args, c.code, c.stdout, c.stderr, o.code, o.stdout, o.stderr)
		}
		if tc.code == 0 && len(tc.args) == 4 && o.stdout != testbed.FixtureFiles["text/lf.txt"] {
			t.Errorf("%q: %q", tc.args, o.stdout)
		}
		sameFiles(t, strings.Join(tc.args, " "), c, o)
	}
}
