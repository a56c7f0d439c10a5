//go:build integration

package integration

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/integration/waisd"
	"github.com/urlget/urlget/integration/wan"
	"github.com/urlget/urlget/transport"
)

// The WAN harness (package integration/wan) proves its figures: through
// its proxies one exchange of each server takes the configured round trip
// more than on loopback, and one connection gets the configured bandwidth
// (two at once get it each). It runs on 127.0.0.3, so that a bench's WAN
// on wan.DefaultHost can be up meanwhile.
const (
	wanTestHost = "127.0.0.3"
	// wanJitterHost is the second WAN's, the one with jitter.
	wanJitterHost = "127.0.0.4"
	wanTestRTT    = 40 * time.Millisecond
	// wanTestRate is low enough that two busy cores carry it with room
	// to spare, so the figure is toxiproxy's pacing, not the CPU.
	wanTestRate = 4 << 20
	// wanRTTSlack is how much above RTT + the loopback exchange the
	// fastest exchange may be: timers fire late on a loaded machine.
	// Below RTT it may not be at all (the toxic never delivers early),
	// bar 1 ms of clock granularity. The fastest of the samples is the
	// figure because a busy machine only ever adds time (medians of 5
	// reached 117 ms for a 40 ms WAN at a load average of 15 on two
	// cores; the fastest stayed at 40.7 ms).
	wanRTTSlack = 10 * time.Millisecond
	// wanRateTolerance is the relative error allowed on the bandwidth.
	wanRateTolerance = 0.10
	// wanSamples exchanges are timed on each path; the fastest counts.
	wanSamples = 7
	// wanTransfer is how much of the 64 MiB fixture each bandwidth
	// measurement reads: 1.5 s at wanTestRate.
	wanTransfer = 6 << 20
)

// wanExchange is one request and its reply in a server's protocol.
type wanExchange struct {
	name    string
	service string // compose service, for testbed.Require
	port    int
	// hello reads what the server says first on a new connection and
	// does what must come before req (nil: nothing).
	hello func(io.Writer, *bufio.Reader) error
	req   string
	reply func(*bufio.Reader) error
	// samples is how many exchanges are timed (default wanSamples).
	samples int
	// oneShot servers close after one reply: each sample has its own
	// connection, timed from the request, as the others are.
	oneShot bool
}

// readLine reads one reply line and wants it to start with code.
func readLine(code string) func(*bufio.Reader) error {
	return func(br *bufio.Reader) error {
		line, err := br.ReadString('\n')
		if err != nil {
			return err
		}
		if !strings.HasPrefix(line, code) {
			return fmt.Errorf("reply %q, want %s", line, code)
		}
		return nil
	}
}

// ftpLogin reads vsftpd's greeting and logs in anonymously (a NOOP
// before that is answered 530).
func ftpLogin(c io.Writer, br *bufio.Reader) error {
	if err := readLine("220 ")(br); err != nil {
		return err
	}
	// The test bed's vsftpd asks no anonymous password (no_anon_password).
	if _, err := io.WriteString(c, "USER anonymous\r\n"); err != nil {
		return err
	}
	return readLine("230 ")(br)
}

// greeting reads the server's first line, which starts with code.
func greeting(code string) func(io.Writer, *bufio.Reader) error {
	return func(_ io.Writer, br *bufio.Reader) error { return readLine(code)(br) }
}

// readHTTPHead reads a response head, status line to blank line.
func readHTTPHead(br *bufio.Reader) error {
	if err := readLine("HTTP/1.1 200")(br); err != nil {
		return err
	}
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return err
		}
		if line == "\r\n" {
			return nil
		}
	}
}

// readWAISReply reads the 25-byte header and the APDU it announces.
func readWAISReply(br *bufio.Reader) error {
	hdr := make([]byte, 25)
	if _, err := io.ReadFull(br, hdr); err != nil {
		return err
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(hdr[:10])))
	if err != nil || n <= 0 {
		return fmt.Errorf("WAIS header %q", hdr)
	}
	_, err = io.CopyN(io.Discard, br, int64(n))
	return err
}

// readFirstByte waits for the reply to start.
func readFirstByte(br *bufio.Reader) error {
	_, err := br.ReadByte()
	return err
}

func wanExchanges() []wanExchange {
	return []wanExchange{
		{name: "http", service: testbed.Nginx, port: testbed.HTTPPort,
			req: "HEAD /README.txt HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", reply: readHTTPHead},
		{name: "ftp", service: testbed.Vsftpd, port: testbed.VsftpdPort, hello: ftpLogin, req: "NOOP\r\n", reply: readLine("200 ")},
		{name: "nntp", service: testbed.INN, port: testbed.NNTPPort, hello: greeting("200 "), req: "DATE\r\n", reply: readLine("111 ")},
		{name: "wais", service: testbed.WAIS, port: testbed.WAISPort, req: waisd.ProbeSearch, reply: readWAISReply},
		{name: "gopher", service: testbed.Gophernicus, port: testbed.GophernicusPort, req: "/text/lf.txt\r\n", reply: readFirstByte, oneShot: true},
	}
}

// times returns x.samples durations of x against host, each from the
// request written to the reply read.
func (x wanExchange) times(ctx context.Context, host string) ([]time.Duration, error) {
	addr := net.JoinHostPort(host, strconv.Itoa(x.port))
	var c net.Conn
	var br *bufio.Reader
	open := func() error {
		var err error
		if c, err = (&net.Dialer{}).DialContext(ctx, "tcp", addr); err != nil {
			return err
		}
		if dl, ok := ctx.Deadline(); ok {
			c.SetDeadline(dl)
		}
		br = bufio.NewReader(c)
		if x.hello != nil {
			if err := x.hello(c, br); err != nil {
				return err
			}
		}
		if x.oneShot {
			return nil
		}
		// One exchange untimed: on a kept connection only the round trip
		// counts, not the handshake before the connection's first bytes.
		if _, err := io.WriteString(c, x.req); err != nil {
			return err
		}
		return x.reply(br)
	}
	defer func() {
		if c != nil {
			c.Close()
		}
	}()
	n := x.samples
	if n == 0 {
		n = wanSamples
	}
	var ds []time.Duration
	for i := 0; i < n; i++ {
		if c == nil || x.oneShot {
			if c != nil {
				c.Close()
			}
			if err := open(); err != nil {
				return nil, err
			}
		}
		start := time.Now()
		if _, err := io.WriteString(c, x.req); err != nil {
			return nil, err
		}
		if err := x.reply(br); err != nil {
			return nil, err
		}
		ds = append(ds, time.Since(start))
	}
	return ds, nil
}

// wanUp sets a WAN up on host and takes it down when the test ends.
func wanUp(t *testing.T, ctx context.Context, host string, spec wan.Spec, routes []wan.Route) *wan.WAN {
	t.Helper()
	testbed.Require(t, testbed.Toxiproxy)
	start := time.Now()
	// URLGET_TOXIPROXY_API points the test at another toxiproxyd, such as
	// one built from this tree while the stack's predates the handshake
	// toxic.
	w, err := wan.Setup(ctx, wan.Config{API: os.Getenv("URLGET_TOXIPROXY_API"), Host: host}, spec, routes)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("WAN %s up on %s in %v (handshake imitated: %v)", spec, host, time.Since(start).Round(time.Millisecond), w.Handshake)
	t.Cleanup(func() {
		if err := w.Close(context.Background()); err != nil {
			t.Error(err)
		}
	})
	return w
}

func TestWAN(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	spec := wan.Spec{RTT: wanTestRTT, Rate: wanTestRate}
	w := wanUp(t, ctx, wanTestHost, spec, wan.TestbedRoutes())

	t.Run("round trip", func(t *testing.T) {
		for _, x := range wanExchanges() {
			t.Run(x.name, func(t *testing.T) {
				testbed.Require(t, x.service)
				direct, err := x.times(ctx, testbed.Host)
				if err != nil {
					t.Fatalf("loopback: %v", err)
				}
				over, err := x.times(ctx, wanTestHost)
				if err != nil {
					t.Fatalf("over the WAN: %v", err)
				}
				d, o := slices.Min(direct), slices.Min(over)
				t.Logf("%s: one exchange over the WAN %v (fastest of %v), on loopback %v; configured RTT %v",
					x.name, o.Round(10*time.Microsecond), roundAll(over), d.Round(10*time.Microsecond), spec.RTT)
				// On a new connection the handshake's round trip comes
				// first (the request waits for it).
				want := spec.RTT
				if x.oneShot && w.Handshake {
					want = 2 * spec.RTT
				}
				if lo, hi := want-time.Millisecond, want+d+wanRTTSlack; o < lo || o > hi {
					t.Errorf("%s: exchange over the WAN took %v, want %v to %v", x.name, o, lo, hi)
				}
			})
		}
	})

	t.Run("greeting", func(t *testing.T) {
		// The TCP handshake: over a real link a greeting arrives 2×RTT
		// after the connect starts (SYN, SYN-ACK, ACK, then the server's
		// first bytes), as the handshake toxic makes it; a toxiproxy
		// without it delivers the greeting RTT/2 after the connect.
		var ds []time.Duration
		for i := 0; i < wanSamples; i++ {
			start := time.Now()
			c, err := (&net.Dialer{}).DialContext(ctx, "tcp", net.JoinHostPort(wanTestHost, strconv.Itoa(testbed.VsftpdPort)))
			if err != nil {
				t.Fatal(err)
			}
			err = readLine("220 ")(bufio.NewReader(c))
			ds = append(ds, time.Since(start))
			c.Close()
			if err != nil {
				t.Fatal(err)
			}
		}
		m := slices.Min(ds)
		t.Logf("ftp: connect to greeting over the WAN %v (fastest of %v); a real %v link: %v", m.Round(10*time.Microsecond), roundAll(ds), spec.RTT, 2*spec.RTT)
		lo, hi := spec.RTT/2-time.Millisecond, spec.RTT
		if w.Handshake {
			lo, hi = 2*spec.RTT-time.Millisecond, 2*spec.RTT+wanRTTSlack
		}
		if m < lo || m > hi {
			t.Errorf("greeting after %v, want %v to %v", m, lo, hi)
		}
	})

	t.Run("jitter", func(t *testing.T) {
		// RTT ± J: the round trips within it, and spread over it rather
		// than all alike (15 draws of the sum of two uniform one-way
		// delays all falling within J/4 of each other is improbable).
		js := wan.Spec{RTT: wanTestRTT, Jitter: 20 * time.Millisecond}
		wanUp(t, ctx, wanJitterHost, js, []wan.Route{{Service: "http", Upstream: testbed.Addr(testbed.HTTPPort)}})
		x := wanExchanges()[0] // http
		x.samples = 15
		ds, err := x.times(ctx, wanJitterHost)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("http over %s: %v", js, roundAll(ds))
		// Below the range none; above it up to a third, as a busy machine
		// delays a process now and then (that happens without jitter too).
		lo, hi := js.RTT-js.Jitter-time.Millisecond, js.RTT+js.Jitter+wanRTTSlack
		var in []time.Duration
		for _, d := range ds {
			if d < lo {
				t.Errorf("a round trip of %v, below %v", d, lo)
			}
			if d <= hi {
				in = append(in, d)
			}
		}
		if len(in) < len(ds)-len(ds)/3 {
			t.Errorf("%d of %d round trips above %v", len(ds)-len(in), len(ds), hi)
		}
		if len(in) > 0 && slices.Max(in)-slices.Min(in) < js.Jitter/4 {
			t.Errorf("round trips from %v to %v: no jitter", slices.Min(in), slices.Max(in))
		}
	})

	t.Run("bandwidth", func(t *testing.T) {
		// Two HTTP connections and one FTP transfer at once: each gets
		// the rate, as the limit is per connection.
		targets := []string{
			"http://" + net.JoinHostPort(wanTestHost, strconv.Itoa(testbed.HTTPPort)) + "/" + testbed.BigFile,
			"http://" + net.JoinHostPort(wanTestHost, strconv.Itoa(testbed.HTTPPort)) + "/" + testbed.BigFile,
			"ftp://" + net.JoinHostPort(wanTestHost, strconv.Itoa(testbed.VsftpdPort)) + "/" + testbed.BigFile,
		}
		rates := make([]float64, len(targets))
		errs := make([]error, len(targets))
		var wg sync.WaitGroup
		for i, u := range targets {
			wg.Go(func() { rates[i], errs[i] = wanRate(ctx, u) })
		}
		wg.Wait()
		for i, u := range targets {
			if errs[i] != nil {
				t.Errorf("%s: %v", u, errs[i])
				continue
			}
			t.Logf("%s: %.3f MiB/s (configured %.3f MiB/s, %+.1f %%)", u, rates[i]/(1<<20), float64(spec.Rate)/(1<<20),
				100*(rates[i]/float64(spec.Rate)-1))
			if rel := rates[i]/float64(spec.Rate) - 1; rel < -wanRateTolerance || rel > wanRateTolerance {
				t.Errorf("%s: %.0f B/s, want %d ± %.0f %%", u, rates[i], spec.Rate, 100*wanRateTolerance)
			}
		}
	})
}

// wanRate fetches raw with urlget's client and returns the bytes per
// second of its body over the first wanTransfer bytes, from the first
// read to the last (the round trips before the body do not count).
func wanRate(ctx context.Context, raw string) (float64, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // ends the transfer, FTP's included, when the test has read enough
	c := &fetch.Client{Dialer: &transport.Dialer{ConnectTimeout: 5 * time.Second, IdleTimeout: 10 * time.Second}}
	resp, err := c.Get(ctx, raw)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	buf := make([]byte, 64<<10)
	n, err := io.ReadAtLeast(resp.Body, buf, 1)
	if err != nil {
		return 0, err
	}
	start, first := time.Now(), n
	for n < wanTransfer {
		m, err := resp.Body.Read(buf[:min(len(buf), wanTransfer-n)])
		n += m
		if err != nil {
			return 0, fmt.Errorf("after %d bytes: %w", n, err)
		}
	}
	return float64(n-first) / time.Since(start).Seconds(), nil
}

func roundAll(ds []time.Duration) []time.Duration {
	out := make([]time.Duration, len(ds))
	for i, d := range ds {
		out[i] = d.Round(100 * time.Microsecond)
	}
	return out
}
