package gateway

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/internal/await"
)

// served starts s's own http.Server (HTTPServer) on 127.0.0.1 and
// returns its address; opt.Hosts is set to the listener's names.
func served(t *testing.T, opt Options) (*Server, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if opt.Client == nil {
		opt.Client = &fetch.Client{}
	}
	opt.Hosts = HostsFor(ln.Addr())
	s := New(opt)
	srv := s.HTTPServer()
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return s, ln.Addr().String()
}

// keepAlive sends a GET of path on c, a connection kept open, and returns
// the response's status, its body read; an error when no response came.
func keepAlive(c net.Conn, r *bufio.Reader, addr, path string) (int, error) {
	if _, err := fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", path, addr); err != nil {
		return 0, err
	}
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return 0, err
	}
	if resp.Close {
		return 0, fmt.Errorf("the server closes the connection after its response (%v)", resp.Header)
	}
	return resp.StatusCode, nil
}

// TestIdleTimeout: a keep-alive connection on which no next request
// comes is closed by the gateway once IdleTimeout has passed, not before
// and not much later.
func TestIdleTimeout(t *testing.T) {
	const idle = 300 * time.Millisecond
	_, addr := served(t, Options{IdleTimeout: idle})
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r := bufio.NewReader(c)
	if st, err := keepAlive(c, r, addr, "/"); st != http.StatusOK {
		t.Fatalf("start page: %d, %v", st, err)
	}
	answered := time.Now()
	c.SetReadDeadline(time.Now().Add(idle + 5*time.Second)) // the test's own bound
	n, err := r.Read(make([]byte, 1))
	took := time.Since(answered)
	if n != 0 || err != io.EOF {
		t.Fatalf("read on the idle connection: %d bytes, %v after %v; want EOF (closed by the gateway)", n, err, took)
	}
	if took < idle-50*time.Millisecond || took > idle+2*time.Second {
		t.Errorf("closed %v after the response, want about %v", took, idle)
	}
}

// TestHTTPServerDefaults: the http.Server of HTTPServer carries the
// documented bounds.
func TestHTTPServerDefaults(t *testing.T) {
	srv := New(Options{}).HTTPServer()
	if srv.IdleTimeout != DefaultIdleTimeout || srv.ReadHeaderTimeout != DefaultReadHeaderTimeout || srv.ConnState == nil || srv.Handler == nil {
		t.Errorf("HTTPServer: idle %v, header %v, ConnState set %v", srv.IdleTimeout, srv.ReadHeaderTimeout, srv.ConnState != nil)
	}
	if srv := New(Options{IdleTimeout: time.Minute}).HTTPServer(); srv.IdleTimeout != time.Minute {
		t.Errorf("IdleTimeout %v, want 1m", srv.IdleTimeout)
	}
}

// TestSlowDestinationDoesNotStarve: a server that never answers holds its
// share of MaxUpstream (a quarter: 1 of 4) and no more, however many
// requests wait for it, and a request for another server is served
// meanwhile.
func TestSlowDestinationDoesNotStarve(t *testing.T) {
	slow, slowConns, arrived, hold := heldGopher(t, 16)
	fast, _ := gopherFake(t, "iFast\t\terror.host\t1\r\n")
	s, addr := served(t, Options{MaxUpstream: 4, Timeout: time.Minute})
	const waiting = 6
	done := make(chan int, waiting)
	for i := range waiting {
		go func() {
			resp, err := http.Get(fmt.Sprintf("http://%s/gopher/%s/1/%d", addr, slow, i))
			if err != nil {
				done <- 0
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			done <- resp.StatusCode
		}()
	}
	select {
	case <-arrived:
	case <-time.After(10 * time.Second):
		t.Fatal("no request reached the slow server")
	}
	// Every slow request is in the gateway, holding the share or waiting
	// for it (polled: the gateway's own count, no event to wait on).
	await.Until(t, fmt.Sprintf("all %d slow requests in the gateway", waiting), func() bool { return s.slots.users(slow) >= waiting })
	start := time.Now()
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Get("http://" + addr + "/gopher/" + fast + "/1/")
	if err != nil {
		t.Fatalf("another server, while %d requests wait for a slow one: %v", waiting, err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "Fast") {
		t.Errorf("another server: %d %s", resp.StatusCode, body)
	}
	t.Logf("another server answered in %v while %d requests waited for a silent one", time.Since(start), waiting)
	if n := slowConns.Load(); n != 1 {
		t.Errorf("the slow server has %d connections, want its share, 1", n)
	}
	close(hold)
	for range waiting {
		if st := <-done; st != http.StatusOK {
			t.Errorf("a slow request: %d", st)
		}
	}
	if n := s.slots.users(slow); n != 0 {
		t.Errorf("%d requests still counted for the slow server", n)
	}
}

// TestSlotShares: the share of each destination and the total, as
// Options give them.
func TestSlotShares(t *testing.T) {
	for _, c := range []struct{ n, per, wantTotal, wantPer int }{
		{0, 0, DefaultMaxUpstream, DefaultMaxUpstream / 4},
		{1, 0, 1, 1},
		{4, 0, 4, 1},
		{7, 0, 7, 1},
		{32, 3, 32, 3},
		{4, 9, 4, 4},
	} {
		l := newSlots(c.n, c.per)
		if cap(l.total) != c.wantTotal || l.per != c.wantPer {
			t.Errorf("newSlots(%d, %d): total %d, per %d; want %d, %d", c.n, c.per, cap(l.total), l.per, c.wantTotal, c.wantPer)
		}
	}
}

// TestMaxConnsPerClient: a client address holds at most
// MaxConnsPerClient connections; one more is closed without an answer,
// and once one of its connections is gone it may open another.
func TestMaxConnsPerClient(t *testing.T) {
	_, addr := served(t, Options{MaxConnsPerClient: 2})
	open := func() (net.Conn, *bufio.Reader) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		c.SetDeadline(time.Now().Add(10 * time.Second))
		return c, bufio.NewReader(c)
	}
	c1, r1 := open()
	c2, r2 := open()
	for i, c := range []struct {
		c net.Conn
		r *bufio.Reader
	}{{c1, r1}, {c2, r2}} {
		if st, err := keepAlive(c.c, c.r, addr, "/"); st != http.StatusOK {
			t.Fatalf("connection %d: %d, %v", i+1, st, err)
		}
	}
	c3, r3 := open()
	if st, err := keepAlive(c3, r3, addr, "/"); err == nil {
		t.Fatalf("a third connection was answered (%d), want it closed", st)
	}
	if st, err := keepAlive(c2, r2, addr, "/"); st != http.StatusOK {
		t.Errorf("the second connection after the third was closed: %d, %v", st, err)
	}
	c1.Close()
	// The gateway sees the close when its read fails: until then a new
	// connection may still be over the bound, so it is tried again.
	await.Until(t, "a new connection answered after the first was closed", func() bool {
		c4, r4 := open()
		st, _ := keepAlive(c4, r4, addr, "/")
		c4.Close()
		return st == http.StatusOK
	})
}

// users is how many requests hold or wait for dest's share.
func (l *slots) users(dest string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	if d := l.dests[dest]; d != nil {
		return d.users
	}
	return 0
}
