package transport

import (
	"context"
	"errors"
	"net"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

// udpServer listens on 127.0.0.1 for datagrams; with echo set it sends each
// one back to its sender, otherwise it never answers. It closes at the
// test's end.
func udpServer(t *testing.T, echo bool) int {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 64<<10)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			if echo {
				pc.WriteTo(buf[:n], from)
			}
		}
	}()
	t.Cleanup(func() { pc.Close(); <-done })
	return pc.LocalAddr().(*net.UDPAddr).Port
}

// refusingResolver is a resolver that counts its uses and fails them: a
// dial that must not get as far as resolving a name proves it did not.
func refusingResolver(used *atomic.Int32) *net.Resolver {
	return &net.Resolver{PreferGo: true, Dial: func(context.Context, string, string) (net.Conn, error) {
		used.Add(1)
		return nil, errors.New("no DNS in tests")
	}}
}

func TestDialDatagramPortPolicy(t *testing.T) {
	var resolved atomic.Int32
	asked := false
	d := &Dialer{Resolver: refusingResolver(&resolved), Proxy: func(string, string, int) (*url.URL, error) {
		asked = true
		return nil, nil
	}}
	canceled, cancel := context.WithCancel(t.Context())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		port int
		kind schemes.Kind
	}{
		{"smtp port", t.Context(), 25, schemes.KindSafety},
		{"nntp port", t.Context(), 119, schemes.KindSafety},
		{"policy before a canceled context", canceled, 25, schemes.KindSafety},
		{"out of range", t.Context(), 70000, schemes.KindUsage},
		{"negative", t.Context(), -1, schemes.KindUsage},
	}
	for _, tt := range tests {
		_, err := d.DialDatagram(tt.ctx, "prospero", "udp.example.invalid", tt.port)
		se := wantKind(t, err, tt.kind)
		if se.Part != "port" || se.Scheme != "prospero" {
			t.Errorf("%s: error %+v: want part port, scheme prospero", tt.name, se)
		}
	}
	if n := resolved.Load(); n != 0 {
		t.Errorf("the resolver was used %d times for refused ports", n)
	}
	if asked {
		t.Error("the proxy was chosen for a refused port")
	}
	// An allowed exception gets past the policy (and fails to resolve).
	d.AllowPorts = []int{25}
	_, err := d.DialDatagram(t.Context(), "prospero", "udp.example.invalid", 25)
	if k := schemes.KindOf(err); k != schemes.KindConnect {
		t.Errorf("allowed port: kind %v (%v), want connect after the resolver failed", k, err)
	}
	if resolved.Load() == 0 {
		t.Error("an allowed port was not dialed")
	}
}

func TestDialDatagramProxy(t *testing.T) {
	var resolved atomic.Int32
	d := &Dialer{Resolver: refusingResolver(&resolved), Proxy: fixedProxy("socks5h://fred:s3cret@127.0.0.1:1080"),
		Ports: testPorts{"prospero": {1525}}}
	_, err := d.DialDatagram(t.Context(), "prospero", "archie.example.invalid", 0)
	se := wantKind(t, err, schemes.KindUnsupported)
	if se.Part != "proxy" || se.Phase != "dial" {
		t.Errorf("error %+v: want part proxy, phase dial", se)
	}
	msg := err.Error()
	if !strings.Contains(msg, "socks5h://fred:****@127.0.0.1:1080") || strings.Contains(msg, "s3cret") {
		t.Errorf("error %q should name the proxy with its password redacted", msg)
	}
	if !strings.Contains(msg, "archie.example.invalid:1525") {
		t.Errorf("error %q should name the address at the default port", msg)
	}
	if resolved.Load() != 0 {
		t.Error("a name was resolved although the proxy rules the dial out")
	}

	// A proxy setting that cannot be used is the user's to fix.
	d.Proxy = func(string, string, int) (*url.URL, error) { return nil, errors.New("bad value") }
	_, err = d.DialDatagram(t.Context(), "prospero", "archie.example.invalid", 0)
	wantKind(t, err, schemes.KindUsage)
}

// TestDialDatagramEcho: datagrams round-trip with their boundaries, through
// a Dialer whose proxy function sends this host direct.
func TestDialDatagramEcho(t *testing.T) {
	checkGoroutines(t)
	port := udpServer(t, true)
	d := &Dialer{ConnectTimeout: 5 * time.Second, IdleTimeout: 5 * time.Second,
		Proxy: func(string, string, int) (*url.URL, error) { return nil, nil }}
	c, err := d.DialDatagram(t.Context(), "prospero", "127.0.0.1", port)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	wc, ok := c.(*Conn)
	if !ok {
		t.Fatalf("DialDatagram returned a %T, want a *Conn", c)
	}
	if c.RemoteAddr().Network() != "udp" {
		t.Errorf("network %q, want udp", c.RemoteAddr().Network())
	}
	buf := make([]byte, 1024)
	total := 0
	for _, msg := range []string{"first datagram", "2nd", strings.Repeat("x", 900)} {
		if _, err := c.Write([]byte(msg)); err != nil {
			t.Fatal(err)
		}
		// One Read returns exactly one datagram.
		n, err := c.Read(buf)
		if err != nil || string(buf[:n]) != msg {
			t.Fatalf("read %q, %v; want %q", buf[:n], err, msg)
		}
		total += len(msg)
	}
	if wc.BytesRead() != int64(total) || wc.BytesWritten() != int64(total) {
		t.Errorf("counters read %d written %d, want %d", wc.BytesRead(), wc.BytesWritten(), total)
	}
}

func TestDialDatagramIdleTimeout(t *testing.T) {
	checkGoroutines(t)
	port := udpServer(t, false)
	d := &Dialer{IdleTimeout: 50 * time.Millisecond}
	c, err := d.DialDatagram(t.Context(), "prospero", "127.0.0.1", port)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte("anyone there?")); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = c.Read(make([]byte, 100))
	var ie *IdleTimeoutError
	if !errors.As(err, &ie) || !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read error %v, want an IdleTimeoutError", err)
	}
	if k := schemes.KindOf(schemes.IOError("prospero", "read", err)); k != schemes.KindTimeout {
		t.Errorf("IOError kind %v, want timeout", k)
	}
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("idle timeout took %v", el)
	}
}

// TestDialDatagramTimeouts: the socket carries the Dialer's timeouts for
// the exchange over it: IdleTimeout as a Conn's, and ConnectTimeout as
// FirstReplyTimeout, since opening a UDP socket waits for nothing.
func TestDialDatagramTimeouts(t *testing.T) {
	port := udpServer(t, false)
	d := &Dialer{ConnectTimeout: 3 * time.Second, IdleTimeout: 7 * time.Second}
	c, err := d.DialDatagram(t.Context(), "prospero", "127.0.0.1", port)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tc, ok := ConnOf(c)
	if !ok {
		t.Fatalf("%T is no Conn", c)
	}
	if tc.FirstReplyTimeout() != 3*time.Second || tc.IdleTimeout() != 7*time.Second {
		t.Errorf("first reply %v, idle %v; want 3s and 7s", tc.FirstReplyTimeout(), tc.IdleTimeout())
	}
}

func TestDialDatagramCancel(t *testing.T) {
	checkGoroutines(t)
	port := udpServer(t, false)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	d := &Dialer{}
	c, err := d.DialDatagram(ctx, "prospero", "127.0.0.1", port)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	cancelUnblocksRead(t, c, cancel, "prospero")

	// A context canceled before the dial fails it at once.
	_, err = d.DialDatagram(ctx, "prospero", "127.0.0.1", port)
	wantKind(t, err, schemes.KindCanceled)
}

// TestDialDatagramTraceScope: the dialer's notes go to the scope the
// context carries, as a handler sets it up (schemes.NewScope of the
// request's trace), not to Dialer.Trace.
func TestDialDatagramTraceScope(t *testing.T) {
	port := udpServer(t, true)
	var buf strings.Builder
	root := NewTrace(&buf)
	d := &Dialer{Trace: root}
	schemes.NewScope(root) // another connection's scope, so that ours is marked
	ctx := schemes.WithTrace(t.Context(), schemes.NewScope(root))
	c, err := d.DialDatagram(ctx, "prospero", "127.0.0.1", port)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	addr := "127.0.0.1:" + itoa(port)
	want := "[2] * Opening UDP to " + addr + "\n[2] * Connected to " + addr + " (udp)\n"
	if got := buf.String(); got != want {
		t.Errorf("trace:\n%s\nwant the notes in the context's scope:\n%s", got, want)
	}

	// Without a trace in the context, Dialer.Trace gets them.
	buf.Reset()
	c, err = d.DialDatagram(t.Context(), "prospero", "127.0.0.1", port)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if got := buf.String(); !strings.HasPrefix(got, "* Opening UDP to "+addr) {
		t.Errorf("Dialer.Trace:\n%s\nwant the UDP notes", got)
	}
}
