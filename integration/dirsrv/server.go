// Package dirsrv is a small, faithful Prospero directory server for
// urlget's integration tests, written from shared/specs/prospero-notes.md
// as a stand-in for the ISI dirsrv (Alpha.5.2a), of which no package
// exists. It shares no code with urlget's client (schemes/prospero): its
// ARDP, tokenizer and quoting are its own, or the tests would prove
// nothing.
//
// ARDP (notes §2–§3): variable-length headers read with their defaults,
// requests reassembled by sequence number, replies cut every 1250 bytes
// and sent in windows of 16 whose last packet asks for an ACK and stops
// the server until one comes, headers in the ISI server's forms, a done
// queue of 20 finished replies, duplicates of a finished request (and
// ACKs of it) answered by resending the window after the client's
// rcvd-thru at most once a second, duplicates of a running one dropped.
//
// Text (notes §4–§8): VERSION, AUTHENTICATE, GET-OBJECT-INFO (ACCESS-METHOD
// with the ISI bug that a native file asked for it alone is NOT-FOUND,
// #ALL, CONTENTS, +-lists), DIRECTORY + LIST (two spaces after LINK,
// FIELD attributes without SEQUENCE, wildcards, multi-component names),
// FORWARDED, FAILURE NOT-FOUND / NOT-AUTHORIZED / NOT-A-DIRECTORY,
// ERROR Unknown message, VERSION-NOT-SUPPORTED TRY 1-5 without LF.
//
// Switches for the client's hard cases are chosen per request by a prefix
// of the hsoname, /switch/<name>[+<name>…]/, which the server strips:
// wait (a wait packet first, the reply a second later), refuse, redirect
// (to AltPort), swap (the byte-swapped CID after the first ACK, notes
// §9.1), drop (packets 2 and 17 lost the first time), dup (every packet
// twice), silent (no reply at all), nomethods (a file's attributes
// without its access methods); and the hostile ones of hostile.go, with
// a count of the packets they got.
package dirsrv

import (
	"errors"
	"fmt"
	"log"
	"net"
	"strings"
	"sync"
	"time"
)

// Server serves Prospero over ARDP. Set the fields before Serve.
type Server struct {
	// Root is the native tree (WriteTree); its hsonames are its absolute
	// paths, and only they and /virtual are exported.
	Root string
	// Host is the host written in LINK and FORWARDED lines.
	Host string
	// Port is the main port, AltPort the second listener's (the target of
	// redirects, forwards and links to "another server").
	Port, AltPort int
	// FTP and Gopher are "host(port)" of the servers the virtual
	// directory's EXTERNAL links point to.
	FTP, Gopher string
	// Log, when set, receives a line per request and per notable event.
	Log *log.Logger

	mu     sync.Mutex
	exs    map[exKey]*exchange
	counts map[string]int // packets of switched requests, by hsoname (hostile.go)
	done   []exKey        // finished replies, oldest first (at most doneQueue)
	conns  []net.PacketConn
}

const (
	doneQueue  = 20
	maxRequest = 64 << 10 // a request message's bound
	maxPackets = 64       // request packets
)

type exKey struct {
	peer string
	cid  uint16
}

// exchange is one request and its reply.
type exchange struct {
	pc       net.PacketConn
	peer     net.Addr
	cid      uint16
	alt      bool // arrived on the AltPort listener
	reqTotal int
	parts    map[int][]byte
	reply    [][]byte // the reply's packets' data; nil until answered
	sw       switches
	tag      string // the hsoname its packets are counted under, if any
	acked    int    // the client's rcvd-thru
	gotAck   bool   // any ACK yet (headers change, swap begins)
	stopped  bool   // waiting for an ACK
	waiting  bool   // the wait switch's pause before the first window
	finished bool   // the reply is built
	queued   bool   // in the done queue
	dropped  map[int]bool
	resent   time.Time
	last     time.Time
}

// Serve answers the packets of pc until it is closed; call it once per
// listener (Port and AltPort), the state is shared.
func (s *Server) Serve(pc net.PacketConn, alt bool) error {
	s.mu.Lock()
	if s.exs == nil {
		s.exs = map[exKey]*exchange{}
	}
	s.conns = append(s.conns, pc)
	s.mu.Unlock()
	buf := make([]byte, 2048)
	for {
		n, peer, err := pc.ReadFrom(buf)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			return err
		}
		s.packet(pc, peer, alt, append([]byte(nil), buf[:n]...))
	}
}

// Close closes every listener.
func (s *Server) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.conns {
		c.Close()
	}
	return nil
}

func (s *Server) logf(format string, args ...any) {
	if s.Log != nil {
		s.Log.Printf(format, args...)
	}
}

// packet handles one datagram.
func (s *Server) packet(pc net.PacketConn, peer net.Addr, alt bool, p []byte) {
	h, data, err := readHeader(p)
	if err != nil {
		s.logf("%s: %v", peer, err)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	key := exKey{peer.String(), h.cid}
	ex := s.exs[key]
	if ex != nil {
		s.count(ex, 1)
	}
	if h.seq == 0 { // control: ACK, cancel
		if ex == nil {
			return
		}
		ex.last = time.Now()
		if h.option == optionRefuse && ex.reply == nil {
			delete(s.exs, key) // canceled while queued
			return
		}
		if h.rcvd > 0 {
			s.ack(ex, int(h.rcvd))
		}
		return
	}
	if ex != nil && ex.finished {
		s.resend(ex) // a duplicate of a request whose reply is built
		return
	}
	if ex == nil {
		s.purge()
		ex = &exchange{pc: pc, peer: peer, cid: h.cid, alt: alt, parts: map[int][]byte{}, dropped: map[int]bool{}}
		s.exs[key] = ex
	}
	ex.last = time.Now()
	if _, dup := ex.parts[int(h.seq)]; dup || int(h.seq) > maxPackets {
		return // a duplicate of a request still arriving: dropped
	}
	if h.total > 0 {
		ex.reqTotal = int(h.total)
	}
	ex.parts[int(h.seq)] = data
	if ex.reqTotal == 0 || len(ex.parts) < ex.reqTotal {
		return
	}
	var msg []byte
	for i := 1; i <= ex.reqTotal; i++ {
		part, ok := ex.parts[i]
		if !ok {
			return
		}
		msg = append(msg, part...)
		if len(msg) > maxRequest {
			delete(s.exs, key)
			return
		}
	}
	s.start(ex, msg)
}

// start answers a whole request: the switches first, then the reply's
// first window.
func (s *Server) start(ex *exchange, msg []byte) {
	text, sw, tag := s.answer(msg)
	ex.sw, ex.tag = sw, tag
	s.count(ex, len(ex.parts))
	s.logf("%s CID %d: %q → %d bytes%s", ex.peer, ex.cid, clip(msg), len(text), sw)
	for len(text) > 0 {
		n := min(len(text), dataPerPacket)
		ex.reply = append(ex.reply, text[:n])
		text = text[n:]
	}
	if ex.reply == nil {
		ex.reply = [][]byte{{}}
	}
	s.finish(ex)
	if s.hostile(ex) {
		return
	}
	switch {
	case sw.has("silent"):
		return
	case sw.has("refuse"):
		s.write(ex, refusePacket(ex.cid))
		return
	case sw.has("redirect") && !ex.alt:
		s.write(ex, redirectPacket(ex.cid, [4]byte{127, 0, 0, 1}, uint16(s.AltPort)))
		return
	case sw.has("wait"):
		s.write(ex, waitPacket(ex.cid, 2))
		ex.waiting = true
		time.AfterFunc(time.Second, func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			ex.waiting = false
			s.sendFrom(ex, 1)
		})
		return
	}
	s.sendFrom(ex, 1)
}

// sendFrom sends packets from..acked+window, the last of a window asking
// for an ACK and stopping the server until it comes.
func (s *Server) sendFrom(ex *exchange, from int) {
	total := len(ex.reply)
	last := min(total, ex.acked+window)
	ex.stopped = false
	for seq := from; seq <= last; seq++ {
		ackMe := seq == ex.acked+window && seq < total
		if ex.sw.has("drop") && (seq == 2 || seq == 17) && !ex.dropped[seq] {
			ex.dropped[seq] = true
			s.logf("CID %d: packet %d dropped on purpose", ex.cid, seq)
			if ackMe {
				ex.stopped = true // it thinks it sent it: it waits for the ACK
				return
			}
			continue
		}
		cid := ex.cid
		if ex.sw.has("swap") && ex.gotAck {
			cid = cid>>8 | cid<<8
		}
		p := append(dataHeader(cid, seq, total, ex.gotAck, ex.reqTotal, ackMe), ex.reply[seq-1]...)
		s.write(ex, p)
		if ex.sw.has("dup") {
			s.write(ex, p)
		}
		if ackMe {
			ex.stopped = true
			return
		}
	}
}

// ack takes the client's rcvd-thru: the ACK the server stopped for
// brings the next window; any other resends the window after it, as a
// duplicate request does.
func (s *Server) ack(ex *exchange, rcvd int) {
	ex.gotAck = true
	if rcvd > ex.acked {
		ex.acked = rcvd
	}
	if ex.reply == nil || ex.acked >= len(ex.reply) {
		return
	}
	if ex.stopped {
		s.sendFrom(ex, ex.acked+1)
		return
	}
	s.resend(ex)
}

// resend answers a duplicate of a finished request, or its ACK, with the
// window after the client's rcvd-thru, at most once a second.
func (s *Server) resend(ex *exchange) {
	if time.Since(ex.resent) < time.Second || ex.reply == nil || ex.waiting || ex.sw.has("silent") || ex.sw.has("refuse") || ex.isHostile() || (ex.sw.has("redirect") && !ex.alt) {
		return
	}
	ex.resent = time.Now()
	s.logf("CID %d: resending from packet %d", ex.cid, ex.acked+1)
	s.sendFrom(ex, ex.acked+1)
}

// finish moves a request whose reply is built to the done queue: from
// then on a duplicate of it is answered from there. A reply stopped for
// an ACK leaves the queue but is not forgotten until purge finds it idle:
// ISI's queue of 20 served one user at a time, this server serves the
// integration tests running in parallel, and a window stopped for a
// client's ACK must not be pushed out by 20 other tests' requests while
// that client's timer runs (it was, once in CI: the ACK of packet 16
// found nothing to resume).
func (s *Server) finish(ex *exchange) {
	ex.finished, ex.queued = true, true
	s.done = append(s.done, exKey{ex.peer.String(), ex.cid})
	if len(s.done) > doneQueue {
		old := s.done[0]
		s.done = s.done[1:]
		if e := s.exs[old]; e != nil && e.finished {
			e.queued = false
			if !e.stopped {
				delete(s.exs, old)
			}
		}
	}
}

// purge forgets exchanges idle for two minutes that are still arriving
// or were kept past the done queue (the others leave with it).
func (s *Server) purge() {
	for k, ex := range s.exs {
		if (!ex.finished || !ex.queued) && time.Since(ex.last) > 2*time.Minute {
			delete(s.exs, k)
		}
	}
}

func (s *Server) write(ex *exchange, p []byte) {
	if _, err := ex.pc.WriteTo(p, ex.peer); err != nil {
		s.logf("%s: %v", ex.peer, err)
	}
}

func clip(b []byte) string {
	s := string(b)
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// switches are the switches a request's hsonames asked for.
type switches map[string]bool

func (sw switches) has(name string) bool { return sw[name] }

func (sw switches) String() string {
	if len(sw) == 0 {
		return ""
	}
	var names []string
	for n := range sw {
		names = append(names, n)
	}
	return fmt.Sprintf(" (switches %s)", strings.Join(names, "+"))
}
