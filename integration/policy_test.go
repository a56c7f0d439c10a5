//go:build integration

package integration

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/integration/conformance"
	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/internal/await"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// The redirect policy (contract v2, issue 31): a server's redirect may
// lead only to http, https, ftp and ftps unless the caller names more, and -u goes only to the host the user named. These
// tests drive real servers that redirect where they must not be followed
// — nginx's /to/... locations and gopherplusd's /plus/links menu of
// "h URL:" items — with a client able to do harm if it followed (a
// configured SMTP server, a telnet server one port away), and check both
// the refusal and that nothing was sent.

// portDialer records the ports every connection is opened to.
type portDialer struct {
	*conformance.CountingDialer
	mu    sync.Mutex
	ports []int
}

func (d *portDialer) Dial(ctx context.Context, scheme, host string, port int) (net.Conn, error) {
	d.mu.Lock()
	d.ports = append(d.ports, port)
	d.mu.Unlock()
	return d.CountingDialer.Dial(ctx, scheme, host, port)
}

func (d *portDialer) dialed(port int) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, p := range d.ports {
		if p == port {
			return true
		}
	}
	return false
}

// harmfulClient is a client that would send mail and open telnet sessions
// if a redirect reached them.
func harmfulClient(t *testing.T) (*fetch.Client, *portDialer, *conformance.SyncBuffer) {
	out := &conformance.SyncBuffer{}
	d := &portDialer{CountingDialer: conformance.NewCountingDialer()}
	c := &fetch.Client{
		Registry: mustRegistry(fetch.Config{Options: schemes.Options{
			"smtp-server": testbed.Addr(testbed.SMTPPort), "from": "t@urlget.test"}}),
		Dialer: d,
		Trace:  transport.NewTrace(out),
		Notify: func(m string) { out.Write([]byte(m + "\n")) },
	}
	t.Cleanup(c.CloseIdleConnections)
	return c, d, out
}

// noMailTagged fails if the Maildir holds a message containing tag.
func noMailTagged(t *testing.T, tag string) {
	t.Helper()
	dir := filepath.Join(testbed.MailDir(), "new")
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if b, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil && bytes.Contains(b, []byte(tag)) {
			t.Errorf("a message %q was sent: %s", tag, e.Name())
		}
	}
}

func TestRedirectPolicyNginx(t *testing.T) {
	testbed.Require(t, testbed.Nginx)
	testbed.Require(t, testbed.SMTP)
	testbed.Require(t, testbed.Telnetd)
	base := "http://" + testbed.Addr(testbed.HTTPPort)
	for _, tc := range []struct{ path, target string }{
		{"/to/mailto", "mailto:victim@127.0.0.1"},
		{"/to/telnet", "telnet://127.0.0.1:2323/"},
		{"/to/file", "file:///etc/passwd"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			c, d, out := harmfulClient(t)
			_, err := c.Get(context.Background(), base+tc.path)
			if schemes.KindOf(err) != schemes.KindSafety || !strings.Contains(err.Error(), tc.target) {
				t.Fatalf("err = %v, want a safety refusal naming %s\n%s", err, tc.target, out)
			}
			if d.dialed(testbed.SMTPPort) || d.dialed(testbed.TelnetPort) {
				t.Errorf("dialed %v after a refused redirect", d.ports)
			}
		})
	}
	noMailTagged(t, "sent by a redirect")

	// gopher is reached by a redirect only when the caller names it
	// (curl's default --proto-redir: http, https, ftp, ftps).
	t.Run("/to/gopher", func(t *testing.T) {
		testbed.Require(t, testbed.GopherPlus)
		c, d, out := harmfulClient(t)
		if _, err := c.Get(context.Background(), base+"/to/gopher"); schemes.KindOf(err) != schemes.KindSafety ||
			!strings.Contains(err.Error(), "gopher://") {
			t.Fatalf("by default: err = %v, want a safety refusal naming the gopher URL\n%s", err, out)
		}
		if d.dialed(testbed.GopherPlusPort) {
			t.Errorf("dialed %v after a refused redirect", d.ports)
		}
		c.RedirectProtocols = fetch.Protocols{"http": true, "gopher": true}
		resp, err := c.Get(context.Background(), base+"/to/gopher")
		if err != nil {
			t.Fatalf("redirect to gopher named in RedirectProtocols refused: %v\n%s", err, out)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Close()
		if err != nil || !strings.Contains(string(b), "About this Gopher+ test server") || resp.URL.Generic().Scheme != "gopher" {
			t.Fatalf("got %q (%v) from %s", b, err, resp.URL.Redacted())
		}
	})
}

func TestRedirectPolicyGopherMenu(t *testing.T) {
	testbed.Require(t, testbed.GopherPlus)
	testbed.Require(t, testbed.SMTP)
	testbed.Require(t, testbed.Nginx)
	c, d, out := harmfulClient(t)
	resp, err := c.List(context.Background(), "gopher://"+testbed.Addr(testbed.GopherPlusPort)+"/1/plus/links")
	if err != nil {
		t.Fatal(err)
	}
	entries, err := schemes.ReadAll(resp.Listing)
	if err != nil || len(entries) != 4 {
		t.Fatalf("links menu: %d entries, %v", len(entries), err)
	}
	for _, e := range entries {
		if e.Locator == nil {
			t.Fatalf("%q has no Locator", e.Title)
		}
		target, _ := e.Extra.Get("url")
		resp, err := c.Do(context.Background(), &fetch.Request{URL: e.Locator})
		if strings.HasPrefix(target, "http:") {
			if err != nil {
				t.Errorf("%s: %v", target, err)
				continue
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Close()
			if len(b) == 0 {
				t.Errorf("%s: empty", target)
			}
			continue
		}
		if err == nil {
			resp.Close()
			t.Errorf("%q (%s) was followed", e.Title, target)
			continue
		}
		if schemes.KindOf(err) != schemes.KindSafety {
			t.Errorf("%q (%s): %v, want a safety refusal", e.Title, target, err)
		}
	}
	if d.dialed(testbed.SMTPPort) || d.dialed(testbed.TelnetPort) {
		t.Errorf("dialed %v following menu items", d.ports)
	}
	noMailTagged(t, "sent by a menu")
	_ = out
}

// nginxUsers returns, for the requests nginx logged since offset whose
// request line holds tag, the "host:port user" pairs it saw (user "-" when
// no login was sent). Other tests use nginx at the same time; the tag
// keeps their requests out.
func nginxUsers(t *testing.T, offset int64, tag string) []string {
	t.Helper()
	b, err := testbed.ReadProtocolLog(testbed.Nginx)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(b[min(offset, int64(len(b))):]))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 3 && strings.Contains(sc.Text(), tag) {
			out = append(out, f[1]+" "+strings.Trim(f[2], `"`))
		}
	}
	return out
}

// TestCredentialsStayWithTheirHost: nginx redirects 127.0.0.1 to
// localhost. -u's login, or a netrc's naming both hosts, goes to the URL
// given only; with LocationTrusted to the redirect's host too (a netrc's
// entry for that host).
func TestCredentialsStayWithTheirHost(t *testing.T) {
	testbed.Require(t, testbed.Nginx)
	netrc, err := fetch.ParseNetrc("machine 127.0.0.1 login from-netrc password netrc-pass\n" +
		"machine localhost login local-netrc password local-pass\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []struct {
		name        string
		set         func(c *fetch.Client)
		user, other string // the login at 127.0.0.1 and, when trusted, at localhost
	}{
		{"-u", func(c *fetch.Client) {
			c.Credentials = func(string, string, int) (string, string, bool) { return "dash-u", "dash-u-pass", true }
		}, "dash-u", "dash-u"},
		{"netrc", func(c *fetch.Client) { c.Netrc = netrc }, "from-netrc", "local-netrc"},
	} {
		for _, trusted := range []bool{false, true} {
			c, _, out := harmfulClient(t)
			src.set(c)
			c.LocationTrusted = trusted
			off := testbed.LogSize(testbed.Nginx)
			tag := randomTag(t)
			resp, err := c.Get(context.Background(), "http://"+testbed.Addr(testbed.HTTPPort)+"/to/other-host?"+tag)
			if err != nil {
				t.Fatalf("%s, trusted=%v: %v\n%s", src.name, trusted, err, out)
			}
			resp.Close()
			want := []string{"127.0.0.1:8080 " + src.user, "localhost:8080 -"}
			if trusted {
				want[1] = "localhost:8080 " + src.other
			}
			var got []string
			await.Poll(func() bool { // nginx writes its log as it goes; bounded wait
				got = nginxUsers(t, off, tag)
				return len(got) >= 2
			})
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("%s, trusted=%v: nginx saw %q, want %q", src.name, trusted, got, want)
			}
			for _, pw := range []string{"dash-u-pass", "netrc-pass", "local-pass"} {
				if strings.Contains(out.String(), pw) {
					t.Errorf("%s: password in the trace:\n%s", src.name, out)
				}
			}
		}
	}
}
