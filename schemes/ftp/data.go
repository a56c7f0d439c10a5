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

// openData asks for a passive data connection and connects to it: EPSV
// first (RFC 2428, the only form that works over IPv6), PASV when the
// server does not know EPSV. The address in a PASV reply is ignored: the
// data connection goes to the control connection's peer, so a server (or
// a man in the middle) cannot point the client at a third host. The data
// connection belongs to the control connection's trace scope.
func (c *ctrl) openData(ctx context.Context, loc *URL, d schemes.Dialer) (net.Conn, error) {
	port := c.takeAhead()
	if port != 0 {
		c.tr.Info("the passive port asked for during the last transfer")
	}
	if port == 0 && !c.noEPSV {
		start := time.Now()
		rp, err := c.cmd("EPSV")
		if !c.piped {
			c.rtt = time.Since(start)
		}
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
	dc, err := d.Dial(schemes.WithTrace(ctx, c.tr), loc.u.Scheme, c.host, port)
	if err != nil {
		var se *schemes.Error
		if errors.As(err, &se) {
			se.Phase, se.Retryable = "data", se.Retryable || se.Kind == schemes.KindConnect
			return nil, se
		}
		return nil, ioError(loc, "data", err)
	}
	dc, _ = transport.Bound(ctx, dc)
	return dc, nil
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
