package prospero

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net/netip"
)

// ARDP v0 (prospero-notes §2–§3): reliable delivery of one message in
// numbered packets over UDP. This file holds the packet format and the
// receiving side's state, with no I/O, so that transcripts can drive it.

// Header fields and flags (notes §2).
const (
	flagAckWanted  = 0x80 // "please ACK"
	optionRefused  = 1    // server→client: the request is refused (client→server: cancel)
	optionRedirect = 4    // IPv4 address and port follow: resend there
	minHeader      = 3    // version/length octet and the connection id
	maxPacket      = 2048 // read buffer; the server sends at most 1250 data octets
	requestData    = 1250 // data octets per request packet (the server reads 1405)
	maxMessage     = 16 << 20
	maxPackets     = maxMessage / 1000
)

// header is a decoded ARDP header, its defaults filled in.
type header struct {
	cid      uint16
	seq      uint16 // 0: an unsequenced control packet
	total    uint16 // 0: not known yet
	rcvdThru uint16
	wait     uint16 // seconds the server asks the client to wait
	flags    byte
	option   byte
	extra    []byte // the option's data (and flag fields)
}

// errPreARDP is a first octet above 31: a v1-era peer (notes §2).
var errPreARDP = errors.New("not an ARDP v0 packet (a pre-ARDP peer?)")

// parseHeader reads a packet's header; missing trailing fields take
// their defaults (seq 1 and total 1 when the header stops before the
// sequence number — a lone packet; total 0, not known yet, when it stops
// after it).
func parseHeader(p []byte) (header, []byte, error) {
	if len(p) == 0 {
		return header{}, nil, errors.New("empty packet")
	}
	if p[0] > 31 {
		return header{}, nil, errPreARDP
	}
	hlen := int(p[0] & 0x3f)
	if hlen < 1 || hlen > len(p) {
		return header{}, nil, fmt.Errorf("header of %d octets in a packet of %d", hlen, len(p))
	}
	h := header{seq: 1, total: 1}
	u16 := func(off int) (uint16, bool) {
		if off+2 > hlen {
			return 0, false
		}
		return binary.BigEndian.Uint16(p[off:]), true
	}
	h.cid, _ = u16(1)
	if v, ok := u16(3); ok {
		h.seq, h.total = v, 0
	}
	if v, ok := u16(5); ok {
		h.total = v
	}
	h.rcvdThru, _ = u16(7)
	h.wait, _ = u16(9)
	if hlen > 11 {
		h.flags = p[11]
	}
	if hlen > 12 {
		h.option = p[12]
		h.extra = p[13:hlen]
	}
	return h, p[hlen:], nil
}

// requestPacket is packet seq of total of a request: header
// `09 CC CC SS SS TT TT 00 00` and its data.
func requestPacket(cid, seq, total uint16, data []byte) []byte {
	b := []byte{9, 0, 0, 0, 0, 0, 0, 0, 0}
	binary.BigEndian.PutUint16(b[1:], cid)
	binary.BigEndian.PutUint16(b[3:], seq)
	binary.BigEndian.PutUint16(b[5:], total)
	return append(b, data...)
}

// ackPacket acknowledges every packet up to rcvd: seq 0, `09 CC CC 00 00
// 00 00 RR RR`.
func ackPacket(cid, rcvd uint16) []byte {
	b := []byte{9, 0, 0, 0, 0, 0, 0, 0, 0}
	binary.BigEndian.PutUint16(b[1:], cid)
	binary.BigEndian.PutUint16(b[7:], rcvd)
	return b
}

// requestPackets cuts a request message into packets.
func requestPackets(cid uint16, msg []byte) [][]byte {
	n := max(1, (len(msg)+requestData-1)/requestData)
	var out [][]byte
	for i := 0; i < n; i++ {
		out = append(out, requestPacket(cid, uint16(i+1), uint16(n), msg[i*requestData:min(len(msg), (i+1)*requestData)]))
	}
	return out
}

// event is what one received packet meant.
type event int

const (
	evDropped  event = iota // another connection's, a duplicate, a stray control packet
	evData                  // a new data packet
	evWait                  // the server asks for patience (receiver.wait)
	evRefused               // the server refused the request
	evRedirect              // resend to receiver.redirect
	evAck                   // the server acknowledged request packets (receiver.peerRcvd)
)

// receiver reassembles one reply, by sequence number.
type receiver struct {
	cid      uint16
	packets  map[uint16][]byte
	total    int // 0 until a packet tells it
	inOrder  int // packets 1..inOrder are all here
	highest  int // the highest packet number here
	size     int
	ackDue   bool // a packet asked for an ACK
	wait     int  // seconds, from the last wait packet
	redirect netip.AddrPort
	peerRcvd uint16 // request packets the server has
	sent     int    // request packets there are; 0: unknown (no check)
	swapped  bool   // the peer used the byte-swapped connection id
}

func newReceiver(cid uint16) *receiver { return &receiver{cid: cid, packets: map[uint16][]byte{}} }

// accept takes one packet from the peer. Its errors are the packet's
// breaches of ARDP, each saying what was wrong; a duplicate or another
// connection's packet is dropped without one.
func (r *receiver) accept(p []byte) (event, error) {
	h, data, err := parseHeader(p)
	if err != nil {
		return evDropped, err
	}
	switch h.cid {
	case r.cid:
	case r.cid>>8 | r.cid<<8:
		// The ISI server's byte-swapped id after an ACK (notes §9.1).
		r.swapped = true
	default:
		return evDropped, nil
	}
	if r.sent > 0 && int(h.rcvdThru) > r.sent {
		return evDropped, fmt.Errorf("the server acknowledges request packet %d of %d", h.rcvdThru, r.sent)
	}
	if h.rcvdThru > r.peerRcvd {
		r.peerRcvd = h.rcvdThru
	}
	if h.flags&flagAckWanted != 0 {
		r.ackDue = true
	}
	switch h.option {
	case optionRefused:
		return evRefused, nil
	case optionRedirect:
		if len(h.extra) < 6 {
			return evDropped, errors.New("redirect without an address")
		}
		ip := netip.AddrFrom4([4]byte(h.extra[len(h.extra)-6 : len(h.extra)-2]))
		r.redirect = netip.AddrPortFrom(ip, binary.BigEndian.Uint16(h.extra[len(h.extra)-2:]))
		return evRedirect, nil
	}
	if h.seq == 0 {
		if h.wait > 0 {
			r.wait = int(h.wait)
			return evWait, nil
		}
		if h.rcvdThru > 0 {
			return evAck, nil
		}
		return evDropped, nil
	}
	if h.total != 0 {
		if r.total != 0 && int(h.total) != r.total {
			return evDropped, fmt.Errorf("packet %d says %d packets, an earlier one %d", h.seq, h.total, r.total)
		}
		if int(h.total) > maxPackets {
			return evDropped, fmt.Errorf("a reply of %d packets (more than %d)", h.total, maxPackets)
		}
		if r.highest > int(h.total) {
			return evDropped, fmt.Errorf("packet %d says %d packets, after packet %d", h.seq, h.total, r.highest)
		}
		r.total = int(h.total)
	}
	if r.total != 0 && int(h.seq) > r.total {
		return evDropped, fmt.Errorf("packet %d of a reply of %d packets", h.seq, r.total)
	}
	if int(h.seq) > maxPackets {
		return evDropped, fmt.Errorf("packet %d (a reply of more than %d packets)", h.seq, maxPackets)
	}
	if _, dup := r.packets[h.seq]; dup {
		return evDropped, nil
	}
	if r.size+len(data) > maxMessage {
		return evDropped, fmt.Errorf("a reply over %d bytes", maxMessage)
	}
	r.packets[h.seq] = append([]byte(nil), data...)
	r.size += len(data)
	r.highest = max(r.highest, int(h.seq))
	for {
		if _, ok := r.packets[uint16(r.inOrder+1)]; !ok {
			break
		}
		r.inOrder++
	}
	return evData, nil
}

// complete says every packet of the reply is here.
func (r *receiver) complete() bool { return r.total > 0 && r.inOrder >= r.total }

// message is the reassembled reply.
func (r *receiver) message() []byte {
	b := make([]byte, 0, r.size)
	for i := 1; i <= r.inOrder; i++ {
		b = append(b, r.packets[uint16(i)]...)
	}
	return b
}

// ack is the ACK to send now (every packet in order so far), and clears
// the request for one.
func (r *receiver) ack() []byte {
	r.ackDue = false
	return ackPacket(r.cid, uint16(r.inOrder))
}
