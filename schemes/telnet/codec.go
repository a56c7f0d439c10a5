package telnet

// maxSubneg bounds a subnegotiation's parameters; a longer one (a broken or
// hostile server) is discarded rather than buffered without limit.
const maxSubneg = 1024

// decoder splits the byte stream from the server into data and telnet
// commands (RFC 854): IAC IAC is a data byte 255, IAC WILL/WONT/DO/DONT opt
// a negotiation, IAC SB opt ... IAC SE a subnegotiation. It keeps its
// state between calls, so commands split across reads are handled.
type decoder struct {
	state    int
	cmd      byte
	sb       []byte
	overflow bool
}

const (
	decData  = iota
	decIAC   // after IAC
	decNeg   // after IAC WILL/WONT/DO/DONT
	decSB    // inside IAC SB ... (first byte is the option)
	decSBIAC // IAC inside a subnegotiation
)

// sink receives what decoder finds.
type sink interface {
	data(p []byte)
	negotiate(cmd, opt byte)
	subnegotiate(opt byte, params []byte)
	command(cmd byte) // GA, NOP, DM, AYT, ...
}

// feed decodes p. Runs of data bytes are passed on in slices of p (or of a
// small buffer for IAC IAC) and are valid only during the call.
func (d *decoder) feed(p []byte, s sink) {
	start := -1 // start of the current run of data in p
	flush := func(end int) {
		if start >= 0 && end > start {
			s.data(p[start:end])
		}
		start = -1
	}
	for i, c := range p {
		switch d.state {
		case decData:
			if c == cmdIAC {
				flush(i)
				d.state = decIAC
			} else if start < 0 {
				start = i
			}
		case decIAC:
			switch c {
			case cmdIAC:
				s.data([]byte{cmdIAC})
				d.state = decData
			case cmdWILL, cmdWONT, cmdDO, cmdDONT:
				d.cmd, d.state = c, decNeg
			case cmdSB:
				d.sb, d.overflow, d.state = d.sb[:0], false, decSB
			default:
				s.command(c)
				d.state = decData
			}
		case decNeg:
			s.negotiate(d.cmd, c)
			d.state = decData
		case decSB:
			if c == cmdIAC {
				d.state = decSBIAC
			} else {
				d.sbByte(c)
			}
		case decSBIAC:
			switch c {
			case cmdIAC:
				d.sbByte(cmdIAC)
				d.state = decSB
			case cmdSE:
				if len(d.sb) > 0 && !d.overflow {
					s.subnegotiate(d.sb[0], d.sb[1:])
				}
				d.state = decData
			default:
				// RFC 854 leaves this undefined; like BSD telnet, end the
				// subnegotiation and treat the byte as the command it is.
				d.state = decIAC
				d.feedOne(c, s)
			}
		}
	}
	if d.state == decData {
		flush(len(p))
	}
}

func (d *decoder) feedOne(c byte, s sink) { d.feed([]byte{c}, s) }

func (d *decoder) sbByte(c byte) {
	if len(d.sb) >= maxSubneg {
		d.overflow = true
		return
	}
	d.sb = append(d.sb, c)
}

// escapeIAC appends p to dst with every 255 byte doubled (RFC 854: data
// byte 255 is sent as IAC IAC).
func escapeIAC(dst, p []byte) []byte {
	for _, c := range p {
		if c == cmdIAC {
			dst = append(dst, cmdIAC)
		}
		dst = append(dst, c)
	}
	return dst
}
