package telnet

import "fmt"

// Telnet commands (RFC 854) and the option codes urlget knows by name.
const (
	cmdSE   = 240 // end of subnegotiation
	cmdNOP  = 241
	cmdDM   = 242 // data mark
	cmdBRK  = 243
	cmdIP   = 244
	cmdAO   = 245
	cmdAYT  = 246
	cmdEC   = 247
	cmdEL   = 248
	cmdGA   = 249 // go ahead
	cmdSB   = 250 // start of subnegotiation
	cmdWILL = 251
	cmdWONT = 252
	cmdDO   = 253
	cmdDONT = 254
	cmdIAC  = 255

	optBinary = 0  // RFC 856
	optEcho   = 1  // RFC 857
	optSGA    = 3  // RFC 858, suppress go-ahead
	optTTYPE  = 24 // RFC 1091, terminal type
	optNAWS   = 31 // RFC 1073, window size

	ttypeIS   = 0 // TERMINAL-TYPE IS
	ttypeSEND = 1 // TERMINAL-TYPE SEND
)

var optionNames = map[byte]string{
	optBinary: "BINARY", optEcho: "ECHO", optSGA: "SUPPRESS-GO-AHEAD", optTTYPE: "TERMINAL-TYPE",
	optNAWS: "NAWS", 5: "STATUS", 6: "TIMING-MARK", 32: "TERMINAL-SPEED", 33: "TOGGLE-FLOW-CONTROL",
	34: "LINEMODE", 35: "X-DISPLAY-LOCATION", 36: "OLD-ENVIRON", 37: "AUTHENTICATION", 38: "ENCRYPT",
	39: "NEW-ENVIRON",
}

var commandNames = map[byte]string{
	cmdSE: "SE", cmdNOP: "NOP", cmdDM: "DM", cmdBRK: "BRK", cmdIP: "IP", cmdAO: "AO", cmdAYT: "AYT",
	cmdEC: "EC", cmdEL: "EL", cmdGA: "GA", cmdSB: "SB", cmdWILL: "WILL", cmdWONT: "WONT", cmdDO: "DO",
	cmdDONT: "DONT", cmdIAC: "IAC",
}

// optionName names an option for traces and --explain ("ECHO", "option 99").
func optionName(opt byte) string {
	if n, ok := optionNames[opt]; ok {
		return n
	}
	return fmt.Sprintf("option %d", opt)
}

// commandName names a command byte ("WILL", "byte 17").
func commandName(c byte) string {
	if n, ok := commandNames[c]; ok {
		return n
	}
	return fmt.Sprintf("byte %d", c)
}

// qstate is one side's state of an option in the Q method of RFC 1143.
type qstate uint8

const (
	qNo      qstate = iota // disabled
	qYes                   // enabled
	qWantNo                // we asked to disable, no answer yet
	qWantYes               // we asked to enable, no answer yet
)

// qside is the state of one side of one option with its one-bit queue:
// opposite means that once the pending request is answered, the opposite
// request is to be made.
type qside struct {
	state    qstate
	opposite bool
}

// negotiator carries out option negotiation by the Q method of RFC 1143,
// which never answers an acknowledgement and so cannot loop, however the
// peer behaves: every command received yields at most one reply.
//
// "us" is this side of an option (we send WILL/WONT, the peer DO/DONT);
// "him" is the peer's side (we send DO/DONT, the peer WILL/WONT).
type negotiator struct {
	us, him [256]qside
	// allowUs and allowHim say whether an option may be enabled on our
	// side and on the peer's; anything they refuse is refused politely
	// (DONT for a WILL, WONT for a DO) and never re-offered.
	allowUs, allowHim func(opt byte) bool
	// send writes IAC cmd opt to the peer.
	send func(cmd, opt byte)
	// changed is told when an option becomes enabled or disabled (local
	// true for our side). It may be nil.
	changed func(opt byte, local, enabled bool)
}

// enabled reports whether opt is in effect on our side (local) or the peer's.
func (n *negotiator) enabled(opt byte, local bool) bool {
	if local {
		return n.us[opt].state == qYes
	}
	return n.him[opt].state == qYes
}

// receive handles WILL, WONT, DO or DONT for opt from the peer.
func (n *negotiator) receive(cmd, opt byte) {
	switch cmd {
	case cmdWILL:
		n.peerEnables(&n.him[opt], opt, false, n.allowHim, cmdDO, cmdDONT)
	case cmdWONT:
		n.peerDisables(&n.him[opt], opt, false, cmdDONT, cmdDO)
	case cmdDO:
		n.peerEnables(&n.us[opt], opt, true, n.allowUs, cmdWILL, cmdWONT)
	case cmdDONT:
		n.peerDisables(&n.us[opt], opt, true, cmdWONT, cmdWILL)
	}
}

// peerEnables handles a WILL (for him) or DO (for us): RFC 1143 §7.
func (n *negotiator) peerEnables(s *qside, opt byte, local bool, allow func(byte) bool, yes, no byte) {
	switch s.state {
	case qNo:
		if allow != nil && allow(opt) {
			s.state = qYes
			n.send(yes, opt)
			n.notify(opt, local, true)
		} else {
			n.send(no, opt)
		}
	case qYes:
		// Already enabled: an acknowledgement, or a peer repeating itself.
		// Answering would start a loop.
	case qWantNo:
		// Error: our disable request was answered by enable.
		if s.opposite {
			s.state, s.opposite = qYes, false
			n.notify(opt, local, true)
		} else {
			s.state = qNo
		}
	case qWantYes:
		if s.opposite {
			s.state, s.opposite = qWantNo, false
			n.send(no, opt)
		} else {
			s.state = qYes
			n.notify(opt, local, true)
		}
	}
}

// peerDisables handles a WONT (for him) or DONT (for us): RFC 1143 §7.
func (n *negotiator) peerDisables(s *qside, opt byte, local bool, ack, reask byte) {
	switch s.state {
	case qNo:
		// Already disabled: never answered.
	case qYes:
		s.state = qNo
		n.send(ack, opt)
		n.notify(opt, local, false)
	case qWantNo:
		if s.opposite {
			s.state, s.opposite = qWantYes, false
			n.send(reask, opt)
		} else {
			s.state = qNo
			n.notify(opt, local, false)
		}
	case qWantYes:
		// Our request was refused.
		s.state, s.opposite = qNo, false
	}
}

// ask requests that opt be enabled (enable true) or disabled on our side
// (local) or the peer's, queueing the request when one is pending.
func (n *negotiator) ask(opt byte, local, enable bool) {
	s, yes, no := &n.him[opt], byte(cmdDO), byte(cmdDONT)
	if local {
		s, yes, no = &n.us[opt], cmdWILL, cmdWONT
	}
	switch {
	case enable && s.state == qNo:
		s.state = qWantYes
		n.send(yes, opt)
	case enable && s.state == qWantNo:
		s.opposite = true
	case enable && s.state == qWantYes:
		s.opposite = false
	case !enable && s.state == qYes:
		s.state = qWantNo
		n.send(no, opt)
	case !enable && s.state == qWantYes:
		s.opposite = true
	case !enable && s.state == qWantNo:
		s.opposite = false
	}
}

func (n *negotiator) notify(opt byte, local, enabled bool) {
	if n.changed != nil {
		n.changed(opt, local, enabled)
	}
}
