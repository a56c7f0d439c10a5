package transport

import (
	"context"
	"sync"
	"time"

	"github.com/urlget/urlget/schemes"
)

// Default limits of a Pool. The http handler gives the net/http
// Transports it keeps the limits of the request's Pool (IdleLimits), these
// when a request carries none, so that every scheme's idle connections
// live by the same rules.
const (
	// DefaultMaxIdlePerKey is as many idle sessions per server and login
	// as a mirror's parallel transfers (urlget mirror -P) may need at
	// once, so that none of them logs in again. A caller that runs more
	// requests to one server at once raises it (MaxIdlePerKey, or
	// fetch.Client.MaxIdleConnsPerHost for a Client's own Pool).
	DefaultMaxIdlePerKey = 16
	// DefaultMaxIdle bounds the idle sessions of all servers together: a
	// gateway that reaches many servers keeps no more descriptors than
	// this idle.
	DefaultMaxIdle = 128
	// DefaultIdleTimeout is how long a session may stay idle before it is
	// closed: under the 5 minutes servers commonly allow (vsftpd's
	// idle_session_timeout, INN's), so that the pool closes it first.
	DefaultIdleTimeout = 90 * time.Second
)

// Pool keeps idle protocol sessions for reuse (schemes.Conns), for every
// scheme alike: ftp control connections, nntp, wais. A session is kept
// under its schemes.ConnKey, which holds everything that makes two
// sessions not interchangeable (dialer, TLS settings, scheme, server,
// login), and leased only for an equal key.
//
// Before a session is leased it is checked: one idle for longer than
// IdleTimeout, or whose server closed it or spoke unasked while it was
// idle (an FTP "421 Timeout"), is closed and the next candidate tried, so
// that the caller never sees a connection the server dropped at rest. A
// session is kept only at rest as well (AtRest): one with bytes unread,
// in its own buffer, a TLS layer or the socket, is out of step with its
// server and is closed, whether it is being kept or lent.
// Leasing binds the session's connection to the request's context and
// keeping it detaches that context again: this is the only place a pooled
// connection changes hands, so cancellation of one request can never
// reach another's.
//
// The zero Pool is ready to use. A Pool is safe for concurrent use; its
// fields must not change once it is in use.
type Pool struct {
	// MaxIdlePerKey bounds the idle sessions per key (0: the default).
	MaxIdlePerKey int
	// MaxIdle bounds the idle sessions in total (0: the default); past
	// it, the one idle longest is closed.
	MaxIdle int
	// IdleTimeout closes a session idle for this long (0: the default).
	IdleTimeout time.Duration

	mu    sync.Mutex
	idle  map[schemes.ConnKey][]idleSession // least recently kept first
	total int
	timer *time.Timer // runs sweep while anything is idle
}

var (
	_ schemes.Conns       = (*Pool)(nil)
	_ schemes.IdleLimiter = (*Pool)(nil)
)

// idleSession is a session at rest and when it was kept.
type idleSession struct {
	s     schemes.Session
	since time.Time
}

func (p *Pool) maxPerKey() int { return cmpDefault(p.MaxIdlePerKey, DefaultMaxIdlePerKey) }
func (p *Pool) maxTotal() int  { return cmpDefault(p.MaxIdle, DefaultMaxIdle) }
func (p *Pool) timeout() time.Duration {
	return cmpDefault(p.IdleTimeout, DefaultIdleTimeout)
}

// IdleLimits implements schemes.IdleLimiter: the Pool's limits, defaults
// applied, which the http handler gives the keep-alive connections of the
// requests that carry this Pool.
func (p *Pool) IdleLimits() schemes.IdleLimits {
	return schemes.IdleLimits{PerKey: p.maxPerKey(), Total: p.maxTotal(), Timeout: p.timeout()}
}

func cmpDefault[T int | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// Lease implements schemes.Conns: the session of the lowest cost among
// those kept under key, checked alive and bound to ctx; nil when there is
// none or ctx is already done (binding it would fail a good connection).
func (p *Pool) Lease(ctx context.Context, key schemes.ConnKey, cost func(schemes.Session) int) schemes.Session {
	if !key.Pooled() || ctx.Err() != nil {
		return nil
	}
	for {
		s, expired := p.take(key, cost)
		if s == nil {
			return nil
		}
		if expired || !AtRest(s) {
			s.Close()
			continue
		}
		tc, _ := ConnOf(s.Conn())
		tc.Bind(ctx)
		return s
	}
}

// Use implements schemes.Conns: a leased session, else one from dial,
// given to use; a leased one use reports stale is replaced by one new
// session from dial, once.
func (p *Pool) Use(ctx context.Context, key schemes.ConnKey, cost func(schemes.Session) int, dial schemes.DialFunc, use schemes.UseFunc) error {
	if s := p.Lease(ctx, key, cost); s != nil {
		stale, err := use(s, true)
		if !stale || err == nil || ctx.Err() != nil {
			return err
		}
	}
	s, err := dial(ctx)
	if err != nil {
		return err
	}
	_, err = use(s, false)
	return err
}

// take removes the best candidate for key from the idle list, reporting
// whether it has been idle too long.
func (p *Pool) take(key schemes.ConnKey, cost func(schemes.Session) int) (s schemes.Session, expired bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	l := p.idle[key]
	if len(l) == 0 {
		return nil, false
	}
	best := len(l) - 1
	if cost != nil {
		bestCost := cost(l[best].s)
		for i := len(l) - 2; i >= 0; i-- {
			if c := cost(l[i].s); c < bestCost {
				best, bestCost = i, c
			}
		}
	}
	e := l[best]
	p.idle[key] = append(l[:best], l[best+1:]...)
	if len(p.idle[key]) == 0 {
		delete(p.idle, key)
	}
	p.total--
	return e.s, time.Since(e.since) >= p.timeout()
}

// Keep implements schemes.Conns. A session whose connection is not one
// of this package's (so cannot be bound to a context), or was canceled,
// is closed, as is one not at rest (AtRest: the server said more than
// the session read) and one that finds key's share of the pool full.
func (p *Pool) Keep(key schemes.ConnKey, s schemes.Session) {
	tc, ok := ConnOf(s.Conn())
	if !ok || !key.Pooled() || tc.Err() != nil {
		s.Close()
		return
	}
	tc.Stop()
	s.Conn().SetDeadline(time.Time{})
	if !AtRest(s) {
		s.Close()
		return
	}
	var evicted schemes.Session
	p.mu.Lock()
	if len(p.idle[key]) >= p.maxPerKey() {
		p.mu.Unlock()
		s.Close()
		return
	}
	if p.total >= p.maxTotal() {
		evicted = p.removeOldestLocked()
	}
	if p.idle == nil {
		p.idle = map[schemes.ConnKey][]idleSession{}
	}
	p.idle[key] = append(p.idle[key], idleSession{s: s, since: time.Now()})
	p.total++
	if p.timer == nil {
		p.timer = time.AfterFunc(p.timeout(), p.sweep)
	}
	p.mu.Unlock()
	if evicted != nil {
		evicted.Close()
	}
}

// removeOldestLocked takes out the session idle longest, of any key.
func (p *Pool) removeOldestLocked() schemes.Session {
	var oldKey schemes.ConnKey
	var oldest time.Time
	found := false
	for k, l := range p.idle {
		if len(l) > 0 && (!found || l[0].since.Before(oldest)) {
			oldKey, oldest, found = k, l[0].since, true
		}
	}
	if !found {
		return nil
	}
	s := p.idle[oldKey][0].s
	p.idle[oldKey] = p.idle[oldKey][1:]
	if len(p.idle[oldKey]) == 0 {
		delete(p.idle, oldKey)
	}
	p.total--
	return s
}

// sweep closes the sessions idle for IdleTimeout or longer, and runs
// again when the next one will be, while any is idle: a long-running
// process holds no connection the server has long given up on.
func (p *Pool) sweep() {
	now := time.Now()
	var expired []schemes.Session
	p.mu.Lock()
	next := time.Duration(0)
	for k, l := range p.idle {
		kept := l[:0]
		for _, e := range l {
			if age := now.Sub(e.since); age >= p.timeout() {
				expired = append(expired, e.s)
				p.total--
			} else {
				kept = append(kept, e)
				if left := p.timeout() - age; next == 0 || left < next {
					next = left
				}
			}
		}
		if len(kept) == 0 {
			delete(p.idle, k)
		} else {
			p.idle[k] = kept
		}
	}
	if next > 0 {
		p.timer.Reset(next)
	} else {
		p.timer = nil
	}
	p.mu.Unlock()
	for _, s := range expired {
		s.Close()
	}
}

// Idle returns how many sessions are idle.
func (p *Pool) Idle() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.total
}

// CloseIdle closes every idle session (sending QUIT where the protocol
// has it). Sessions leased at the time are not affected and may be kept
// again afterwards.
func (p *Pool) CloseIdle() {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.total = nil, 0
	if p.timer != nil {
		p.timer.Stop()
		p.timer = nil
	}
	p.mu.Unlock()
	for _, l := range idle {
		for _, e := range l {
			e.s.Close()
		}
	}
}
