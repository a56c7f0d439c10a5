package prospero

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// pkt builds a server packet: header bytes as the notes write them, with
// CC replaced by cid, then data.
func pkt(cid uint16, hdr []byte, data []byte) []byte {
	b := append([]byte(nil), hdr...)
	if len(b) >= 3 {
		binary.BigEndian.PutUint16(b[1:], cid)
	}
	return append(b, data...)
}

func TestParseHeaderDefaults(t *testing.T) {
	for _, tt := range []struct {
		p                  []byte
		seq, total, rcvd   uint16
		wait               uint16
		flags, option, hln int
	}{
		{[]byte{0x03, 0x37, 0xd9, 'A'}, 1, 1, 0, 0, 0, 0, 3},
		{[]byte{0x07, 0x58, 0xae, 0, 2, 0, 0}, 2, 0, 0, 0, 0, 0, 7},
		{[]byte{0x0c, 0x58, 0xae, 0, 16, 0, 0, 0, 1, 0, 0, 0x80}, 16, 0, 1, 0, 0x80, 0, 12},
		{[]byte{0x0b, 0x58, 0xae, 0, 0, 0, 0, 0, 0, 0x03, 0x84}, 0, 0, 0, 900, 0, 0, 11},
	} {
		h, data, err := parseHeader(tt.p)
		if err != nil || h.seq != tt.seq || h.total != tt.total || h.rcvdThru != tt.rcvd || h.wait != tt.wait ||
			int(h.flags) != tt.flags || int(h.option) != tt.option || len(data) != len(tt.p)-tt.hln {
			t.Errorf("%x: %+v, %d data bytes, %v", tt.p, h, len(data), err)
		}
	}
	if _, _, err := parseHeader([]byte("VERSION")); err != errPreARDP {
		t.Errorf("a v1-era packet: %v", err)
	}
	if _, _, err := parseHeader([]byte{0x09, 1}); err == nil {
		t.Error("a header longer than its packet was read")
	}
}

// TestRequestPacketsAreTheCapture: a one-packet request has the header of
// the notes' §10 object lookup.
func TestRequestPacketsAreTheCapture(t *testing.T) {
	msg := []byte("VERSION 5 urlget/0.1\n")
	ps := requestPackets(0x37d9, msg)
	if len(ps) != 1 || !bytes.Equal(ps[0][:9], []byte{0x09, 0x37, 0xd9, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00}) || !bytes.Equal(ps[0][9:], msg) {
		t.Errorf("%x", ps)
	}
	if got := ackPacket(0x58ae, 16); !bytes.Equal(got, []byte{0x09, 0x58, 0xae, 0, 0, 0, 0, 0, 0x10}) {
		t.Errorf("ACK %x", got)
	}
	if ps := requestPackets(1, make([]byte, 2600)); len(ps) != 3 || len(ps[2]) != 9+100 || ps[2][6] != 3 {
		t.Errorf("a 2600-byte request: %d packets", len(ps))
	}
}

// TestReceiveTheCapture: the 36-packet reply of §10, window 16, with ACKs
// asked at 16 and 32, arriving out of order and with duplicates, a
// stranger's packet and, after the first ACK, the byte-swapped id.
func TestReceiveTheCapture(t *testing.T) {
	const cid = 0x58ae
	chunk := func(i int) []byte { return bytes.Repeat([]byte{byte('a' + i%26)}, 1250) }
	r := newReceiver(cid)
	feed := func(p []byte) event {
		t.Helper()
		ev, err := r.accept(p)
		if err != nil {
			t.Fatal(err)
		}
		return ev
	}
	for i := 15; i >= 1; i-- { // reversed
		feed(pkt(cid, []byte{0x07, 0, 0, 0, byte(i), 0, 0}, chunk(i)))
	}
	if ev := feed(pkt(cid, []byte{0x07, 0, 0, 0, 3, 0, 0}, chunk(3))); ev != evDropped {
		t.Errorf("a duplicate: %v", ev)
	}
	if ev := feed(pkt(0x1111, []byte{0x03, 0, 0}, []byte("x"))); ev != evDropped {
		t.Errorf("another connection's packet: %v", ev)
	}
	feed(pkt(cid, []byte{0x0c, 0, 0, 0, 16, 0, 0, 0, 1, 0, 0, 0x80}, chunk(16)))
	if !r.ackDue || r.complete() {
		t.Fatalf("after 16: ack due %v, complete %v", r.ackDue, r.complete())
	}
	if a := r.ack(); !bytes.Equal(a, []byte{0x09, 0x58, 0xae, 0, 0, 0, 0, 0, 0x10}) {
		t.Errorf("ACK %x", a)
	}
	swapped := uint16(0xae58)
	for i := 17; i <= 36; i++ {
		hdr := []byte{0x09, 0, 0, 0, byte(i), 0, 36, 0, 1}
		if i == 32 {
			hdr = []byte{0x0c, 0, 0, 0, byte(i), 0, 36, 0, 1, 0, 0, 0x80}
		}
		data := chunk(i)
		if i == 36 {
			data = data[:1126]
		}
		feed(pkt(swapped, hdr, data))
	}
	if !r.complete() || !r.swapped || !r.ackDue {
		t.Fatalf("complete %v, swapped %v, ack due %v", r.complete(), r.swapped, r.ackDue)
	}
	var want []byte
	for i := 1; i <= 36; i++ {
		c := chunk(i)
		if i == 36 {
			c = c[:1126]
		}
		want = append(want, c...)
	}
	if !bytes.Equal(r.message(), want) {
		t.Errorf("message of %d bytes, want %d", len(r.message()), len(want))
	}
}

func TestControlPackets(t *testing.T) {
	const cid = 0x1234
	r := newReceiver(cid)
	if ev, _ := r.accept(pkt(cid, []byte{0x0b, 0, 0, 0, 0, 0, 0, 0, 0, 0x03, 0x84}, nil)); ev != evWait || r.wait != 900 {
		t.Errorf("wait: %v %d", ev, r.wait)
	}
	if ev, _ := r.accept(pkt(cid, []byte{0x0d, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, nil)); ev != evRefused {
		t.Errorf("refusal: %v", ev)
	}
	ev, _ := r.accept(pkt(cid, []byte{0x13, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 127, 0, 0, 1, 0x05, 0xf6}, nil))
	if ev != evRedirect || r.redirect.String() != "127.0.0.1:1526" {
		t.Errorf("redirect: %v %v", ev, r.redirect)
	}
	if ev, _ := r.accept(pkt(cid, []byte{0x09, 0, 0, 0, 0, 0, 0, 0, 1}, nil)); ev != evAck || r.peerRcvd != 1 {
		t.Errorf("ack: %v %d", ev, r.peerRcvd)
	}
	// A one-packet reply: a 3-octet header is packet 1 of 1.
	if ev, _ := r.accept(pkt(cid, []byte{0x03, 0, 0}, []byte("NONE-FOUND\n"))); ev != evData || !r.complete() || string(r.message()) != "NONE-FOUND\n" {
		t.Errorf("single packet: %v %v %q", ev, r.complete(), r.message())
	}
	// Hostile totals are refused before anything is kept.
	h := newReceiver(cid)
	if _, err := h.accept(pkt(cid, []byte{0x07, 0, 0, 0, 1, 0xff, 0xff}, nil)); err == nil {
		t.Error("a reply of 65535 packets was accepted")
	}
}

func FuzzReceiver(f *testing.F) {
	f.Add([]byte{0x03, 0x12, 0x34, 'A'})
	f.Add([]byte{0x0c, 0x12, 0x34, 0, 16, 0, 0, 0, 1, 0, 0, 0x80})
	f.Add([]byte{0x13, 0x12, 0x34, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 127, 0, 0, 1, 0x05, 0xf6})
	f.Fuzz(func(t *testing.T, p []byte) {
		r := newReceiver(0x1234)
		r.accept(p)
		r.accept(p) // and again: a duplicate
		if r.size > len(p) || len(r.message()) > r.size {
			t.Fatalf("kept %d bytes of a %d-byte packet", r.size, len(p))
		}
	})
}
