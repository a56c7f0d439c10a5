package gateway

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlget/urlget/internal/await"
)

// gateway starts a Server on 127.0.0.1 (served) and returns its base URL.
func gateway(t *testing.T, opt Options) string {
	t.Helper()
	_, addr := served(t, opt)
	return "http://" + addr
}

// noRedirect is a client that shows redirects instead of following them.
var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func get(t *testing.T, req *http.Request) (*http.Response, string) {
	t.Helper()
	resp, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func newRequest(t *testing.T, method, url string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	return req
}

// fake serves each connection to a listener on 127.0.0.1 with serve,
// and counts the connections.
func fake(t *testing.T, serve func(net.Conn)) (addr string, conns *atomic.Int32) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	conns = new(atomic.Int32)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			go func() {
				defer c.Close()
				serve(c)
			}()
		}
	}()
	return ln.Addr().String(), conns
}

// gopherFake serves menu to every selector.
func gopherFake(t *testing.T, menu string) (addr string, conns *atomic.Int32) {
	return fake(t, func(c net.Conn) {
		bufio.NewReader(c).ReadString('\n')
		io.WriteString(c, menu+".\r\n")
	})
}

func TestHostCheck(t *testing.T) {
	base := gateway(t, Options{})
	port := base[strings.LastIndexByte(base, ':')+1:]
	for _, c := range []struct {
		host string
		want int
	}{
		{"127.0.0.1:" + port, 200},
		{"localhost:" + port, 200},
		{"LOCALHOST:" + port, 200},
		{"[::1]:" + port, 200},
		{"attacker.example:" + port, http.StatusMisdirectedRequest}, // DNS rebinding
		{"127.0.0.1", http.StatusMisdirectedRequest},
		{"127.0.0.1:1", http.StatusMisdirectedRequest},
	} {
		req := newRequest(t, "GET", base+"/")
		req.Host = c.host
		if resp, _ := get(t, req); resp.StatusCode != c.want {
			t.Errorf("Host %q: %d, want %d", c.host, resp.StatusCode, c.want)
		}
	}
}

func TestHostsFor(t *testing.T) {
	for _, c := range []struct {
		addr  string
		names []string
		want  string
	}{
		{"127.0.0.1:8070", nil, "127.0.0.1:8070 127.0.0.1:8070 localhost:8070 [::1]:8070"},
		{"[::1]:80", []string{"localhost:0"}, "[::1]:80 127.0.0.1:80 localhost:80 [::1]:80 localhost:80"},
		{"192.0.2.1:8070", []string{"gw.example:8070"}, "192.0.2.1:8070 gw.example:8070"},
		{"0.0.0.0:8070", []string{":8070", "box"}, "0.0.0.0:8070 127.0.0.1:8070 localhost:8070 [::1]:8070 box:8070"},
	} {
		addr, err := net.ResolveTCPAddr("tcp", c.addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(HostsFor(addr, c.names...), " "); got != c.want {
			t.Errorf("HostsFor(%s, %q) = %s, want %s", c.addr, c.names, got, c.want)
		}
	}
}

func TestRefusals(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret.txt")
	os.WriteFile(secret, []byte("local secret\n"), 0o600)
	base := gateway(t, Options{})
	allow := gateway(t, Options{AllowFile: true})
	telnet, conns := gopherFake(t, "") // anything that counts connections

	t.Run("cross-site POST", func(t *testing.T) {
		req := newRequest(t, "POST", base+"/")
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		if resp, _ := get(t, req); resp.StatusCode != http.StatusForbidden {
			t.Errorf("cross-site POST: %d, want 403", resp.StatusCode)
		}
		req = newRequest(t, "POST", base+"/")
		req.Header.Set("Origin", "http://attacker.example")
		if resp, _ := get(t, req); resp.StatusCode != http.StatusForbidden {
			t.Errorf("POST from another origin: %d, want 403", resp.StatusCode)
		}
	})
	t.Run("CONNECT", func(t *testing.T) {
		c, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "CONNECT 127.0.0.1:70 HTTP/1.1\r\nHost: 127.0.0.1:70\r\n\r\n")
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil || resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("CONNECT: %v, %v; want 405", resp, err)
		}
	})
	t.Run("file", func(t *testing.T) {
		resp, body := get(t, newRequest(t, "GET", base+Address("file://"+secret)))
		if resp.StatusCode != http.StatusForbidden || strings.Contains(body, "local secret") || !strings.Contains(body, "start the gateway with AllowFile") {
			t.Errorf("file: without --allow-file: %d %q", resp.StatusCode, body)
		}
		resp, body = get(t, newRequest(t, "GET", allow+Address("file://"+secret)))
		if resp.StatusCode != 200 || body != "local secret\n" {
			t.Errorf("file: with --allow-file: %d %q", resp.StatusCode, body)
		}
	})
	t.Run("itself", func(t *testing.T) {
		self := "http://" + strings.TrimPrefix(base, "http://") + "/"
		for _, u := range []string{self, strings.Replace(self, "127.0.0.1", "localhost", 1), self + "http/" + strings.TrimPrefix(self, "http://")} {
			if resp, _ := get(t, newRequest(t, "GET", base+Address(u))); resp.StatusCode != http.StatusLoopDetected {
				t.Errorf("%s through the gateway: %d, want 508", u, resp.StatusCode)
			}
		}
	})
	t.Run("telnet and mailto", func(t *testing.T) {
		for _, u := range []string{"telnet://" + telnet + "/", "mailto:someone@127.0.0.1?subject=x"} {
			resp, body := get(t, newRequest(t, "GET", base+Address(u)))
			if resp.StatusCode != 200 || !strings.Contains(body, `<a id="link" href="`+strings.SplitN(u, "?", 2)[0]) {
				t.Errorf("%s: %d %s", u, resp.StatusCode, body)
			}
		}
		if n := conns.Load(); n != 0 {
			t.Errorf("the gateway connected to the telnet server %d times", n)
		}
	})
}

func TestGopherMenuPage(t *testing.T) {
	menu := "iWelcome <b>friends</b>\t\terror.host\t1\r\n" +
		"0<script>alert(1)</script>\t/x\"y\t127.0.0.1\t1\r\n" +
		"7Search \"here\"\t/search\t127.0.0.1\t1\r\n" +
		"8A telnet login\t\t127.0.0.1\t23\r\n" +
		"hjs\tURL:javascript:alert(2)\t127.0.0.1\t1\r\n"
	addr, _ := gopherFake(t, menu)
	base := gateway(t, Options{})
	resp, body := get(t, newRequest(t, "GET", base+"/gopher/"+addr+"/1/"))
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	for _, h := range []string{"Content-Security-Policy", "X-Content-Type-Options"} {
		if resp.Header.Get(h) == "" {
			t.Errorf("no %s", h)
		}
	}
	for _, want := range []string{
		`<ul id="entries">`,
		`<li class="info">Welcome &lt;b&gt;friends&lt;/b&gt;</li>`,
		`&lt;script&gt;alert(1)&lt;/script&gt;</a>`,
		`<form class="search" method="get" action="/search">`,
		`<input name="q"`,
		`Search &#34;here&#34;`,
		`<li class="session"><a href="telnet://127.0.0.1/">A telnet login</a>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %s:\n%s", want, body)
		}
	}
	if strings.Contains(body, "<script>") || strings.Contains(body, `href="javascript:`) || strings.Contains(body, "<b>") {
		t.Errorf("unescaped server text on the page:\n%s", body)
	}
	// The search item itself, asked without words, is a form for them.
	resp, body = get(t, newRequest(t, "GET", base+"/gopher/"+addr+"/7/search"))
	if !strings.Contains(body, `<form class="search" method="get" action="/search"><input type="hidden" name="url" value="gopher://`+addr+`/7/search">`) {
		t.Errorf("a search without words: %d %s", resp.StatusCode, body)
	}
	// The form leads to the search's own address.
	req := newRequest(t, "GET", base+"/search?url="+strings.ReplaceAll("gopher://"+addr+"/7/search", ":", "%3A")+"&q=two+words")
	resp, _ = get(t, req)
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != "/gopher/"+addr+"/7/search%09two%20words" {
		t.Errorf("search: %d %q", resp.StatusCode, loc)
	}
	// /go leads to the address of the URL typed.
	resp, _ = get(t, newRequest(t, "GET", base+"/go?url=gopher%3A%2F%2F"+addr+"%2F1%2Fa%2509b"))
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != "/gopher/"+addr+"/1/a%09b" {
		t.Errorf("go: %d %q", resp.StatusCode, loc)
	}
}

// TestProxyJSON asks in absolute form, as a client whose proxy the
// gateway is, for a listing as JSON.
func TestProxyJSON(t *testing.T) {
	addr, _ := gopherFake(t, "0About\t/about\t127.0.0.1\t70\r\n")
	base := gateway(t, Options{})
	c, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "GET gopher://%s/1/ HTTP/1.1\r\nHost: %s\r\nAccept: application/json\r\n\r\n", addr, addr)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	want := `{"entries":[{"name":"about","title":"About","kind":"file","size":null,"url":"gopher://127.0.0.1/0/about","extra":{"gopher_type":"0"}}]}` + "\n"
	if resp.StatusCode != 200 || string(b) != want {
		t.Errorf("%d\n got %s\nwant %s", resp.StatusCode, b, want)
	}
}

func TestDocumentRange(t *testing.T) {
	data := strings.Repeat("0123456789", 100)
	mod := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, "data.txt", mod, strings.NewReader(data))
	}))
	defer up.Close()
	base := gateway(t, Options{})
	addr := base + Address(up.URL+"/data.txt")
	for _, c := range []struct {
		rng, status, body, crange string
	}{
		{"", "200", data, ""},
		{"bytes=10-", "206", data[10:], "bytes 10-999/1000"},
		{"bytes=10-19", "206", data[10:20], "bytes 10-19/1000"},
		{"bytes=-5", "200", data, ""}, // a suffix: answered whole
		{"bytes=999-", "206", data[999:], "bytes 999-999/1000"},
	} {
		req := newRequest(t, "GET", addr)
		if c.rng != "" {
			req.Header.Set("Range", c.rng)
		}
		resp, body := get(t, req)
		if fmt.Sprint(resp.StatusCode) != c.status || body != c.body || resp.Header.Get("Content-Range") != c.crange {
			t.Errorf("Range %q: %d %q %q", c.rng, resp.StatusCode, resp.Header.Get("Content-Range"), body)
		}
		if resp.Header.Get("Last-Modified") != mod.Format(http.TimeFormat) || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
			t.Errorf("headers: %v", resp.Header)
		}
		if resp.Header.Get("Content-Security-Policy") != "sandbox" || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("no sandbox: %v", resp.Header)
		}
	}
	req := newRequest(t, "GET", addr)
	req.Header.Set("Range", "bytes=1000-")
	if resp, _ := get(t, req); resp.StatusCode != http.StatusRequestedRangeNotSatisfiable || resp.Header.Get("Content-Range") != "bytes */1000" {
		t.Errorf("Range past the end: %d %q", resp.StatusCode, resp.Header.Get("Content-Range"))
	}
	resp, body := get(t, newRequest(t, "HEAD", addr))
	if resp.StatusCode != 200 || resp.ContentLength != 1000 || body != "" {
		t.Errorf("HEAD: %d %d %q", resp.StatusCode, resp.ContentLength, body)
	}
}

// TestClientGoneStopsUpstream: a client that goes away mid-transfer ends
// the upstream transfer.
func TestClientGoneStopsUpstream(t *testing.T) {
	stopped := make(chan struct{})
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(strings.Repeat("x", 1000)))
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
			close(stopped)
		case <-time.After(20 * time.Second):
		}
	}))
	defer up.Close()
	base := gateway(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	req := newRequest(t, "GET", base+Address(up.URL+"/slow"))
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	io.ReadFull(resp.Body, make([]byte, 100))
	cancel()
	resp.Body.Close()
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("the upstream transfer went on after the client went away")
	}
}

// TestMaxUpstream: retrievals past the cap wait for a slot. The second
// is known to wait when its goroutine is parked in slots.take (not after
// some time: a broken cap would let it through late as well as early).
func TestMaxUpstream(t *testing.T) {
	release := make(chan struct{})
	var running atomic.Int32
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		running.Add(1)
		<-release
	}))
	t.Cleanup(up.Close)
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	t.Cleanup(free) // before up.Close, when the test fails on the way
	s, addr := served(t, Options{MaxUpstream: 1})
	base := "http://" + addr
	done := make(chan int, 2)
	for _, p := range []string{"/a", "/b"} {
		go func() {
			resp, err := http.Get(base + Address(up.URL+p))
			if err != nil {
				done <- 0
				return
			}
			resp.Body.Close()
			done <- resp.StatusCode
		}()
	}
	await.Until(t, "both requests in the gateway", func() bool { return s.slots.users(strings.TrimPrefix(up.URL, "http://")) == 2 })
	await.Until(t, "one request upstream", func() bool { return running.Load() >= 1 })
	await.Parked(t, "gateway.(*slots).take(")
	if n := running.Load(); n != 1 {
		t.Errorf("%d upstream requests at once, want 1", n)
	}
	free()
	for range 2 {
		if code := <-done; code != 200 {
			t.Errorf("status %d", code)
		}
	}
	if n := running.Load(); n != 2 {
		t.Errorf("%d upstream requests in all, want 2", n)
	}
}

// TestTimeout: a server that never answers is given up after the
// request's time bound (504), and a URL with a password that fails to
// parse is shown without it.
func TestTimeout(t *testing.T) {
	gone := make(chan struct{})
	defer close(gone)
	silent, _ := fake(t, func(net.Conn) { <-gone }) // held open, silent
	base := gateway(t, Options{Timeout: 300 * time.Millisecond})
	start := time.Now()
	resp, _ := get(t, newRequest(t, "GET", base+"/gopher/"+silent+"/0/x"))
	if resp.StatusCode != http.StatusGatewayTimeout || time.Since(start) > 5*time.Second {
		t.Errorf("%d after %v, want 504 after 300ms", resp.StatusCode, time.Since(start))
	}
	resp, body := get(t, newRequest(t, "GET", base+"/ftp/u:secret@127.0.0.1:99999/"))
	if resp.StatusCode != http.StatusBadRequest || strings.Contains(body, "secret") {
		t.Errorf("%d %s", resp.StatusCode, body)
	}
}

// TestRefusedRedirectIsALink: a gopher "h URL:" item that points to
// another gopher server is a redirect the Client's policy refuses (403,
// nothing dialed there); the page offers its gateway address as a link,
// which a person follows by hand — and then it is served.
func TestRefusedRedirectIsALink(t *testing.T) {
	to, toConns := gopherFake(t, "iThe other server\t\terror.host\t1\r\n")
	addr, _ := fake(t, func(c net.Conn) { bufio.NewReader(c).ReadString('\n') })
	base := gateway(t, Options{})
	target := "gopher://" + to + "/1/there"
	resp, body := get(t, newRequest(t, "GET", base+"/gopher/"+addr+"/hURL:"+target))
	want := `<a id="refused" href="/gopher/` + to + `/1/there">` + target + `</a>`
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(body, want) || toConns.Load() != 0 {
		t.Fatalf("%d, %d connections to the target:\n%s", resp.StatusCode, toConns.Load(), body)
	}
	resp, body = get(t, newRequest(t, "GET", base+"/gopher/"+to+"/1/there"))
	if resp.StatusCode != 200 || !strings.Contains(body, "The other server") {
		t.Errorf("followed by hand: %d %s", resp.StatusCode, body)
	}
}
