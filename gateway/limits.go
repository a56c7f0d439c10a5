package gateway

import (
	"cmp"
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/urlget/urlget/schemes"
)

// DefaultIdleTimeout closes a keep-alive connection on which no next
// request began for this long, when Options.IdleTimeout is zero: a client
// that made its request and went quiet holds no socket for long, and one
// that comes back reconnects, which costs next to nothing on loopback.
const DefaultIdleTimeout = 10 * time.Second

// DefaultReadHeaderTimeout bounds the reading of a request's header, from
// the connection's start or the request's first byte, in the http.Server
// of HTTPServer: a client that connects and sends nothing, or sends its
// header a byte at a time, is closed then.
const DefaultReadHeaderTimeout = 10 * time.Second

// DefaultMaxConnsPerClient is how many connections one client address may
// hold open at once when Options.MaxConnsPerClient is zero: well above
// what browsers open to one server (6 each over HTTP/1.1), so that a few
// browsers and scripts on one machine never meet it, and low enough that
// one address cannot hold every file descriptor of the gateway.
const DefaultMaxConnsPerClient = 128

// HTTPServer returns an http.Server that serves s under the connection
// bounds of s's Options: ReadHeaderTimeout DefaultReadHeaderTimeout,
// IdleTimeout Options.IdleTimeout, and Options.MaxConnsPerClient by a
// ConnState hook. Serve it on a listener (transport.Listen), and
// Shutdown it to stop; a caller may change its fields before serving
// (the hook is what counts connections: keep it, or call it from its
// own).
func (s *Server) HTTPServer() *http.Server {
	return &http.Server{
		Handler:           s,
		ReadHeaderTimeout: DefaultReadHeaderTimeout,
		IdleTimeout:       cmp.Or(max(s.opt.IdleTimeout, 0), DefaultIdleTimeout),
		ConnState:         s.clients.track,
	}
}

// clients counts the connections open from each client address, and
// closes one past max as soon as it is accepted.
type clients struct {
	max  int
	mu   sync.Mutex
	open map[string]int
}

// track is an http.Server's ConnState hook: every connection counts from
// StateNew (which the server reports before it reads anything, in its
// accept loop) to StateClosed or StateHijacked, the one closed here
// included.
func (c *clients) track(conn net.Conn, state http.ConnState) {
	ip := clientIP(conn.RemoteAddr())
	switch state {
	case http.StateNew:
		c.mu.Lock()
		c.open[ip]++
		over := c.open[ip] > c.max
		c.mu.Unlock()
		if over {
			conn.Close()
		}
	case http.StateClosed, http.StateHijacked:
		c.mu.Lock()
		if c.open[ip]--; c.open[ip] <= 0 {
			delete(c.open, ip)
		}
		c.mu.Unlock()
	}
}

// clientIP is the address a's connections are counted under: its IP,
// whatever its port.
func clientIP(a net.Addr) string {
	if tcp, ok := a.(*net.TCPAddr); ok {
		return tcp.IP.String()
	}
	if h, _, err := net.SplitHostPort(a.String()); err == nil {
		return h
	}
	return a.String()
}

// slots bounds the retrievals running at once: all of them (total), and
// those of each destination (per), so that one slow destination holds at
// most its share and the others still get theirs.
type slots struct {
	total chan struct{}
	per   int
	mu    sync.Mutex
	dests map[string]*destSlots
}

// destSlots are one destination's share; users counts the requests
// holding or waiting for one of them, and the entry goes with the last.
type destSlots struct {
	held  chan struct{}
	users int
}

// newSlots returns the slots of MaxUpstream n and MaxUpstreamPerHost per
// (defaults as Options say).
func newSlots(n, per int) *slots {
	if n <= 0 {
		n = DefaultMaxUpstream
	}
	if per <= 0 {
		per = max(1, n/4)
	}
	return &slots{total: make(chan struct{}, n), per: min(per, n), dests: map[string]*destSlots{}}
}

// take waits for a slot of dest's share, then for one of the total, and
// returns release, which gives both back; it fails when ctx ends first.
// The share comes first, so that a request waiting for its destination
// holds nothing another destination's request could use.
func (l *slots) take(ctx context.Context, dest string) (release func(), err error) {
	l.mu.Lock()
	d := l.dests[dest]
	if d == nil {
		d = &destSlots{held: make(chan struct{}, l.per)}
		l.dests[dest] = d
	}
	d.users++
	l.mu.Unlock()
	leave := func() {
		l.mu.Lock()
		if d.users--; d.users == 0 {
			delete(l.dests, dest)
		}
		l.mu.Unlock()
	}
	select {
	case d.held <- struct{}{}:
	case <-ctx.Done():
		leave()
		return nil, fmt.Errorf("%s has its share of retrievals running (%d), and none ended in time", dest, l.per)
	}
	select {
	case l.total <- struct{}{}:
	case <-ctx.Done():
		<-d.held
		leave()
		return nil, fmt.Errorf("it runs %d retrievals at once, and none ended in time", cap(l.total))
	}
	return func() { <-l.total; <-d.held; leave() }, nil
}

// destination is what the share of loc counts under: the host and port
// it connects to, or, for a URL without them (news:id, whose server is
// the Client's), its scheme.
func destination(loc schemes.Locator) string {
	g := loc.Generic()
	if !g.Authority || g.Host == "" {
		return g.Scheme + ":"
	}
	return strings.ToLower(g.HostPort())
}
