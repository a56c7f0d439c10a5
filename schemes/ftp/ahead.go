package ftp

import (
	"context"
	"net"
	"strconv"
	"time"

	"github.com/urlget/urlget/schemes"
)

// codeExtendedPassive is EPSV's reply (RFC 2428 §3): "229 Entering
// Extended Passive Mode (|||port|)".
const codeExtendedPassive = 229

// aheadMaxAge is how long a passive port asked for ahead is used: a server
// listens on it until the next transfer command or EPSV, but a session
// idle in the pool that long is better given a fresh one.
const aheadMaxAge = 10 * time.Second

// The next file's EPSV goes with RETR (schemes.Pipelines). A passive data
// connection costs two round trips before its first byte: EPSV's, then
// the connection's handshake, which RETR's rides on. The EPSV of the next
// file the caller names (schemes.NextOf) is sent right behind RETR: the
// server reads it once the transfer is over and answers it at once, so
// its 229 arrives with the 226 and the next file's connection starts
// without waiting — a small file over a WAN takes two round trips rather
// than three. vsftpd and proftpd answer 226 then 229, with the EPSV read
// during the transfer; pure-ftpd reads it during the transfer and answers
// "500 Unknown command" before its 226, or after a short one 229. A
// server that refuses one, or does not answer within aheadWait (which
// costs its session), is sent none ahead from then on (Handler.noAhead).

// sendsAhead says whether the EPSV of the next file goes with this
// request's RETR: the caller names a next file of the same server and
// scheme, the session can be kept for it, the server knows EPSV, and
// answered one sent ahead before (or was never asked).
func (h *Handler) sendsAhead(ctx context.Context, c *ctrl, loc *URL, req *schemes.Request) bool {
	next := schemes.NextOf(ctx)
	if h.NoPipeline || len(next) == 0 || c.noEPSV || req.Conns == nil || !c.key.Pooled() {
		return false
	}
	n, ok := next[0].(*URL)
	if !ok || n.u.Scheme != loc.u.Scheme || n.u.Host != loc.u.Host || n.u.EffectivePort() != loc.u.EffectivePort() {
		return false
	}
	_, refused := h.noAhead.Load(c.peer())
	return !refused
}

// peer is the server's address, the key of Handler.noAhead.
func (c *ctrl) peer() string { return net.JoinHostPort(c.host, strconv.Itoa(c.port)) }

// sendAhead sends the EPSV of the next transfer; its reply follows the
// transfer's (readAhead).
func (c *ctrl) sendAhead() error {
	if err := c.send("EPSV"); err != nil {
		return err
	}
	c.aheadSent = true
	return nil
}

// aheadWait bounds the wait for the reply to an EPSV sent ahead once the
// transfer's reply is in: the server answers at once, a round trip at
// most behind; four of EPSV's last, a second at least.
func (c *ctrl) aheadWait() time.Duration { return max(time.Second, 4*c.rtt) }

// readAhead reads the reply to the EPSV sent ahead, if one was: a 229
// keeps its port for the next data connection (takeAhead), a refusal
// keeps nothing. A server silent for aheadWait, or a read that fails,
// leaves the session broken, and the server is not sent EPSV ahead again
// by its Handler.
func (c *ctrl) readAhead() {
	if !c.aheadSent {
		return
	}
	c.nc.SetReadDeadline(time.Now().Add(c.aheadWait()))
	rp, err := c.read()
	c.nc.SetReadDeadline(time.Time{})
	if err != nil {
		c.tr.Info("no reply to the EPSV sent ahead (" + err.Error() + "): closing the session; EPSV goes in its turn from now on")
		if c.noAhead != nil {
			c.noAhead.Store(c.peer(), true)
		}
		c.broken = true
		return
	}
	c.keepAhead(rp)
}

// keepAhead records the reply to the EPSV sent ahead. A server that
// refuses it (pure-ftpd, to a command during a transfer) is sent none
// ahead again by the Handler.
func (c *ctrl) keepAhead(rp reply) {
	c.aheadSent = false
	if rp.Code != codeExtendedPassive {
		c.tr.Info("the EPSV sent ahead was refused: EPSV goes in its turn from now on")
		if c.noAhead != nil {
			c.noAhead.Store(c.peer(), true)
		}
		return
	}
	if p, ok := parseEPSV(rp.Text()); ok {
		c.aheadPort, c.aheadAt = p, time.Now()
	}
}

// hasAhead says whether takeAhead has a passive port to give.
func (c *ctrl) hasAhead() bool { return c.aheadPort != 0 && time.Since(c.aheadAt) < aheadMaxAge }

// takeAhead returns the passive port asked for ahead, 0 when there is
// none or it is older than aheadMaxAge, and forgets it.
func (c *ctrl) takeAhead() int {
	p := c.aheadPort
	c.aheadPort = 0
	if time.Since(c.aheadAt) >= aheadMaxAge {
		return 0
	}
	return p
}
