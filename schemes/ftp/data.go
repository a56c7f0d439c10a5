package ftp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// openData asks for a passive data connection and starts connecting to
// it: EPSV first (RFC 2428, the only form that works over IPv6), PASV
// when the server does not know EPSV. The address in a PASV reply is
// ignored: the data connection goes to the control connection's peer, so
// a server (or a man in the middle) cannot point the client at a third
// host. The data connection belongs to the control connection's trace
// scope.
//
// The connection is dialed while the caller sends the transfer command:
// a passive server listens from its 229 on and accepts when the command
// comes (RFC 959 §3.2 leaves the order to the client), so the command's
// round trip and the connection's overlap — a round trip saved per file,
// which over a WAN is a third of a small file's time.
func (c *ctrl) openData(ctx context.Context, loc *URL, d schemes.Dialer) (*dataDial, error) {
	port := 0
	start := time.Now()
	if !c.noEPSV {
		rp, err := c.cmd("EPSV")
		if err != nil {
			return nil, ioError(loc, "data", err)
		}
		switch {
		case rp.Code == 229:
			p, ok := parseEPSV(rp.Text())
			if !ok {
				c.broken = true
				return nil, protoError(loc, "data", "unreadable EPSV reply "+c.redact(rp.String()), nil)
			}
			port = p
		case rp.Code == 421:
			return nil, c.replyError(loc, "data", "EPSV", rp)
		default:
			c.noEPSV = true
		}
	}
	if port == 0 {
		rp, err := c.cmd("PASV")
		if err != nil {
			return nil, ioError(loc, "data", err)
		}
		if rp.Code != 227 {
			return nil, c.replyError(loc, "data", "PASV", rp)
		}
		p, ok := parsePASV(rp.Text())
		if !ok {
			c.broken = true
			return nil, protoError(loc, "data", "unreadable PASV reply "+c.redact(rp.String()), nil)
		}
		port = p
	}
	c.tr.Info(fmt.Sprintf("data connection to %s", net.JoinHostPort(c.host, strconv.Itoa(port))))
	dctx, cancel := context.WithCancel(ctx)
	dd := &dataDial{done: make(chan struct{}), cancel: cancel, rtt: time.Since(start)}
	go func() {
		defer close(dd.done)
		dc, err := d.Dial(schemes.WithTrace(dctx, c.tr), loc.u.Scheme, c.host, port)
		if err != nil {
			var se *schemes.Error
			if errors.As(err, &se) {
				se.Phase, se.Retryable = "data", se.Retryable || se.Kind == schemes.KindConnect
				dd.err = se
				return
			}
			dd.err = ioError(loc, "data", err)
			return
		}
		// Bound to the request's context, not the dial's, which ends.
		dd.conn, _ = transport.Bound(ctx, dc)
	}()
	return dd, nil
}

// dataDial is a data connection being dialed (openData).
type dataDial struct {
	done   chan struct{}
	cancel context.CancelFunc
	rtt    time.Duration // EPSV's (or PASV's) round trip
	conn   net.Conn
	err    error
}

// wait returns the connection once it is made, or why it was not.
func (dd *dataDial) wait() (net.Conn, error) {
	<-dd.done
	dd.cancel()
	return dd.conn, dd.err
}

// failed tells whether the dial has ended without a connection.
func (dd *dataDial) failed() bool {
	select {
	case <-dd.done:
		return dd.err != nil
	default:
		return false
	}
}

// discard stops the dial and closes what it made: the transfer command
// failed.
func (dd *dataDial) discard() {
	dd.cancel()
	<-dd.done
	if dd.conn != nil {
		dd.conn.Close()
	}
}

// parseEPSV reads the port of "229 Entering Extended Passive Mode (|||6446|)".
func parseEPSV(text string) (int, bool) {
	i := strings.IndexByte(text, '(')
	j := strings.LastIndexByte(text, ')')
	if i < 0 || j < i+5 {
		return 0, false
	}
	s := text[i+1 : j]
	d := s[0]
	parts := strings.Split(s, string(d))
	if len(parts) != 5 || parts[4] != "" {
		return 0, false
	}
	p, err := strconv.Atoi(parts[3])
	if err != nil || p <= 0 || p > 65535 {
		return 0, false
	}
	return p, true
}

// parsePASV reads the port of "227 Entering Passive Mode (h1,h2,h3,h4,p1,p2)".
// The host numbers must be well formed but are otherwise ignored.
func parsePASV(text string) (int, bool) {
	start := strings.IndexFunc(text, func(r rune) bool { return r >= '0' && r <= '9' })
	if start < 0 {
		return 0, false
	}
	s := text[start:]
	end := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != ',' })
	if end >= 0 {
		s = s[:end]
	}
	f := strings.Split(s, ",")
	if len(f) != 6 {
		return 0, false
	}
	var n [6]int
	for i, v := range f {
		x, err := strconv.Atoi(v)
		if err != nil || x < 0 || x > 255 {
			return 0, false
		}
		n[i] = x
	}
	p := n[4]<<8 | n[5]
	return p, p > 0
}
