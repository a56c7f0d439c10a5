package nntp

import (
	"crypto/tls"
	"reflect"
	"sync"

	"github.com/urlget/urlget/schemes"
)

// poolKey says which idle sessions may serve a request: same dialer (its
// proxy and timeouts), server, TLS settings and user.
type poolKey struct {
	dialer schemes.Dialer
	tlsCfg *tls.Config
	host   string
	port   int
	tls    bool
	user   string
	pass   string
}

// pool keeps idle sessions for reuse across URLs, as net/http does: NNTP
// is stateless between commands apart from the selected group, which every
// request sets again, and the authentication, which is in the key.
type pool struct {
	mu   sync.Mutex
	idle map[poolKey][]*session
}

// poolable says whether k can be a map key: a dialer of an uncomparable
// type (a struct value holding a slice) would make the map panic.
func poolable(k poolKey) bool {
	return k.dialer == nil || reflect.TypeOf(k.dialer).Comparable()
}

// get takes an idle session for k, most recently used first.
func (p *pool) get(k poolKey) *session {
	if !poolable(k) {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	l := p.idle[k]
	if len(l) == 0 {
		return nil
	}
	s := l[len(l)-1]
	p.idle[k] = l[:len(l)-1]
	s.reused = true
	return s
}

// put keeps s for reuse, or closes it when it cannot be reused or max
// sessions are already idle for k.
func (p *pool) put(k poolKey, s *session, max int) {
	if s.broken || max < 0 || !poolable(k) {
		s.close()
		return
	}
	if max == 0 {
		max = 4
	}
	p.mu.Lock()
	if len(p.idle[k]) >= max {
		p.mu.Unlock()
		s.close()
		return
	}
	if p.idle == nil {
		p.idle = map[poolKey][]*session{}
	}
	p.idle[k] = append(p.idle[k], s)
	p.mu.Unlock()
}

// closeAll closes every idle session.
func (p *pool) closeAll() {
	p.mu.Lock()
	idle := p.idle
	p.idle = nil
	p.mu.Unlock()
	for _, l := range idle {
		for _, s := range l {
			s.close()
		}
	}
}
