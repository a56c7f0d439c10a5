package prospero

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"time"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// The ISI client's retry schedule (prospero-notes §3): a first timeout of
// 4 s doubled at each of 3 retries, so about a minute in all; any new
// packet in order starts it again.
const (
	firstTimeout = 4 * time.Second
	retries      = 3
)

// errNoReply is a peer that never answered within the schedule.
var errNoReply = errors.New("no reply from the server")

// errRefused is the server's refusal (option 1).
var errRefused = errors.New("the server refused the request")

// redialFunc opens a datagram socket to a redirect's address.
type redialFunc func(ctx context.Context, to netip.AddrPort) (net.Conn, error)

// ardpClient carries one request message to the server and its reply
// back, over c (a connected datagram socket): the schedule of §3, ACKs
// when asked and after completion, waits, refusals and redirects, within
// the bounds of limits.go. It returns the socket in use at the end (a
// redirect replaces c; the caller closes what it gets back).
type ardpClient struct {
	c       net.Conn
	redial  redialFunc
	first   time.Duration // firstTimeout; tests shorten it
	limit   time.Duration // exchangeTimeout; tests shorten it
	note    func(string)  // trace notes
	packets [][]byte      // the request, cut into packets
	// firstReply bounds the wait for the server's first packet (the
	// Dialer's ConnectTimeout, --connect-timeout), idle the wait for each
	// packet after it (--idle-timeout), and the first too when firstReply
	// is 0; 0 and 0: only the ISI schedule and the exchange's deadline.
	// The schedule's resends go on within them.
	firstReply, idle time.Duration
	// local lists this host's networks, for the directed broadcast
	// addresses a redirect may not name; nil: localNetworks.
	local func() []netip.Prefix
	// words name the settings that bound an exchange, in its timeouts'
	// errors, as the caller does.
	words schemes.Words
}

func (a *ardpClient) exchange(ctx context.Context, cid uint16, msg []byte) ([]byte, error) {
	if a.first == 0 {
		a.first = firstTimeout
	}
	if a.limit == 0 {
		a.limit = exchangeTimeout
	}
	if a.note == nil {
		a.note = func(string) {}
	}
	if a.local == nil {
		a.local = localNetworks
	}
	// One deadline for the whole exchange, which nothing the server sends
	// moves: the caller's when it has one, else exchangeTimeout.
	end, callers := ctx.Deadline()
	if !callers {
		end = time.Now().Add(a.limit)
	}
	a.packets = requestPackets(cid, msg)
	r := newReceiver(cid)
	r.sent = len(a.packets)
	if err := a.send(r.peerRcvd); err != nil {
		return nil, err
	}
	// The wait for a packet, by the user's timeouts: from the request
	// (or a redirect's) to the first packet, then between packets.
	heard, packets, sends := time.Now(), 0, 1
	silentUntil := func() (time.Time, bool) {
		d := a.idle
		if packets == 0 && a.firstReply > 0 {
			d = a.firstReply
		}
		return heard.Add(d), d > 0
	}
	// The retry timer runs from the last packet that moved the exchange
	// on (a new packet in order, a wait, a redirect): duplicates and
	// strays do not restart it.
	timeout, left := a.first, retries
	retryAt := time.Now().Add(timeout)
	redirects := 0
	buf := make([]byte, maxPacket+1) // one more: an oversized packet shows
	for {
		dl := earlier(retryAt, end)
		if su, ok := silentUntil(); ok {
			dl = earlier(dl, su)
		}
		a.c.SetReadDeadline(dl)
		n, err := a.c.Read(buf)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if !errors.Is(err, os.ErrDeadlineExceeded) {
				return nil, err
			}
			now := time.Now()
			if su, ok := silentUntil(); ok && !now.Before(su) && now.Before(end) {
				return nil, a.silent(packets, sends)
			}
			if now.Before(retryAt) && now.Before(end) {
				// The socket's own idle deadline (transport.Conn), before
				// the schedule's or the user's: keep waiting.
				continue
			}
			if !now.Before(end) {
				if callers {
					// The caller's deadline, which has passed: its context
					// says so a moment later, and then the caller sees its
					// own cause (urlget: "--max-time 3s expired").
					<-ctx.Done()
					return nil, ctx.Err()
				}
				return nil, a.tooLong()
			}
			if left == 0 {
				return nil, errNoReply
			}
			left--
			timeout *= 2
			retryAt = now.Add(timeout)
			if int(r.peerRcvd) >= len(a.packets) {
				// The server has the whole request: what is missing is
				// reply packets, which it resends after the ACK's
				// rcvd-thru (notes §3). A resent request would be empty.
				a.note(fmt.Sprintf("no packet for a while: acknowledging packet %d again to have the rest resent (%d retries left)", r.inOrder, left))
				if _, err := a.c.Write(r.ack()); err != nil {
					return nil, err
				}
				continue
			}
			a.note(fmt.Sprintf("no packet for a while: sending the request again (%d retries left)", left))
			if err := a.send(r.peerRcvd); err != nil {
				return nil, err
			}
			sends++
			continue
		}
		heard = time.Now()
		packets++
		if n > maxPacket {
			return nil, protocolError("a packet of more than %d octets", maxPacket)
		}
		before := r.inOrder
		ev, err := r.accept(buf[:n])
		if err != nil {
			return nil, protocolError("%v", err)
		}
		switch ev {
		case evRefused:
			return nil, errRefused
		case evWait:
			w := time.Duration(r.wait) * time.Second
			if w > maxWait {
				a.note(fmt.Sprintf("the server asks to wait %d s: waiting %v at most", r.wait, maxWait))
				w = maxWait
			} else {
				a.note(fmt.Sprintf("the server asks to wait %d s", r.wait))
			}
			timeout, left = max(timeout, w), retries
			retryAt = time.Now().Add(timeout)
		case evRedirect:
			if err := a.follow(ctx, r.redirect, &redirects); err != nil {
				return nil, err
			}
			// A new server: its first packet is awaited afresh.
			heard, packets, sends = time.Now(), 0, 1
			timeout, left = a.first, retries
			retryAt = time.Now().Add(timeout)
		}
		if r.inOrder > before {
			timeout, left = a.first, retries
			retryAt = time.Now().Add(timeout)
		}
		if r.ackDue || r.complete() && r.total > 1 {
			if _, err := a.c.Write(r.ack()); err != nil {
				return nil, err
			}
		}
		if r.complete() {
			if r.swapped {
				a.note("the server used the byte-swapped connection id (a known ISI server bug)")
			}
			return r.message(), nil
		}
	}
}

// follow takes the request to a redirect's address, if it is the
// redirects'th of at most maxRedirects and checkRedirect allows it.
func (a *ardpClient) follow(ctx context.Context, to netip.AddrPort, redirects *int) error {
	*redirects++
	if *redirects > maxRedirects {
		return protocolError("more than %d redirects (the last to %s): a redirect loop?", maxRedirects, to)
	}
	var from netip.Addr
	if ua, ok := a.c.RemoteAddr().(*net.UDPAddr); ok {
		from = ua.AddrPort().Addr()
	}
	if err := checkRedirect(from, to, a.local()); err != nil {
		return err
	}
	a.note("the server redirects the request to " + to.String())
	nc, err := a.redial(ctx, to)
	if err != nil {
		return err
	}
	a.c.Close()
	a.c = nc
	return a.send(0)
}

// tooLong is the end of exchangeTimeout: a timeout, though the server
// kept sending (duplicates, waits, a trickle).
func (a *ardpClient) tooLong() error {
	return &schemes.Error{Scheme: "prospero", Phase: "resolve", Kind: schemes.KindTimeout, Retryable: true,
		Msg: fmt.Sprintf("no complete reply within %v, urlget's bound on one ARDP exchange (%s sets another)", a.limit,
			a.words.Setting(schemes.SettingMaxTime))}
}

// silent is the end of the user's bound on waiting for a packet: the
// first (firstReply, or idle when that is 0), or one after the packets
// already received (idle). The request was sent sends times.
func (a *ardpClient) silent(packets, sends int) error {
	var msg string
	sent := "once"
	if sends > 1 {
		sent = fmt.Sprintf("%d times", sends)
	}
	switch {
	case packets == 0 && a.firstReply > 0:
		msg = fmt.Sprintf("no reply from the server within %v (%s, which bounds the wait for a "+
			"datagram server's first packet; the request was sent %s)", a.firstReply, a.words.Setting(transport.SettingConnectTimeout), sent)
	case packets == 0:
		msg = fmt.Sprintf("no reply from the server within %v (%s; the request was sent %s)", a.idle,
			a.words.Setting(transport.SettingIdleTimeout), sent)
	default:
		unit := "packets"
		if packets == 1 {
			unit = "packet"
		}
		msg = fmt.Sprintf("the server fell silent for %v after %d %s (%s)", a.idle, packets, unit,
			a.words.Setting(transport.SettingIdleTimeout))
	}
	return &schemes.Error{Scheme: "prospero", Phase: "resolve", Kind: schemes.KindTimeout, Retryable: true, Msg: msg}
}

// earlier is the earlier of two times.
func earlier(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// send (re)sends the request packets above rcvd.
func (a *ardpClient) send(rcvd uint16) error {
	for i, p := range a.packets {
		if i < int(rcvd) {
			continue
		}
		if _, err := a.c.Write(p); err != nil {
			return err
		}
	}
	return nil
}
