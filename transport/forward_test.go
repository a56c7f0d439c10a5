package transport

import (
	"io"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

func TestForwardProxy(t *testing.T) {
	for _, tc := range []struct {
		name   string
		scheme string
		proxy  string // "" means no Proxy func
		port   int
		want   string // the forwarding proxy's URL, "" for none
	}{
		{"http via http proxy", "http", "http://u:p@proxy.example:3128", 80, "http://u:p@proxy.example:3128"},
		{"proxy port defaults as curl's", "http", "http://proxy.example", 8080, "http://proxy.example:1080"},
		{"port 0 means the default", "http", "http://proxy.example:3128", 0, "http://proxy.example:3128"},
		{"a TLS proxy tunnels", "http", "https://proxy.example:3129", 80, ""},
		{"socks tunnels", "http", "socks5h://proxy.example:1080", 80, ""},
		{"no proxy", "http", "", 80, ""},
	} {
		d := &Dialer{Ports: testPorts{"http": {80}}}
		if tc.proxy != "" {
			d.Proxy = fixedProxy(tc.proxy)
		}
		got, err := d.ForwardProxy(tc.scheme, "origin.example", tc.port)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if s := urlString(got); s != tc.want {
			t.Errorf("%s: ForwardProxy = %q, want %q", tc.name, s, tc.want)
		}
	}
}

func urlString(u *url.URL) string {
	if u == nil {
		return ""
	}
	return u.String()
}

// TestForwardProxyPortPolicy: the port policy applies to the target, as
// in Dial, before the proxy is even chosen.
func TestForwardProxyPortPolicy(t *testing.T) {
	asked := false
	d := &Dialer{Proxy: func(string, string, int) (*url.URL, error) {
		asked = true
		return ParseProxy("http://proxy.example:3128")
	}}
	_, err := d.ForwardProxy("http", "origin.example", 25)
	wantKind(t, err, schemes.KindSafety)
	if asked {
		t.Error("the proxy was chosen for a refused port")
	}
}

func TestDialProxy(t *testing.T) {
	srv := newServer(t, echo)
	var trace strings.Builder
	d := &Dialer{ConnectTimeout: 5 * time.Second, IdleTimeout: 5 * time.Second, Trace: NewTrace(&trace)}
	p, err := url.Parse("http://user:s3cret@" + srv.addr())
	if err != nil {
		t.Fatal(err)
	}
	c, err := d.DialProxy(t.Context(), "http", p)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, ok := c.(*Conn); !ok {
		t.Errorf("DialProxy returned a %T, want a *Conn", c)
	}
	if _, err := c.Write([]byte("ping")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4)
	if _, err := io.ReadFull(c, buf); err != nil || string(buf) != "ping" {
		t.Fatalf("echo %q, %v", buf, err)
	}
	notes := trace.String()
	if !strings.Contains(notes, "Using proxy") || strings.Contains(notes, "s3cret") {
		t.Errorf("trace should name the proxy without its password:\n%s", notes)
	}
}
