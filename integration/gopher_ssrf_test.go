//go:build integration

package integration

import (
	"bufio"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlget/urlget/gateway"
	"github.com/urlget/urlget/integration/hostile"
)

// attackPath is issue 31's gopher path: RFC 1738 §3.4.9's URL of a
// filled form, whose "data block" is an SMTP session for whatever listens
// on the port.
const attackPath = "/0x%09%09+%091%0D%0A+-1%0D%0AHELO%20x%0D%0AQUIT%0D%0A.%0D%0A"

// newTarget starts a TCP listener on 127.0.0.1 that stands for any
// line-based service (SMTP, Redis): it records every byte each connection
// sends (hostile.Server), reads a line, answers "x" and closes.
func newTarget(t *testing.T) *hostile.Server {
	t.Helper()
	s, err := hostile.Start(func(c *hostile.Conn) {
		bufio.NewReader(c).ReadString('\n')
		io.WriteString(c, "x")
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// checkOnlyControl asserts that the target was reached once, by the
// control request (selector "x"), made after every attack: the attacks
// opened no connection and wrote no byte. Connections are accepted one
// after another, so once the control's is counted every earlier one is.
func checkOnlyControl(t *testing.T, target *hostile.Server) {
	t.Helper()
	if n, got := target.Conns(), target.Received(); n != 1 || got != "x\r\n" {
		t.Errorf("the target accepted %d connections and received %q, want only the control request's \"x\\r\\n\"", n, got)
	}
}

// TestGopherSSRFGateway: a GET or a HEAD on the gateway address of issue
// 31's URL — what any web page can make a browser send with <img src> —
// is refused with 403 before anything is dialed. A control request for a
// plain item on the same listener shows the gateway could reach it.
func TestGopherSSRFGateway(t *testing.T) {
	target := newTarget(t)
	base := startGateway(t, gateway.Options{})
	attack := base + "/gopher/" + target.HostPort() + attackPath
	for _, method := range []string{"GET", "HEAD"} {
		req, err := http.NewRequest(method, attack, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body := bodyOf(t, resp)
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("%s %s: %d, want 403\n%s", method, attack, resp.StatusCode, body)
		}
		if method == "GET" && !strings.Contains(html.UnescapeString(body), "gopher+ string") {
			t.Errorf("GET %s: the page does not name the gopher+ string:\n%s", attack, body)
		}
	}
	resp, err := http.Get(base + "/gopher/" + target.HostPort() + "/0x")
	if err != nil {
		t.Fatal(err)
	}
	if body := bodyOf(t, resp); resp.StatusCode != 200 || body != "x" {
		t.Errorf("control request: %d %q, want 200 \"x\"", resp.StatusCode, body)
	}
	checkOnlyControl(t, target)
}

// TestGopherSSRFRedirect: an HTTP server that redirects `urlget -o out` to
// issue 31's URL gets exit 7 and nothing is sent to the target nor
// written: refused by the gopher rule itself when redirects may lead to
// gopher (--proto-redir +gopher), and by the redirect reach by default. A
// redirect to a plain item on the same listener, allowed, is followed.
func TestGopherSSRFRedirect(t *testing.T) {
	target := newTarget(t)
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		to := "gopher://" + target.HostPort() + attackPath
		if r.URL.Path == "/control" {
			to = "gopher://" + target.HostPort() + "/0x"
		}
		http.Redirect(w, r, to, http.StatusFound)
	}))
	t.Cleanup(web.Close)
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		say  string // in urlget's message
	}{
		{"gopher allowed by --proto-redir", []string{"--proto-redir", "+gopher"}, "gopher+ string"},
		{"default redirect reach", nil, "gopher"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
			r := runURLGet(t, dir, append(append([]string{"-L", "-o", out}, tc.args...), web.URL+"/")...)
			if r.code != 7 || !strings.Contains(r.stderr, tc.say) {
				t.Errorf("exit %d, want 7 saying %q; stderr: %s", r.code, tc.say, r.stderr)
			}
			if _, err := os.Lstat(out); !os.IsNotExist(err) {
				t.Errorf("%s was written (%v)", out, err)
			}
		})
	}
	out := filepath.Join(dir, "control")
	if r := runURLGet(t, dir, "-L", "-o", out, "--proto-redir", "+gopher", web.URL+"/control"); r.code != 0 {
		t.Fatalf("control redirect: exit %d; stderr: %s", r.code, r.stderr)
	}
	if b, err := os.ReadFile(out); err != nil || string(b) != "x" {
		t.Errorf("control: %q (%v), want \"x\"", b, err)
	}
	checkOnlyControl(t, target)
}

// bodyOf reads and closes resp's body.
func bodyOf(t *testing.T, resp *http.Response) string {
	t.Helper()
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
