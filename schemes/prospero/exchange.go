package prospero

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"time"
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
// when asked and after completion, waits, refusals and redirects. It
// returns the socket in use at the end (a redirect replaces c; the caller
// closes what it gets back).
type ardpClient struct {
	c       net.Conn
	redial  redialFunc
	first   time.Duration // firstTimeout; tests shorten it
	note    func(string)  // trace notes
	packets [][]byte      // the request, cut into packets
}

func (a *ardpClient) exchange(ctx context.Context, cid uint16, msg []byte) ([]byte, error) {
	if a.first == 0 {
		a.first = firstTimeout
	}
	if a.note == nil {
		a.note = func(string) {}
	}
	a.packets = requestPackets(cid, msg)
	r := newReceiver(cid)
	if err := a.send(r.peerRcvd); err != nil {
		return nil, err
	}
	timeout, left := a.first, retries
	buf := make([]byte, maxPacket)
	for {
		deadline, ours := time.Now().Add(timeout), false
		if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
			deadline, ours = d, true
		}
		a.c.SetReadDeadline(deadline)
		n, err := a.c.Read(buf)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if ours && errors.Is(err, os.ErrDeadlineExceeded) {
				// The caller's deadline, a moment before its context says so.
				return nil, context.DeadlineExceeded
			}
			if !errors.Is(err, os.ErrDeadlineExceeded) {
				return nil, err
			}
			if left == 0 {
				return nil, errNoReply
			}
			left--
			timeout *= 2
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
			continue
		}
		before := r.inOrder
		ev, err := r.accept(buf[:n])
		if err != nil {
			return nil, err
		}
		switch ev {
		case evRefused:
			return nil, errRefused
		case evWait:
			a.note(fmt.Sprintf("the server asks to wait %d s", r.wait))
			timeout, left = max(timeout, time.Duration(r.wait)*time.Second), retries
		case evRedirect:
			a.note("the server redirects the request to " + r.redirect.String())
			nc, err := a.redial(ctx, r.redirect)
			if err != nil {
				return nil, err
			}
			a.c.Close()
			a.c = nc
			if err := a.send(0); err != nil {
				return nil, err
			}
		}
		if r.inOrder > before {
			timeout, left = a.first, retries
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
