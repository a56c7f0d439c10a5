package dirsrv

import (
	"strconv"
	"time"
)

// Hostile switches (issue 21): a server that tries to keep the client
// busy forever or aim it elsewhere. Each replaces the reply; duplicates
// and ACKs of such a request get nothing more than the switch sends.
//
//	redirectloop   redirect every request to the listener it came to
//	redirectmcast  redirect to MulticastTarget
//	waitlong       a wait packet of 65535 s, then nothing
//	trickle        packet 1 of the reply (total not given), then the same
//	               packet again every TrickleEvery, for TrickleFor
//	badpacket      a packet whose header is longer than the packet
//
// The packets of every request with a switch are counted under its
// hsoname (the switch prefix stripped); /switch/count/<name> answers the
// count for /<name> as the object's PROSPERO-CONTENTS, in decimal.
const (
	TrickleEvery = 2 * time.Second
	TrickleFor   = 3 * time.Minute // longer than any client's patience
)

// MulticastTarget is where redirectmcast sends the client: all hosts on
// the link, at the Prospero port.
var MulticastTarget = [4]byte{224, 0, 0, 1}

// hostileSwitches are the switches hostile answers, for resend.
var hostileSwitches = []string{"redirectloop", "redirectmcast", "waitlong", "trickle", "badpacket"}

// isHostile says whether the exchange asked for a hostile switch.
func (ex *exchange) isHostile() bool {
	for _, n := range hostileSwitches {
		if ex.sw.has(n) {
			return true
		}
	}
	return false
}

// hostile plays the exchange's hostile switch, if it has one.
func (s *Server) hostile(ex *exchange) bool {
	switch {
	case ex.sw.has("redirectloop"):
		port := s.Port
		if ex.alt {
			port = s.AltPort
		}
		s.write(ex, redirectPacket(ex.cid, [4]byte{127, 0, 0, 1}, uint16(port)))
	case ex.sw.has("redirectmcast"):
		s.write(ex, redirectPacket(ex.cid, MulticastTarget, uint16(s.Port)))
	case ex.sw.has("waitlong"):
		s.write(ex, waitPacket(ex.cid, 65535))
	case ex.sw.has("trickle"):
		p := append(dataHeader(ex.cid, 1, 0, false, 0, false), ex.reply[0]...) // total 0: not known yet
		s.write(ex, p)
		go s.trickle(ex, p)
	case ex.sw.has("badpacket"):
		s.write(ex, putU16([]byte{0x09}, ex.cid)) // 9 octets of header announced, 3 sent
	default:
		return false
	}
	return true
}

// trickle resends p every TrickleEvery until TrickleFor has passed or the
// server closes.
func (s *Server) trickle(ex *exchange, p []byte) {
	tick := time.NewTicker(TrickleEvery)
	defer tick.Stop()
	for end := time.Now().Add(TrickleFor); time.Now().Before(end); {
		<-tick.C
		if _, err := ex.pc.WriteTo(p, ex.peer); err != nil {
			return // the listener is closed
		}
	}
}

// count adds n packets to the count of an exchange's hsoname.
func (s *Server) count(ex *exchange, n int) {
	if ex.tag == "" {
		return
	}
	if s.counts == nil {
		s.counts = map[string]int{}
	}
	s.counts[ex.tag] += n
}

// countReply answers GET-OBJECT-INFO for /switch/count/<name>: the count
// as the contents, or the access method that says to ask for them.
func (r *request) countReply(attrs []string, hso string) {
	for _, a := range attrs {
		if a == "CONTENTS" {
			line(&r.out, "ATTRIBUTE OBJECT INTRINSIC CONTENTS SEQUENCE DATA", strconv.Itoa(r.s.counts[hso]))
			return
		}
	}
	line(&r.out, "ATTRIBUTE OBJECT INTRINSIC ACCESS-METHOD SEQUENCE", "PROSPERO-CONTENTS", "", "", "", "")
}
