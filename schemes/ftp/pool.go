package ftp

import "sync"

// maxIdlePerKey bounds the idle control connections kept per server and
// login.
const maxIdlePerKey = 8

// poolKey identifies the control connections that may serve a URL: same
// scheme, server, port and login (RFC 1738 §3.2.5 reuses a connection only
// for the same user), and the same TLS mode.
type poolKey struct {
	scheme, host string
	port         int
	user, pass   string
	tls          bool
}

// pool keeps idle, logged-in control connections for reuse across the URLs
// of one run.
type pool struct {
	mu   sync.Mutex
	idle map[poolKey][]*ctrl
}

// get takes an idle connection for k, or nil.
func (p *pool) get(k poolKey) *ctrl {
	p.mu.Lock()
	defer p.mu.Unlock()
	l := p.idle[k]
	if len(l) == 0 {
		return nil
	}
	c := l[len(l)-1]
	p.idle[k] = l[:len(l)-1]
	return c
}

// put keeps c for reuse, or closes it when it cannot be reused or the pool
// is full.
func (p *pool) put(c *ctrl) {
	if c.broken || c.loginDir == "" || c.tc.Err() != nil {
		c.close()
		return
	}
	c.tc.Stop()
	p.mu.Lock()
	if p.idle == nil {
		p.idle = map[poolKey][]*ctrl{}
	}
	if len(p.idle[c.key]) < maxIdlePerKey {
		p.idle[c.key] = append(p.idle[c.key], c)
		c = nil
	}
	p.mu.Unlock()
	if c != nil {
		c.close()
	}
}

// closeAll closes every idle connection.
func (p *pool) closeAll() {
	p.mu.Lock()
	idle := p.idle
	p.idle = nil
	p.mu.Unlock()
	for _, l := range idle {
		for _, c := range l {
			c.close()
		}
	}
}
