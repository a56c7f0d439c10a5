package nntp

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// Pipelining (RFC 3977 §3.5): a client may send commands before the
// replies to the ones before have come, and the server answers them in
// order. When a request for an article comes with the articles the caller
// will ask for next (schemes.NextOf), the Handler writes their ARTICLE
// (HEAD, BODY) commands on the same connection as soon as the first
// reply's status line says the session works, up to Window commands
// ahead. The connection then holds replies nobody has read: it cannot go
// back to the pool, whose liveness check would take the waiting bytes for
// a server speaking unasked. It is parked in the Handler instead, under
// the command whose reply comes next, and the request for that article
// takes it from there and reads its reply without sending anything. A
// reply of failure (430, 423) is that article's error; the replies after
// it are read by the requests after it. Only the article being read is in
// memory: the replies to come wait in the socket's buffers, a window's
// worth at most.

// DefaultWindow is how many article commands the Handler keeps
// outstanding on a connection when Handler.Window is 0.
//
// With 32, 1,000 news:<id> URLs over a 40 ms round trip took 2.55 s, of
// which the window's bound is 1.25 s (32 replies a round trip); with 64,
// 1.5 s.
const DefaultWindow = 64

// parkTimeout is how long a connection with replies waiting stays parked
// for the request of the next one. A caller that said it would ask for an
// article and then does not leaves it to be closed then.
var parkTimeout = 5 * time.Second

// pipedCmd is an article command sent ahead: its line and the group its
// article number is relative to ("" for a message-id, valid in any group).
type pipedCmd struct {
	group string
	line  string
}

// parkKey is where a connection with replies waiting is parked: the key
// its pooled sessions would have, and the command whose reply comes next.
type parkKey struct {
	conn schemes.ConnKey
	next pipedCmd
}

// parkedSession is a session parked with replies waiting: closing it
// sends no QUIT, which would come after them.
type parkedSession struct{ s *session }

func (p parkedSession) Close() error {
	p.s.broken = true
	p.s.close()
	return nil
}

// window is Handler.Window with its default; 1 or less is no pipelining.
func (h *Handler) window() int {
	if h.Window == 0 {
		return DefaultWindow
	}
	return h.Window
}

// pipedCmd is the command that retrieves the plan's article (opArticle).
func (h *Handler) pipedCmd(p *plan) pipedCmd {
	word, _ := h.partCommand()
	c := pipedCmd{line: word + " " + p.articleArg()}
	if p.article != nil {
		c.group = p.group
	}
	return c
}

// ahead records in p the URLs the caller will ask for next
// (schemes.NextOf), at most a window's worth, and the request they are
// resolved against when their commands are sent (sendAhead): only
// requests for an article, over a connection that can be parked.
func (h *Handler) ahead(ctx context.Context, req *schemes.Request, p *plan, key schemes.ConnKey) {
	next := schemes.NextOf(ctx)
	if h.window() <= 1 || p.op != opArticle || !key.Pooled() || req.Conns == nil || len(next) == 0 || schemes.NextShared(ctx) {
		// Shared (-Z): another connection may be fetching those
		// articles; asking for them here too would fetch them twice.
		return
	}
	p.next, p.req = next[:min(len(next), h.window()-1)], req
}

// aheadCmd is the command that may be sent ahead on p's connection for
// loc: an article on the same server (news: and nntp: alike, as their
// sessions are, see run), with the same security and the same
// credentials in the URL (or none, when netrc's for that server serve
// both). ok is false for any other URL: then nothing after it can be
// sent ahead either, as the caller asks for it in its turn, on another
// connection.
func (h *Handler) aheadCmd(p *plan, loc schemes.Locator) (cmd pipedCmd, ok bool) {
	r := *p.req
	r.URL = loc
	q, err := h.resolve(&r)
	if err != nil || q.op != opArticle || q.host != p.host || q.port != p.port ||
		q.tls != p.tls || q.starttls != p.starttls || q.eager != p.eager ||
		(q.eager && (q.user != p.user || q.pass != p.pass)) {
		return pipedCmd{}, false
	}
	return h.pipedCmd(q), true
}

// sendAhead writes the commands of the URLs of p.next not sent yet, in
// one write, keeping at most Window commands outstanding with the one
// whose reply was just read. Those sent before must be the first of
// p.next (the same Locators, or equal ones): otherwise the caller's plan
// changed, and nothing more is asked for (the replies waiting are read,
// and the session parked for them). Each URL is resolved once, when its
// command is sent. It stops at the first URL that is not an article of
// the session (aheadCmd), and before an article numbered in another group
// than the session's. A write that fails leaves the session broken.
func (h *Handler) sendAhead(c *conn, p *plan) {
	s := c.s
	if s.broken || len(p.next) == 0 || len(s.pending) > len(p.next) {
		return
	}
	for i, loc := range s.pendingFor {
		if !sameLocator(loc, p.next[i]) {
			return
		}
	}
	sent := 0
	for _, loc := range p.next[len(s.pending):] {
		if len(s.pending) >= h.window()-1 {
			break
		}
		cmd, ok := h.aheadCmd(p, loc)
		if !ok || (cmd.group != "" && cmd.group != s.group) {
			break
		}
		s.tr.Sent(cmd.line)
		fmt.Fprintf(s.w.W, "%s\r\n", cmd.line)
		s.pending, s.pendingFor = append(s.pending, cmd), append(s.pendingFor, loc)
		sent++
	}
	if sent == 0 {
		return
	}
	if err := s.w.W.Flush(); err != nil {
		s.broken = true
		return
	}
	if s.quick != nil {
		s.quick()
	}
}

// sameLocator says a and b are one URL: the same Locator (as the callers
// that pass the same list again, a mirror's batch, urlget's URLs, give
// them), else the same text.
func sameLocator(a, b schemes.Locator) bool {
	return same(a, b) || a.String() == b.String()
}

// park keeps s, whose replies to s.pending are waiting, for the request
// of s.pending[0], closing it if none comes within parkTimeout (see
// transport.Parking).
func (h *Handler) park(key schemes.ConnKey, s *session) {
	if tc, ok := transport.ConnOf(s.conn); ok {
		tc.Stop()
	}
	s.conn.SetDeadline(time.Time{})
	h.parking.Park(parkKey{conn: key, next: s.pending[0]}, parkedSession{s}, parkTimeout)
}

// claim takes the session parked under key for cmd, bound to ctx and
// tracing into tr as a pooled one does; nil when there is none.
func (h *Handler) claim(ctx context.Context, req *schemes.Request, p *plan, key schemes.ConnKey, cmd pipedCmd, tr schemes.Trace) *session {
	ps, ok := h.parking.Claim(parkKey{conn: key, next: cmd})
	if !ok {
		return nil
	}
	s := ps.s
	if tc, ok := transport.ConnOf(s.conn); ok {
		tc.Bind(ctx)
	}
	s.resume(req, tr, "reading the pipelined reply on the connection to "+net.JoinHostPort(p.host, strconv.Itoa(p.port)))
	return s
}

// piped reads the reply to cmd, sent ahead on c's session: the first of
// its pending commands.
func (h *Handler) piped(ctx context.Context, c *conn, p *plan, phase string) (reply, error) {
	c.s.pending, c.s.pendingFor = c.s.pending[1:], c.s.pendingFor[1:]
	r, err := c.s.readReply()
	if err != nil {
		return r, h.connError(ctx, p, phase, err)
	}
	return r, nil
}
