package dirsrv

import (
	"encoding/binary"
	"errors"
)

// This file is the server's own reading and writing of ARDP v0 headers
// (prospero-notes §2), shared with nothing in the client.

const (
	flagAckWanted = 0x80
	optionRefuse  = 1
	optionRedir   = 4
	dataPerPacket = 1250 // what the ISI server sends at most
	window        = 16
)

// header is a received ARDP header with the defaults of §2 filled in.
type header struct {
	cid, seq, total, rcvd, wait uint16
	flags, option               byte
}

var errHeader = errors.New("not an ARDP v0 packet")

// readHeader reads a packet's header: the length is the low 6 bits of
// octet 0, every field after it optional.
func readHeader(p []byte) (header, []byte, error) {
	h := header{seq: 1}
	if len(p) == 0 || p[0]>>6 != 0 {
		return h, nil, errHeader
	}
	n := int(p[0] & 0x3f)
	if n < 1 || n > len(p) {
		return h, nil, errHeader
	}
	u16 := func(at int) (uint16, bool) {
		if at+2 > n {
			return 0, false
		}
		return binary.BigEndian.Uint16(p[at:]), true
	}
	h.cid, _ = u16(1)
	if n < 5 {
		h.total = 1 // a header too short to say: packet 1 of 1
	} else {
		h.seq, _ = u16(3)
		h.total, _ = u16(5)
	}
	h.rcvd, _ = u16(7)
	h.wait, _ = u16(9)
	if n > 11 {
		h.flags = p[11]
	}
	if n > 12 {
		h.option = p[12]
	}
	return h, p[n:], nil
}

// putU16 appends v big-endian.
func putU16(b []byte, v uint16) []byte { return binary.BigEndian.AppendUint16(b, v) }

// dataHeader writes the header of reply packet seq of total as the ISI
// server does (§2): "03 CC CC" for a lone packet before any ACK, "07 CC CC
// SS SS TT TT" otherwise before the first ACK (TT only on the last
// packet), "09 … RR RR" after it, and "0c … RR RR 00 00 80" when the
// packet asks for an ACK.
func dataHeader(cid uint16, seq, total int, acked bool, rcvdReq int, ackMe bool) []byte {
	tt := 0
	if acked || seq == total {
		tt = total
	}
	switch {
	case ackMe:
		b := []byte{0x0c}
		b = putU16(b, cid)
		b = putU16(b, uint16(seq))
		b = putU16(b, uint16(tt))
		b = putU16(b, uint16(rcvdReq))
		b = putU16(b, 0)
		return append(b, flagAckWanted)
	case acked:
		b := []byte{0x09}
		b = putU16(b, cid)
		b = putU16(b, uint16(seq))
		b = putU16(b, uint16(tt))
		return putU16(b, uint16(rcvdReq))
	case total == 1:
		return putU16([]byte{0x03}, cid)
	}
	b := []byte{0x07}
	b = putU16(b, cid)
	b = putU16(b, uint16(seq))
	return putU16(b, uint16(tt))
}

// waitPacket asks the client not to retry for secs seconds (§2).
func waitPacket(cid uint16, secs int) []byte {
	b := putU16([]byte{0x0b}, cid)
	b = append(b, 0, 0, 0, 0, 0, 0)
	return putU16(b, uint16(secs))
}

// refusePacket refuses the request (option 1).
func refusePacket(cid uint16) []byte {
	b := putU16([]byte{0x0d}, cid)
	b = append(b, make([]byte, 9)...)
	return append(b, optionRefuse)
}

// redirectPacket sends the client to ip:port (option 4).
func redirectPacket(cid uint16, ip [4]byte, port uint16) []byte {
	b := putU16([]byte{0x13}, cid)
	b = append(b, make([]byte, 9)...)
	b = append(b, optionRedir)
	b = append(b, ip[:]...)
	return putU16(b, port)
}
