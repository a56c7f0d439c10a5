package wais

import (
	"context"
	"sync"
	"time"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// maxIdle is how many idle connections are kept per server: freeWAIS-sf
// answers on a connection until EOF (wais-notes §1), so the next search or
// document of the same server needs no new connection.
const maxIdle = 4

// pool keeps idle sessions by server address.
type pool struct {
	mu   sync.Mutex
	idle map[string][]*session
}

// get returns an idle session to addr bound to ctx, or nil.
func (p *pool) get(ctx context.Context, addr string, req *schemes.Request) *session {
	p.mu.Lock()
	list := p.idle[addr]
	if len(list) == 0 {
		p.mu.Unlock()
		return nil
	}
	s := list[len(list)-1]
	p.idle[addr] = list[:len(list)-1]
	p.mu.Unlock()
	s.tr = schemes.NewScope(req.Trace)
	s.tr.Info("reusing the connection to " + addr)
	s.bind(ctx, req.Timeout)
	s.reused = true
	return s
}

// put keeps s for the next request to its server, or closes it.
func (p *pool) put(s *session) {
	s.release()
	s.c.SetDeadline(time.Time{})
	s.reused = false
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.idle == nil {
		p.idle = map[string][]*session{}
	}
	if len(p.idle[s.addr]) >= maxIdle {
		s.c.Close()
		return
	}
	p.idle[s.addr] = append(p.idle[s.addr], s)
}

// closeAll closes every idle session.
func (p *pool) closeAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for addr, list := range p.idle {
		for _, s := range list {
			s.c.Close()
		}
		delete(p.idle, addr)
	}
}

// bind attaches ctx to the session's connection (canceling it fails the
// I/O) and sets the request's deadline.
func (s *session) bind(ctx context.Context, timeout time.Duration) {
	s.release = func() {}
	if tc, ok := transport.ConnOf(s.c); ok {
		s.release = tc.Bind(ctx)
	}
	if timeout > 0 {
		s.c.SetDeadline(time.Now().Add(timeout))
	}
}
