package prospero

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// Hostile servers (issue 21): each exchange ends within its bounds, with
// the error and exit status that say what happened.

// redirectHeader is a redirect packet's header (option 4) to ip4:port.
func redirectHeader(to netip.AddrPort) []byte {
	ip := to.Addr().Unmap().As4()
	b := []byte{0x13, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, optionRedirect}
	b = append(b, ip[:]...)
	return binary.BigEndian.AppendUint16(b, to.Port())
}

// hostileClient is client(t, p) with a short exchange bound and its
// redials counted.
func hostileClient(t *testing.T, p *peer, limit time.Duration) (*ardpClient, *atomic.Int32) {
	a := client(t, p)
	a.limit = limit
	var dials atomic.Int32
	redial := a.redial
	a.redial = func(ctx context.Context, to netip.AddrPort) (net.Conn, error) {
		dials.Add(1)
		return redial(ctx, to)
	}
	return a, &dials
}

// wantKind fails unless err is a *schemes.Error of kind whose text says
// want.
func wantKind(t *testing.T, err error, kind schemes.Kind, want string) {
	t.Helper()
	var se *schemes.Error
	if !errors.As(err, &se) || se.Kind != kind || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v (kind %v), want %v saying %q", err, schemes.KindOf(err), kind, want)
	}
}

// TestExchangeRedirectLoop: a server redirecting every request to itself
// gets the request five times (the first and four redirects), then the
// exchange fails, exit 6, saying so.
func TestExchangeRedirectLoop(t *testing.T) {
	var got atomic.Int32
	p := newPeer(t, func(pc *net.UDPConn, from *net.UDPAddr, pk []byte) {
		got.Add(1) // before the redirect: counted before the client reads it
		sendReply(pc, from, redirectHeader(pc.LocalAddr().(*net.UDPAddr).AddrPort()), cidOf(pk), nil)
	})
	a, dials := hostileClient(t, p, 2*time.Second)
	_, err := a.exchange(context.Background(), 7, []byte("x"))
	wantKind(t, err, schemes.KindProtocol, "more than 4 redirects")
	if schemes.KindOf(err).ExitCode() != 6 || got.Load() != 1+maxRedirects || dials.Load() != maxRedirects {
		t.Errorf("exit %d, %d requests, %d redials; want exit 6, %d and %d", schemes.KindOf(err).ExitCode(), got.Load(), dials.Load(), 1+maxRedirects, maxRedirects)
	}
}

// TestExchangeRedirectRefused: redirects to addresses that reach a group
// of hosts or none, or another address family, are refused before any
// socket is opened: the server gets the one request, nothing is dialed.
func TestExchangeRedirectRefused(t *testing.T) {
	ap := netip.MustParseAddrPort
	for _, tc := range []struct {
		name   string
		to     netip.AddrPort
		server net.IP
		kind   schemes.Kind
		want   string
	}{
		{"multicast", ap("224.0.0.1:1525"), nil, schemes.KindSafety, "multicast"},
		{"SSDP multicast", ap("239.255.255.250:1900"), nil, schemes.KindSafety, "multicast"},
		{"limited broadcast", ap("255.255.255.255:1525"), nil, schemes.KindSafety, "the broadcast address"},
		{"directed broadcast", ap("10.9.8.255:1525"), nil, schemes.KindSafety, "broadcast address of the network 10.9.8.0/24"},
		{"unspecified", ap("0.0.0.0:1525"), nil, schemes.KindSafety, "unspecified"},
		{"this network", ap("0.1.2.3:1525"), nil, schemes.KindSafety, "unspecified"},
		{"reserved", ap("240.0.0.1:1525"), nil, schemes.KindSafety, "reserved"},
		{"port 0", ap("127.0.0.1:0"), nil, schemes.KindProtocol, "port 0"},
		{"IPv6 server to IPv4", ap("127.0.0.1:1525"), net.IPv6loopback, schemes.KindSafety, "address family"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ip := tc.server
			if ip == nil {
				ip = net.IPv4(127, 0, 0, 1)
			}
			var got atomic.Int32
			p := newPeerAt(t, ip, func(pc *net.UDPConn, from *net.UDPAddr, pk []byte) {
				got.Add(1)
				sendReply(pc, from, redirectHeader(tc.to), cidOf(pk), nil)
			})
			a, dials := hostileClient(t, p, 2*time.Second)
			a.local = func() []netip.Prefix { return []netip.Prefix{netip.MustParsePrefix("10.9.8.7/24")} }
			_, err := a.exchange(context.Background(), 8, []byte("x"))
			wantKind(t, err, tc.kind, tc.want)
			if got.Load() != 1 || dials.Load() != 0 {
				t.Errorf("%d requests, %d redials; want 1 and none", got.Load(), dials.Load())
			}
		})
	}
}

func TestCheckRedirect(t *testing.T) {
	a, ap := netip.MustParseAddr, netip.MustParseAddrPort
	for _, tc := range []struct {
		from netip.Addr
		to   netip.AddrPort
		ok   bool
	}{
		{a("127.0.0.1"), ap("127.0.0.1:1526"), true},
		{a("::ffff:127.0.0.1"), ap("127.0.0.1:1526"), true}, // a dual-stack socket's view
		{a("192.0.2.1"), ap("198.51.100.7:1525"), true},
		{a("192.0.2.1"), ap("127.0.0.1:1525"), false}, // this host's services, from elsewhere
		{a("192.0.2.1"), ap("192.0.2.255:1525"), false},
		{a("::1"), ap("127.0.0.1:1525"), false},
		{netip.Addr{}, ap("127.0.0.1:1525"), false}, // a socket whose peer is unknown
	} {
		err := checkRedirect(tc.from, tc.to, []netip.Prefix{netip.MustParsePrefix("192.0.2.9/24")})
		if (err == nil) != tc.ok {
			t.Errorf("%v → %v: %v", tc.from, tc.to, err)
		}
	}
	for p, want := range map[string]string{"10.9.8.7/24": "10.9.8.255", "172.16.5.4/12": "172.31.255.255", "192.168.1.1/30": "192.168.1.3", "10.0.0.1/8": "10.255.255.255"} {
		if got := broadcastOf(netip.MustParsePrefix(p)); got.String() != want {
			t.Errorf("broadcast of %s: %v, want %s", p, got, want)
		}
	}
}

// trickler is a peer that answers the first request by sending next(i)
// for i = 0, 1, … every interval (the CID filled in) until the test
// ends, reading nothing more meanwhile.
func trickler(t *testing.T, interval time.Duration, next func(i int) []byte) *peer {
	stop := make(chan struct{})
	p := newPeer(t, func(pc *net.UDPConn, from *net.UDPAddr, pk []byte) {
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for i := 0; ; i++ {
			b := next(i)
			binary.BigEndian.PutUint16(b[1:], cidOf(pk))
			pc.WriteToUDP(b, from)
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	})
	t.Cleanup(func() { close(stop) }) // before the peer's own, which waits for the script
	return p
}

// TestExchangeEndsByItsDeadline: what used to hold the client forever —
// a wait of 65535 s, a duplicate packet every interval (the first
// timeout is longer), wait packets over and over, new packets of a reply
// that never ends — ends by the exchange's bound (a timeout, exit 5), or
// by the caller's deadline when it has one, longer or shorter.
func TestExchangeEndsByItsDeadline(t *testing.T) {
	const limit = 300 * time.Millisecond
	wait65535 := func(int) []byte { return []byte{0x0b, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff} }
	for _, tc := range []struct {
		name     string
		next     func(i int) []byte
		deadline time.Duration // the caller's, if any
		limit    time.Duration
		want     string
	}{
		{"wait 65535 s", wait65535, 0, limit, "within 300ms"},
		{"wait 65535 s, the caller's deadline shorter", wait65535, 200 * time.Millisecond, time.Hour, ""},
		{"wait 65535 s, the caller's deadline longer", wait65535, 500 * time.Millisecond, 50 * time.Millisecond, ""},
		{"a duplicate every 20 ms", func(int) []byte { return []byte{0x09, 0, 0, 0, 1, 0, 2, 0, 1, 'a'} }, 0, limit, "within 300ms"},
		{"a wait packet every 20 ms", func(int) []byte { return []byte{0x0b, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1} }, 0, limit, "within 300ms"},
		{"a new packet every 20 ms, no total", func(i int) []byte { return []byte{0x07, 0, 0, byte((i + 1) >> 8), byte(i + 1), 0, 0, 'a'} }, 0, limit, "within 300ms"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := trickler(t, 20*time.Millisecond, tc.next)
			a, _ := hostileClient(t, p, tc.limit)
			a.first = 100 * time.Millisecond // longer than the interval
			var notes []string
			a.note = func(s string) { notes = append(notes, s) }
			ctx, bound := context.Background(), tc.limit
			if tc.deadline > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.deadline)
				defer cancel()
				bound = tc.deadline
			}
			start := time.Now()
			_, err := a.exchange(ctx, 9, []byte("x"))
			took := time.Since(start)
			if tc.want != "" {
				wantKind(t, err, schemes.KindTimeout, tc.want)
			} else if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("err = %v, want the caller's deadline", err)
			}
			if took < bound-10*time.Millisecond || took > bound+time.Second {
				t.Errorf("ended after %v, the bound was %v", took, bound)
			}
			if strings.HasPrefix(tc.name, "wait 65535") && (len(notes) == 0 || !strings.Contains(notes[0], "waiting 1m0s at most")) {
				t.Errorf("notes %q: the wait is not capped", notes)
			}
		})
	}
}

// TestExchangeProtocolViolations: each breach of ARDP ends the exchange
// with a KindProtocol error (exit 6) saying what was wrong.
func TestExchangeProtocolViolations(t *testing.T) {
	big := make([]byte, maxPacket+1)
	copy(big, []byte{0x03, 0, 0})
	for _, tc := range []struct {
		name    string
		packets [][]byte // answered to the request; octets 1–2 get the CID when there are 3
		want    string
	}{
		{"empty packet", [][]byte{{}}, "empty packet"},
		{"pre-ARDP", [][]byte{[]byte("VERSION 5 x\n")}, "not an ARDP v0 packet"},
		{"header longer than its packet", [][]byte{{0x09, 0, 0}}, "header of 9 octets in a packet of 3"},
		{"header of 0 octets", [][]byte{{0x00, 0, 0, 'a'}}, "header of 0 octets"},
		{"totals disagree", [][]byte{{0x07, 0, 0, 0, 1, 0, 3, 'a'}, {0x07, 0, 0, 0, 2, 0, 4, 'b'}}, "packet 2 says 4 packets, an earlier one 3"},
		{"packet beyond the total", [][]byte{{0x07, 0, 0, 0, 5, 0, 3, 'a'}}, "packet 5 of a reply of 3 packets"},
		{"total below a packet", [][]byte{{0x07, 0, 0, 0, 4, 0, 0, 'a'}, {0x07, 0, 0, 0, 1, 0, 2, 'b'}}, "packet 1 says 2 packets, after packet 4"},
		{"too many packets", [][]byte{{0x07, 0, 0, 0, 1, 0xff, 0xff, 'a'}}, "a reply of 65535 packets"},
		{"packet number too high", [][]byte{{0x07, 0, 0, 0xff, 0xff, 0, 0, 'a'}}, "packet 65535 (a reply of more than"},
		{"an ACK of a packet never sent", [][]byte{{0x09, 0, 0, 0, 1, 0, 1, 0, 5, 'a'}}, "acknowledges request packet 5 of 1"},
		{"oversized packet", [][]byte{big}, "a packet of more than 2048 octets"},
		{"redirect without an address", [][]byte{{0x0d, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, optionRedirect}}, "redirect without an address"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newPeer(t, func(pc *net.UDPConn, from *net.UDPAddr, pk []byte) {
				for _, b := range tc.packets {
					b = append([]byte(nil), b...)
					if len(b) >= 3 && b[0] <= 31 {
						binary.BigEndian.PutUint16(b[1:], cidOf(pk))
					}
					pc.WriteToUDP(b, from)
				}
			})
			a, _ := hostileClient(t, p, 2*time.Second)
			_, err := a.exchange(context.Background(), 10, []byte("x"))
			wantKind(t, err, schemes.KindProtocol, tc.want)
			if schemes.KindOf(err).ExitCode() != 6 {
				t.Errorf("exit %d, want 6", schemes.KindOf(err).ExitCode())
			}
		})
	}
}

// TestReceiverMessageBound: a reply over maxMessage is refused when the
// packet that would pass it arrives.
func TestReceiverMessageBound(t *testing.T) {
	const cid = 0x4242
	r := newReceiver(cid)
	data := make([]byte, 2000)
	for seq := 1; ; seq++ {
		_, err := r.accept(pkt(cid, []byte{0x07, 0, 0, byte(seq >> 8), byte(seq), 0, 0}, data))
		if err != nil {
			if !strings.Contains(err.Error(), "a reply over") || r.size > maxMessage {
				t.Errorf("packet %d: %v, %d bytes kept", seq, err, r.size)
			}
			return
		}
		if seq > maxPackets {
			t.Fatalf("%d packets of %d bytes accepted", seq, len(data))
		}
	}
}

// TestFetchHostileRedirects: through the Handler and the transport's
// Dialer, as urlget runs them: a redirect loop exits 6; a redirect to a
// port the policy reserves (25, SMTP's) is refused by the Dialer, exit 7,
// as a multicast one is; the server got the one request each time.
func TestFetchHostileRedirects(t *testing.T) {
	for _, tc := range []struct {
		name string
		to   func(self netip.AddrPort) netip.AddrPort
		exit int
		want string
	}{
		{"loop", func(self netip.AddrPort) netip.AddrPort { return self }, 6, "more than 4 redirects"},
		{"restricted port", func(netip.AddrPort) netip.AddrPort { return netip.MustParseAddrPort("127.0.0.1:25") }, 7, "port 25 is reserved for smtp"},
		{"multicast", func(netip.AddrPort) netip.AddrPort { return netip.MustParseAddrPort("224.0.0.251:5353") }, 7, "multicast"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got atomic.Int32
			p := newPeer(t, func(pc *net.UDPConn, from *net.UDPAddr, pk []byte) {
				got.Add(1)
				sendReply(pc, from, redirectHeader(tc.to(pc.LocalAddr().(*net.UDPAddr).AddrPort())), cidOf(pk), nil)
			})
			u, err := schemes.Parse("prospero://" + p.addr().String() + "//pfs/x")
			if err != nil {
				t.Fatal(err)
			}
			pu, err := Parse(u)
			if err != nil {
				t.Fatal(err)
			}
			h := &Handler{first: 50 * time.Millisecond, limit: 2 * time.Second}
			_, err = h.Fetch(context.Background(), &schemes.Request{URL: pu, Dialer: &transport.Dialer{}})
			if code := schemes.KindOf(err).ExitCode(); code != tc.exit || !strings.Contains(fmt.Sprint(err), tc.want) {
				t.Errorf("err = %v (exit %d), want exit %d saying %q", err, code, tc.exit, tc.want)
			}
			want := int32(1)
			if tc.name == "loop" {
				want = 1 + maxRedirects
			}
			if got.Load() != want {
				t.Errorf("%d requests, want %d", got.Load(), want)
			}
		})
	}
}
