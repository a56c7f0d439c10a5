package prospero

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// peer is a scripted ARDP server on 127.0.0.1: script gets each packet the
// client sends and the socket to answer on.
type peer struct {
	pc   *net.UDPConn
	done chan struct{}
}

func newPeer(t *testing.T, script func(pc *net.UDPConn, from *net.UDPAddr, p []byte)) *peer {
	t.Helper()
	return newPeerAt(t, net.IPv4(127, 0, 0, 1), script)
}

// newPeerAt is newPeer on another loopback address (::1).
func newPeerAt(t *testing.T, ip net.IP, script func(pc *net.UDPConn, from *net.UDPAddr, p []byte)) *peer {
	t.Helper()
	pc, err := net.ListenUDP("udp", &net.UDPAddr{IP: ip})
	if err != nil {
		t.Fatal(err)
	}
	p := &peer{pc: pc, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		buf := make([]byte, 4096)
		for {
			n, from, err := pc.ReadFromUDP(buf)
			if err != nil {
				return
			}
			script(pc, from, append([]byte(nil), buf[:n]...))
		}
	}()
	t.Cleanup(func() { pc.Close(); <-p.done })
	return p
}

func (p *peer) addr() netip.AddrPort { return p.pc.LocalAddr().(*net.UDPAddr).AddrPort() }

func dialPeer(t *testing.T, to netip.AddrPort) net.Conn {
	c, err := net.DialUDP("udp", nil, net.UDPAddrFromAddrPort(to))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func client(t *testing.T, p *peer) *ardpClient {
	a := &ardpClient{c: dialPeer(t, p.addr()), first: 40 * time.Millisecond,
		redial: func(_ context.Context, to netip.AddrPort) (net.Conn, error) { return dialPeer(t, to), nil }}
	t.Cleanup(func() { a.c.Close() })
	return a
}

func cidOf(p []byte) uint16 { return binary.BigEndian.Uint16(p[1:]) }

func sendReply(pc *net.UDPConn, to *net.UDPAddr, hdr []byte, cid uint16, data []byte) {
	b := append([]byte(nil), hdr...)
	binary.BigEndian.PutUint16(b[1:], cid)
	pc.WriteToUDP(append(b, data...), to)
}

func TestExchangeOnePacketAfterALostRequest(t *testing.T) {
	var n atomic.Int32
	p := newPeer(t, func(pc *net.UDPConn, from *net.UDPAddr, pk []byte) {
		if n.Add(1) == 1 {
			return // the first request is lost
		}
		if !bytes.Equal(pk[9:], []byte("GET\n")) {
			return
		}
		sendReply(pc, from, []byte{0x03, 0, 0}, cidOf(pk), []byte("NONE-FOUND\n"))
	})
	got, err := client(t, p).exchange(context.Background(), 0x37d9, []byte("GET\n"))
	if err != nil || string(got) != "NONE-FOUND\n" || n.Load() != 2 {
		t.Fatalf("%q %v after %d requests", got, err, n.Load())
	}
}

// TestExchangeWindowOf16: 36 packets sent 16 at a time, the server
// stopping at 16 and 32 until the client's ACK (prospero-notes §10).
func TestExchangeWindowOf16(t *testing.T) {
	chunk := func(i int) []byte { return bytes.Repeat([]byte{byte('a' + i%26)}, 1250) }
	var mu sync.Mutex
	var acks []uint16
	p := newPeer(t, func(pc *net.UDPConn, from *net.UDPAddr, pk []byte) {
		cid := cidOf(pk)
		h, _, _ := parseHeader(pk)
		from16 := 0
		switch {
		case h.seq == 1: // the request
			from16 = 1
		case h.seq == 0 && (h.rcvdThru == 16 || h.rcvdThru == 32):
			mu.Lock()
			acks = append(acks, h.rcvdThru)
			mu.Unlock()
			from16 = int(h.rcvdThru) + 1
		default:
			return
		}
		for i := from16; i < from16+16 && i <= 36; i++ {
			hdr := []byte{0x09, 0, 0, 0, byte(i), 0, 36, 0, 1}
			if i%16 == 0 {
				hdr = []byte{0x0c, 0, 0, 0, byte(i), 0, 36, 0, 1, 0, 0, 0x80}
			}
			sendReply(pc, from, hdr, cid, chunk(i))
		}
	})
	got, err := client(t, p).exchange(context.Background(), 0x58ae, []byte("GET\n"))
	mu.Lock()
	defer mu.Unlock()
	if err != nil || len(got) != 36*1250 || len(acks) < 2 || acks[0] != 16 || acks[1] != 32 {
		t.Fatalf("%d bytes, %v, acks %v", len(got), err, acks)
	}
}

// TestExchangeLostAckWantedPacket: the packet that asks for the ACK is
// lost after the server has acknowledged the request, so a resent request
// would be empty: the client ACKs what it has when its timer runs out,
// and the server resends the window after it (prospero-notes §3).
func TestExchangeLostAckWantedPacket(t *testing.T) {
	chunk := func(i int) []byte { return bytes.Repeat([]byte{byte('a' + i%26)}, 1250) }
	var mu sync.Mutex
	var acks []uint16
	var requests int
	p := newPeer(t, func(pc *net.UDPConn, from *net.UDPAddr, pk []byte) {
		cid := cidOf(pk)
		h, _, _ := parseHeader(pk)
		mu.Lock()
		defer mu.Unlock()
		first, last := 0, 0
		switch {
		case h.seq == 1:
			requests++
			if requests > 1 {
				return // the ISI server drops a duplicate
			}
			first, last = 1, 15 // packet 16, the one asking for the ACK, is lost
		case h.seq == 0 && h.rcvdThru == 15:
			acks = append(acks, h.rcvdThru)
			first, last = 16, 20
		default:
			return
		}
		for i := first; i <= last; i++ {
			hdr := []byte{0x09, 0, 0, 0, byte(i), 0, 20, 0, 1} // rcvd-thru 1: it has the request
			sendReply(pc, from, hdr, cid, chunk(i))
		}
	})
	got, err := client(t, p).exchange(context.Background(), 0x1301, []byte("GET\n"))
	mu.Lock()
	defer mu.Unlock()
	if err != nil || len(got) != 20*1250 || len(acks) == 0 || requests != 1 {
		t.Fatalf("%d bytes, %v, acks %v, %d requests", len(got), err, acks, requests)
	}
}

func TestExchangeControl(t *testing.T) {
	// A wait packet first: the client keeps waiting past its timeout.
	w := newPeer(t, func(pc *net.UDPConn, from *net.UDPAddr, pk []byte) {
		if h, _, _ := parseHeader(pk); h.seq != 1 {
			return
		}
		sendReply(pc, from, []byte{0x0b, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, cidOf(pk), nil)
		go func() {
			time.Sleep(300 * time.Millisecond) // longer than the whole 40 ms schedule
			sendReply(pc, from, []byte{0x03, 0, 0}, cidOf(pk), []byte("OK\n"))
		}()
	})
	if got, err := client(t, w).exchange(context.Background(), 1, []byte("x")); err != nil || string(got) != "OK\n" {
		t.Errorf("after a wait: %q %v", got, err)
	}
	// A refusal.
	r := newPeer(t, func(pc *net.UDPConn, from *net.UDPAddr, pk []byte) {
		sendReply(pc, from, []byte{0x0d, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, cidOf(pk), nil)
	})
	if _, err := client(t, r).exchange(context.Background(), 2, []byte("x")); !errors.Is(err, errRefused) {
		t.Errorf("refusal: %v", err)
	}
	// A redirect to another server, which answers.
	other := newPeer(t, func(pc *net.UDPConn, from *net.UDPAddr, pk []byte) {
		sendReply(pc, from, []byte{0x03, 0, 0}, cidOf(pk), []byte("THERE\n"))
	})
	to := other.addr()
	red := newPeer(t, func(pc *net.UDPConn, from *net.UDPAddr, pk []byte) {
		hdr := []byte{0x13, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 127, 0, 0, 1, byte(to.Port() >> 8), byte(to.Port())}
		sendReply(pc, from, hdr, cidOf(pk), nil)
	})
	if got, err := client(t, red).exchange(context.Background(), 3, []byte("x")); err != nil || string(got) != "THERE\n" {
		t.Errorf("redirect: %q %v", got, err)
	}
	// A peer that never answers: the schedule (40+80+160+320 ms) ends it.
	silent := newPeer(t, func(*net.UDPConn, *net.UDPAddr, []byte) {})
	start := time.Now()
	if _, err := client(t, silent).exchange(context.Background(), 4, []byte("x")); !errors.Is(err, errNoReply) || time.Since(start) > 3*time.Second {
		t.Errorf("silent peer: %v after %v", err, time.Since(start))
	}
	// ... or the caller's deadline, whichever comes first.
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	a := client(t, silent)
	a.first = time.Hour
	if _, err := a.exchange(ctx, 5, []byte("x")); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("deadline: %v", err)
	}
}
