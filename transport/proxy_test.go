package transport

import (
	"bufio"
	"crypto/tls"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

func fixedProxy(raw string) ProxyFunc {
	return func(scheme, host string, port int) (*url.URL, error) { return ParseProxy(raw) }
}

// pipe copies both ways until either side ends.
func pipe(a, b net.Conn) {
	var wg sync.WaitGroup
	wg.Go(func() { io.Copy(a, b); a.Close(); b.Close() })
	wg.Go(func() { io.Copy(b, a); a.Close(); b.Close() })
	wg.Wait()
}

// connectProxy is a tiny HTTP CONNECT proxy that only ever connects to
// target (a 127.0.0.1 test server). With wantAuth set it demands that
// Proxy-Authorization, answering 407 otherwise. The target's first bytes
// are sent in the same write as the 200 reply, as happens on the wire when
// the server speaks first.
type connectProxy struct {
	target, wantAuth string
	greets           bool // the target speaks first
	mu               sync.Mutex
	gotAuth, gotHost []string
}

func (p *connectProxy) handle(c net.Conn) {
	br := bufio.NewReader(c)
	req, err := http.ReadRequest(br)
	if err != nil {
		return
	}
	p.mu.Lock()
	p.gotAuth = append(p.gotAuth, req.Header.Get("Proxy-Authorization"))
	p.gotHost = append(p.gotHost, req.Host)
	p.mu.Unlock()
	if req.Method != http.MethodConnect {
		io.WriteString(c, "HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n")
		return
	}
	if p.wantAuth != "" && req.Header.Get("Proxy-Authorization") != p.wantAuth {
		io.WriteString(c, "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"t\"\r\nContent-Length: 0\r\n\r\n")
		return
	}
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		io.WriteString(c, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
		return
	}
	greeting := make([]byte, 64)
	n := 0
	if p.greets {
		n, _ = up.Read(greeting)
	}
	c.Write(append([]byte("HTTP/1.1 200 Connection established\r\n\r\n"), greeting[:n]...))
	pipe(c, up)
}

// greeter says hello and then echoes, like an FTP or NNTP server.
func greeter(c net.Conn) {
	io.WriteString(c, "220 hello\r\n")
	io.Copy(c, c)
}

func TestHTTPConnectProxy(t *testing.T) {
	checkGoroutines(t)
	target := newServer(t, greeter)
	p := &connectProxy{target: target.addr(), greets: true, wantAuth: "Basic " + base64.StdEncoding.EncodeToString([]byte("fred:s3cret"))}
	ps := newServer(t, p.handle)

	var trace strings.Builder
	d := &Dialer{ConnectTimeout: 5 * time.Second, IdleTimeout: 5 * time.Second, Trace: NewTrace(&trace),
		Proxy: fixedProxy("http://fred:s3cret@" + ps.addr())}
	c, err := d.Dial(t.Context(), "ftp", "127.0.0.1", target.port())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	if line, err := br.ReadString('\n'); err != nil || line != "220 hello\r\n" {
		t.Fatalf("greeting %q, %v: bytes sent with the proxy's reply were lost", line, err)
	}
	io.WriteString(c, "NOOP\r\n")
	if line, err := br.ReadString('\n'); err != nil || line != "NOOP\r\n" {
		t.Fatalf("echo %q, %v", line, err)
	}
	p.mu.Lock()
	if len(p.gotHost) != 1 || p.gotHost[0] != target.addr() {
		t.Errorf("CONNECT host %v, want %s", p.gotHost, target.addr())
	}
	p.mu.Unlock()
	tr := trace.String()
	if strings.Contains(tr, "s3cret") || strings.Contains(tr, p.wantAuth[6:]) {
		t.Errorf("trace leaks proxy credentials:\n%s", tr)
	}
	if !strings.Contains(tr, "> Proxy-Authorization: Basic ****") || !strings.Contains(tr, "< HTTP/1.1 200 Connection established") {
		t.Errorf("trace lacks the CONNECT exchange:\n%s", tr)
	}
}

func TestHTTPConnectProxy407(t *testing.T) {
	target := newServer(t, greeter)
	p := &connectProxy{target: target.addr(), wantAuth: "Basic Zm9vOmJhcg=="}
	ps := newServer(t, p.handle)
	for _, proxy := range []string{"http://" + ps.addr(), "http://fred:wrong@" + ps.addr()} {
		d := &Dialer{ConnectTimeout: 5 * time.Second, Proxy: fixedProxy(proxy)}
		_, err := d.Dial(t.Context(), "ftp", "127.0.0.1", target.port())
		se := wantKind(t, err, schemes.KindPermission)
		if se.Code != 407 || se.Phase != "proxy" || se.Part != "proxy" {
			t.Errorf("error %+v: want code 407, phase and part proxy", se)
		}
		if strings.Contains(err.Error(), "wrong") {
			t.Errorf("error leaks the proxy password: %v", err)
		}
	}
}

func TestHTTPConnectProxyBadReplies(t *testing.T) {
	tests := []struct {
		reply string
		kind  schemes.Kind
	}{
		{"HTTP/1.1 502 Bad Gateway\r\n\r\n", schemes.KindConnect},
		{"HTTP/1.1 403 Forbidden\r\n\r\n", schemes.KindPermission},
		{"garbage\r\n\r\n", schemes.KindConnect},
		{"HTTP/1.1 200 OK\r\nX: " + strings.Repeat("a", maxConnectResponse+10), schemes.KindConnect},
	}
	for _, tt := range tests {
		ps := newServer(t, func(c net.Conn) {
			http.ReadRequest(bufio.NewReader(c))
			io.WriteString(c, tt.reply)
		})
		d := &Dialer{ConnectTimeout: 5 * time.Second, Proxy: fixedProxy("http://" + ps.addr())}
		_, err := d.Dial(t.Context(), "gopher", "127.0.0.1", 70)
		wantKind(t, err, tt.kind)
	}
}

// socksServer is a tiny SOCKS5 server (RFC 1928/1929) that connects every
// request to target and records the address type and address it was asked
// for.
type socksServer struct {
	target         string
	user, password string
	mu             sync.Mutex
	atyp           byte
	dst            string
}

func (s *socksServer) handle(c net.Conn) {
	br := bufio.NewReader(c)
	hdr := make([]byte, 2)
	if _, err := io.ReadFull(br, hdr); err != nil || hdr[0] != 5 {
		return
	}
	methods := make([]byte, hdr[1])
	io.ReadFull(br, methods)
	if s.user != "" {
		c.Write([]byte{5, 2})
		var ver, ulen, plen byte
		ver, _ = br.ReadByte()
		ulen, _ = br.ReadByte()
		u := make([]byte, ulen)
		io.ReadFull(br, u)
		plen, _ = br.ReadByte()
		p := make([]byte, plen)
		io.ReadFull(br, p)
		if ver != 1 || string(u) != s.user || string(p) != s.password {
			c.Write([]byte{1, 1})
			return
		}
		c.Write([]byte{1, 0})
	} else {
		c.Write([]byte{5, 0})
	}
	req := make([]byte, 4)
	if _, err := io.ReadFull(br, req); err != nil || req[1] != 1 {
		return
	}
	var host string
	switch req[3] {
	case 1:
		a := make([]byte, 4)
		io.ReadFull(br, a)
		host = net.IP(a).String()
	case 4:
		a := make([]byte, 16)
		io.ReadFull(br, a)
		host = net.IP(a).String()
	case 3:
		n, _ := br.ReadByte()
		a := make([]byte, n)
		io.ReadFull(br, a)
		host = string(a)
	}
	pb := make([]byte, 2)
	io.ReadFull(br, pb)
	s.mu.Lock()
	s.atyp, s.dst = req[3], net.JoinHostPort(host, itoa(int(binary.BigEndian.Uint16(pb))))
	s.mu.Unlock()
	up, err := net.Dial("tcp", s.target)
	if err != nil {
		c.Write([]byte{5, 5, 0, 1, 0, 0, 0, 0, 0, 0})
		return
	}
	c.Write([]byte{5, 0, 0, 1, 127, 0, 0, 1, 0, 0})
	pipe(c, up)
}

func TestSOCKS5(t *testing.T) {
	checkGoroutines(t)
	target := newServer(t, greeter)
	tests := []struct {
		proxyScheme string
		host        string
		wantAtyp    byte
	}{
		{"socks5", "127.0.0.1", 1},
		{"socks5", "localhost", 1},  // resolved here: the proxy gets an address (1 or 4)
		{"socks5h", "localhost", 3}, // the proxy gets the name
	}
	for _, tt := range tests {
		ss := &socksServer{target: target.addr(), user: "fred", password: "pw"}
		ps := newServer(t, ss.handle)
		d := &Dialer{ConnectTimeout: 5 * time.Second, Proxy: fixedProxy(tt.proxyScheme + "://fred:pw@" + ps.addr())}
		c, err := d.Dial(t.Context(), "nntp", tt.host, target.port())
		if err != nil {
			t.Fatalf("%s %s: %v", tt.proxyScheme, tt.host, err)
		}
		line, err := bufio.NewReader(c).ReadString('\n')
		c.Close()
		if err != nil || line != "220 hello\r\n" {
			t.Errorf("%s: greeting %q, %v", tt.proxyScheme, line, err)
		}
		ss.mu.Lock()
		atyp, dst := ss.atyp, ss.dst
		ss.mu.Unlock()
		ok := atyp == tt.wantAtyp || (tt.wantAtyp == 1 && atyp == 4)
		if !ok {
			t.Errorf("%s %s: proxy got address type %d (%s), want %d", tt.proxyScheme, tt.host, atyp, dst, tt.wantAtyp)
		}
		if tt.wantAtyp == 3 && dst != net.JoinHostPort("localhost", itoa(target.port())) {
			t.Errorf("socks5h: proxy asked for %s", dst)
		}
	}
}

func TestSOCKS5AuthRefused(t *testing.T) {
	target := newServer(t, greeter)
	ss := &socksServer{target: target.addr(), user: "fred", password: "pw"}
	ps := newServer(t, ss.handle)
	d := &Dialer{ConnectTimeout: 5 * time.Second, Proxy: fixedProxy("socks5h://fred:bad@" + ps.addr())}
	_, err := d.Dial(t.Context(), "nntp", "127.0.0.1", target.port())
	if err == nil {
		t.Fatal("dial succeeded with a bad password")
	}
	wantKind(t, err, schemes.KindConnect)
	if strings.Contains(err.Error(), "bad@") {
		t.Errorf("error leaks the password: %v", err)
	}
}

func TestUnsupportedProxyScheme(t *testing.T) {
	_, err := ParseProxy("socks4://127.0.0.1:1080")
	wantKind(t, err, schemes.KindUnsupported)
	_, err = ParseProxy("http://u:pw@127.0.0.1:99999")
	se := wantKind(t, err, schemes.KindUsage)
	if strings.Contains(se.Error(), "pw") {
		t.Errorf("error leaks the password: %v", se)
	}
	d := &Dialer{Proxy: func(string, string, int) (*url.URL, error) { return nil, errors.New("broken") }}
	_, err = d.Dial(t.Context(), "gopher", "127.0.0.1", 70)
	wantKind(t, err, schemes.KindUsage)
}

// TestHTTPSProxyTLS: the handshake with an https proxy uses the Dialer's
// TLS, the settings of every connection (the user's --cacert and -k),
// verifying the proxy's own name even when they name another server:
// without it a proxy whose certificate the system does not trust is
// refused; with its certificate trusted, or with checks off, the tunnel
// carries the target's bytes.
func TestHTTPSProxyTLS(t *testing.T) {
	target := newServer(t, greeter)
	p := &connectProxy{target: target.addr(), greets: true}
	srvCfg, caFile := testCert(t)
	ps := newServer(t, func(c net.Conn) {
		tc := tls.Server(c, srvCfg)
		if tc.Handshake() != nil {
			return
		}
		p.handle(tc)
	})
	trusted, err := TLSConfig(caFile, false, "")
	if err != nil {
		t.Fatal(err)
	}
	insecure, _ := TLSConfig("", true, "")
	otherName, _ := TLSConfig(caFile, false, "server.example")
	for _, tc := range []struct {
		name string
		cfg  *tls.Config
		ok   bool
	}{
		{"system roots", nil, false},
		{"--cacert", trusted, true},
		{"-k", insecure, true},
		{"--cacert, servers' name set", otherName, true},
	} {
		d := &Dialer{ConnectTimeout: 5 * time.Second, IdleTimeout: 5 * time.Second, TLS: tc.cfg,
			Proxy: fixedProxy("https://" + ps.addr())}
		c, err := d.Dial(t.Context(), "ftp", "127.0.0.1", target.port())
		if !tc.ok {
			if err == nil || !strings.Contains(err.Error(), "certificate") {
				c.Close()
				t.Errorf("%s: err %v, want a certificate error", tc.name, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		line, err := bufio.NewReader(c).ReadString('\n')
		c.Close()
		if err != nil || line != "220 hello\r\n" {
			t.Errorf("%s: greeting %q, %v", tc.name, line, err)
		}
	}
	if trusted.ServerName != "" {
		t.Error("the Dialer changed its TLS settings")
	}
}
