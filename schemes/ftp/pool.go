package ftp

import (
	"slices"
	"sync"
)

// maxIdlePerKey bounds the idle control connections kept per server and
// login: as many as a mirror's parallel transfers (urlget mirror -P) may
// need at once, so that none logs in again.
const maxIdlePerKey = 16

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

// get takes an idle connection for k, or nil: the one that needs the
// fewest CWD commands to reach dir (see chdir), the most recently used of
// those. A mirror's parallel transfers then keep to their directories
// instead of hopping between them at two or more commands a hop.
func (p *pool) get(k poolKey, dir []string) *ctrl {
	p.mu.Lock()
	defer p.mu.Unlock()
	l := p.idle[k]
	if len(l) == 0 {
		return nil
	}
	best := len(l) - 1
	for i := len(l) - 2; i >= 0; i-- {
		if cwdCost(l[i].at, dir) < cwdCost(l[best].at, dir) {
			best = i
		}
	}
	c := l[best]
	p.idle[k] = slices.Delete(l, best, best+1)
	return c
}

// cwdCost is the number of CWD commands chdir sends to go from the
// directory at to dir.
func cwdCost(at, dir []string) int {
	if len(at) > len(dir) || !slices.Equal(at, dir[:len(at)]) {
		return 1 + len(dir)
	}
	return len(dir) - len(at)
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
