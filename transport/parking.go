package transport

import (
	"io"
	"sync"
	"time"
)

// Parking holds connections that carry pipelined requests whose replies
// nobody has read yet. Such a connection cannot go back to a Pool, whose
// liveness check would take the waiting bytes for a server speaking
// unasked: it is parked under the key of the request whose reply comes
// next, and the request that has that key claims it and reads the reply
// without sending anything. One that nobody claims within its timeout is
// closed, as is one parked under a key already taken (two requests for the
// same thing at once find only one of them).
//
// The zero value is ready for use; it is safe for concurrent use. Whoever
// takes a value out of it (Claim) owns it.
type Parking[K comparable, V io.Closer] struct {
	mu sync.Mutex
	m  map[K]*parked[V]
}

type parked[V io.Closer] struct {
	v     V
	timer *time.Timer
}

// Park keeps v under k, closing it when nobody claims it within timeout.
func (p *Parking[K, V]) Park(k K, v V, timeout time.Duration) {
	pv := &parked[V]{v: v}
	p.mu.Lock()
	if p.m == nil {
		p.m = map[K]*parked[V]{}
	}
	old := p.m[k]
	p.m[k] = pv
	pv.timer = time.AfterFunc(timeout, func() {
		p.mu.Lock()
		mine := p.m[k] == pv
		if mine {
			delete(p.m, k)
		}
		p.mu.Unlock()
		if mine {
			v.Close()
		}
	})
	p.mu.Unlock()
	if old != nil {
		old.timer.Stop()
		old.v.Close()
	}
}

// Claim takes the value parked under k; ok is false when there is none.
func (p *Parking[K, V]) Claim(k K) (v V, ok bool) {
	p.mu.Lock()
	pv := p.m[k]
	if pv != nil {
		delete(p.m, k)
	}
	p.mu.Unlock()
	if pv == nil {
		return v, false
	}
	// Out of the map, it is the caller's: a timer that fires now finds
	// it gone and leaves it alone.
	pv.timer.Stop()
	return pv.v, true
}

// Len is how many values are parked.
func (p *Parking[K, V]) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.m)
}

// CloseAll closes every parked value.
func (p *Parking[K, V]) CloseAll() {
	p.mu.Lock()
	m := p.m
	p.m = nil
	p.mu.Unlock()
	for _, pv := range m {
		pv.timer.Stop()
		pv.v.Close()
	}
}
