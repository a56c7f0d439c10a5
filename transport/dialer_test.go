package transport

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

func wantKind(t *testing.T, err error, kind schemes.Kind) *schemes.Error {
	t.Helper()
	var se *schemes.Error
	if !errors.As(err, &se) {
		t.Fatalf("error %v (%T), want *schemes.Error of kind %v", err, err, kind)
	}
	if se.Kind != kind {
		t.Fatalf("error %q has kind %v, want %v", err, se.Kind, kind)
	}
	return se
}

func TestDialEcho(t *testing.T) {
	checkGoroutines(t)
	srv := newServer(t, echo)
	var buf strings.Builder
	d := &Dialer{ConnectTimeout: 5 * time.Second, IdleTimeout: 5 * time.Second, Trace: NewTrace(&buf)}
	c, err := d.Dial(t.Context(), "gopher", "127.0.0.1", srv.port())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, "hello\r\n"); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil || line != "hello\r\n" {
		t.Fatalf("read %q, %v", line, err)
	}
	wc := c.(*Conn)
	if wc.BytesRead() != 7 || wc.BytesWritten() != 7 {
		t.Errorf("counters read %d written %d, want 7 and 7", wc.BytesRead(), wc.BytesWritten())
	}
	if !strings.Contains(buf.String(), "* Connected to 127.0.0.1:") {
		t.Errorf("trace %q lacks the connection note", buf.String())
	}
}

func TestDialClosedPort(t *testing.T) {
	d := &Dialer{ConnectTimeout: 5 * time.Second}
	_, err := d.Dial(t.Context(), "gopher", "127.0.0.1", closedPort(t))
	se := wantKind(t, err, schemes.KindConnect)
	if !se.Retryable || se.Phase != "dial" || !strings.Contains(se.Msg, "cannot connect to 127.0.0.1:") {
		t.Errorf("error %+v: want retryable dial error naming the address", se)
	}
}

func TestDialCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	d := &Dialer{}
	_, err := d.Dial(ctx, "gopher", "127.0.0.1", closedPort(t))
	wantKind(t, err, schemes.KindCanceled)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("%v does not match context.Canceled", err)
	}
	// The port policy is checked before anything else, even the context.
	_, err = d.Dial(ctx, "gopher", "127.0.0.1", 25)
	wantKind(t, err, schemes.KindSafety)
}

func TestDialPortPolicy(t *testing.T) {
	d := &Dialer{}
	_, err := d.Dial(t.Context(), "http", "127.0.0.1", 119)
	se := wantKind(t, err, schemes.KindSafety)
	if se.Part != "port" {
		t.Errorf("part %q, want port", se.Part)
	}
	// An allowed exception goes on to dial (and fails to connect: nothing
	// is expected to listen on 127.0.0.1:119 in a test environment, but if
	// something does the dial succeeds; either way the policy let it by).
	d.AllowPorts = []int{119}
	c, err := d.Dial(t.Context(), "http", "127.0.0.1", 119)
	if err == nil {
		c.Close()
	} else if schemes.KindOf(err) == schemes.KindSafety {
		t.Errorf("allowed port refused: %v", err)
	}
}

func TestDialDNSFailure(t *testing.T) {
	// A resolver whose DNS server cannot be reached: no query leaves the
	// machine.
	r := &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, address string) (net.Conn, error) {
		return nil, errors.New("no DNS in tests")
	}}
	d := &Dialer{Resolver: r}
	_, err := d.Dial(t.Context(), "gopher", "no-such-host.invalid", 70)
	se := wantKind(t, err, schemes.KindConnect)
	if !strings.Contains(se.Msg, `cannot resolve host "no-such-host.invalid"`) {
		t.Errorf("message %q", se.Msg)
	}
}

func TestDialConnectTimeout(t *testing.T) {
	// A proxy that accepts and never answers the CONNECT: the connect
	// timeout covers the proxy handshake.
	proxy := newServer(t, silent)
	d := &Dialer{ConnectTimeout: 50 * time.Millisecond, Proxy: fixedProxy("http://" + proxy.addr())}
	start := time.Now()
	_, err := d.Dial(t.Context(), "gopher", "127.0.0.1", 70)
	se := wantKind(t, err, schemes.KindTimeout)
	if !se.Retryable || !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("error %+v: want retryable, matching os.ErrDeadlineExceeded", se)
	}
	if el := time.Since(start); el > 3*time.Second {
		t.Errorf("took %v", el)
	}
}

// TestDialTimeoutsRetryable: the Dialer's own connect timeout is worth a
// retry; the caller's deadline and cancel end the request
// (schemes.ContextKind), whatever the dial was doing when they came.
func TestDialTimeoutsRetryable(t *testing.T) {
	proxy := newServer(t, silent) // accepts, never answers the CONNECT
	tests := []struct {
		name      string
		connect   time.Duration // the Dialer's ConnectTimeout
		ctx       func() (context.Context, context.CancelFunc)
		kind      schemes.Kind
		retryable bool
	}{
		{"connect timeout", 50 * time.Millisecond, func() (context.Context, context.CancelFunc) {
			return context.WithCancel(t.Context())
		}, schemes.KindTimeout, true},
		{"caller's deadline", 5 * time.Second, func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(t.Context(), 50*time.Millisecond)
		}, schemes.KindTimeout, false},
		{"caller's cancel", 5 * time.Second, func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(t.Context())
			time.AfterFunc(50*time.Millisecond, cancel)
			return ctx, cancel
		}, schemes.KindCanceled, false},
	}
	for _, tt := range tests {
		ctx, cancel := tt.ctx()
		d := &Dialer{ConnectTimeout: tt.connect, Proxy: fixedProxy("http://" + proxy.addr())}
		_, err := d.Dial(ctx, "gopher", "127.0.0.1", 70)
		cancel()
		var se *schemes.Error
		if !errors.As(err, &se) || se.Kind != tt.kind || se.Retryable != tt.retryable {
			t.Errorf("%s: %v (%+v), want %v retryable %v", tt.name, err, se, tt.kind, tt.retryable)
			continue
		}
		if se.Retryable != schemes.IsRetryable(schemes.IOError("gopher", "read", err)) {
			t.Errorf("%s: IOError changed the verdict", tt.name)
		}
		if tt.name == "caller's deadline" && strings.Contains(se.Msg, "after 5s") {
			t.Errorf("%s: message %q blames the connect timeout", tt.name, se.Msg)
		}
	}
}

func TestIdleTimeout(t *testing.T) {
	checkGoroutines(t)
	srv := newServer(t, silent)
	d := &Dialer{IdleTimeout: 50 * time.Millisecond}
	c, err := d.Dial(t.Context(), "gopher", "127.0.0.1", srv.port())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	start := time.Now()
	_, err = c.Read(make([]byte, 10))
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read error %v, want os.ErrDeadlineExceeded", err)
	}
	var ie *IdleTimeoutError
	if !errors.As(err, &ie) || err.Error() != "no progress for 50ms" {
		t.Errorf("error %q: want an IdleTimeoutError saying \"no progress for 50ms\", no more (not Go's \"read tcp A->B: i/o timeout\")", err)
	}
	if k := schemes.KindOf(schemes.IOError("gopher", "read", err)); k != schemes.KindTimeout {
		t.Errorf("IOError kind %v, want timeout", k)
	}
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("idle timeout took %v", el)
	}
}

// TestIdleTimeoutSlowTransfer: a peer that sends a byte now and then, each
// within the idle timeout, keeps the transfer going for longer than the
// idle timeout in total.
func TestIdleTimeoutSlowTransfer(t *testing.T) {
	const idle, gap, n = 400 * time.Millisecond, 40 * time.Millisecond, 15
	srv := newServer(t, func(c net.Conn) {
		for range n {
			if _, err := c.Write([]byte{'x'}); err != nil {
				return
			}
			time.Sleep(gap) // the behaviour under test: a slow sender
		}
	})
	d := &Dialer{IdleTimeout: idle}
	c, err := d.Dial(t.Context(), "gopher", "127.0.0.1", srv.port())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	start := time.Now()
	b, err := io.ReadAll(c)
	if err != nil || len(b) != n {
		t.Fatalf("read %d bytes, %v; want %d", len(b), err, n)
	}
	if el := time.Since(start); el < idle {
		t.Logf("transfer took %v, under the idle timeout; test proved little", el)
	}
}

func TestCancelMidRead(t *testing.T) {
	checkGoroutines(t)
	srv := newServer(t, silent)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	d := &Dialer{}
	c, err := d.Dial(ctx, "gopher", "127.0.0.1", srv.port())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	cancelUnblocksRead(t, c, cancel, "gopher")
	// The cancellation is sticky.
	if _, err := c.Write([]byte("x")); !errors.Is(err, context.Canceled) {
		t.Errorf("write after cancel: %v", err)
	}
	if c.(*Conn).Err() == nil {
		t.Error("Err() is nil after cancel")
	}
}

// TestRebind: a connection reused for a second request follows the second
// request's context, and the first's cancellation no longer matters.
func TestRebind(t *testing.T) {
	checkGoroutines(t)
	srv := newServer(t, echo)
	ctx1, cancel1 := context.WithCancel(t.Context())
	d := &Dialer{IdleTimeout: 5 * time.Second}
	nc, err := d.Dial(ctx1, "ftp", "127.0.0.1", srv.port())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	c, ok := ConnOf(nc)
	if !ok {
		t.Fatal("ConnOf failed")
	}
	c.Stop()
	cancel1()

	ctx2, cancel2 := context.WithCancel(t.Context())
	release := c.Bind(ctx2)
	if _, err := c.Write([]byte("ping")); err != nil {
		t.Fatalf("write on rebound conn: %v", err)
	}
	if _, err := io.ReadFull(c, make([]byte, 4)); err != nil {
		t.Fatalf("read on rebound conn: %v", err)
	}
	release()
	cancel2() // released: no effect

	ctx3, cancel3 := context.WithCancel(t.Context())
	defer cancel3()
	c.Bind(ctx3)
	if _, err := c.Write([]byte("pong")); err != nil {
		t.Fatalf("write after released cancel: %v", err)
	}
	if _, err := io.ReadFull(c, make([]byte, 4)); err != nil {
		t.Fatalf("read after released cancel: %v", err)
	}
	errc := make(chan error, 1)
	go func() {
		_, err := c.Read(make([]byte, 1))
		errc <- err
	}()
	cancel3()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("read error %v, want context.Canceled", err)
	}

	// Binding a context that is already done fails the conn at once.
	c2, err := d.Dial(t.Context(), "ftp", "127.0.0.1", srv.port())
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	done, cancel4 := context.WithCancel(t.Context())
	cancel4()
	c2.(*Conn).Bind(done)
	if _, err := c2.Read(make([]byte, 1)); !errors.Is(err, context.Canceled) {
		t.Fatalf("read on conn bound to a done ctx: %v", err)
	}
}

func TestCallerDeadlineHonoured(t *testing.T) {
	srv := newServer(t, silent)
	d := &Dialer{IdleTimeout: time.Hour}
	c, err := d.Dial(t.Context(), "gopher", "127.0.0.1", srv.port())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(30 * time.Millisecond))
	_, err = c.Read(make([]byte, 1))
	var ie *IdleTimeoutError
	if !errors.Is(err, os.ErrDeadlineExceeded) || errors.As(err, &ie) {
		t.Fatalf("read error %v: want the caller's deadline, not the idle one", err)
	}
}

func TestWrapCountsAndLargeWrite(t *testing.T) {
	srv := newServer(t, func(c net.Conn) { io.Copy(io.Discard, c) })
	raw, err := net.Dial("tcp", srv.addr())
	if err != nil {
		t.Fatal(err)
	}
	c := Wrap(nil, raw, time.Second)
	defer c.Close()
	big := make([]byte, 3*maxWriteChunk+17)
	n, err := c.Write(big)
	if err != nil || n != len(big) || c.BytesWritten() != int64(len(big)) {
		t.Fatalf("wrote %d (counted %d), %v; want %d", n, c.BytesWritten(), err, len(big))
	}
	if Wrap(nil, c, 0) != c {
		t.Error("Wrap re-wrapped a *Conn")
	}
}

// TestDialTraceFromContext: the notes of a dial, through a proxy too, go
// to the Trace the context carries (the scope of the connection being
// opened), not to Dialer.Trace, which gets them only when the context
// carries none.
func TestDialTraceFromContext(t *testing.T) {
	target := newServer(t, greeter)
	p := &connectProxy{target: target.addr(), greets: true}
	ps := newServer(t, p.handle)
	var viaProxy bool
	var dialerBuf strings.Builder
	d := &Dialer{ConnectTimeout: 5 * time.Second, Trace: NewTrace(&dialerBuf),
		Proxy: func(string, string, int) (*url.URL, error) {
			if viaProxy {
				return ParseProxy("http://fred:s3cret@" + ps.addr())
			}
			return nil, nil
		}}
	tests := []struct {
		proxy bool
		notes []string
	}{
		{false, []string{"* Connecting to " + target.addr(), "* Connected to " + target.addr()}},
		{true, []string{"* Using proxy http://fred:****@" + ps.addr(), "* Connecting to proxy " + ps.addr(),
			"> CONNECT " + target.addr(), "> Proxy-Authorization: Basic ****", "< HTTP/1.1 200",
			"* CONNECT tunnel to " + target.addr()}},
	}
	for _, tt := range tests {
		viaProxy = tt.proxy
		var scopeBuf strings.Builder
		ctx := schemes.WithTrace(t.Context(), NewTrace(&scopeBuf))
		c, err := d.Dial(ctx, "ftp", "127.0.0.1", target.port())
		if err != nil {
			t.Fatal(err)
		}
		c.Close()
		got := scopeBuf.String()
		for _, n := range tt.notes {
			if !strings.Contains(got, n) {
				t.Errorf("proxy %v: context's trace lacks %q:\n%s", tt.proxy, n, got)
			}
		}
		if strings.Contains(got, "s3cret") {
			t.Errorf("context's trace leaks the proxy password:\n%s", got)
		}
		if s := dialerBuf.String(); s != "" {
			t.Errorf("proxy %v: Dialer.Trace got notes meant for the context's trace:\n%s", tt.proxy, s)
		}
	}

	viaProxy = false
	c, err := d.Dial(t.Context(), "ftp", "127.0.0.1", target.port())
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if !strings.Contains(dialerBuf.String(), "* Connected to "+target.addr()) {
		t.Errorf("Dialer.Trace lacks the notes of a dial whose context carries no trace:\n%s", dialerBuf.String())
	}
}
