package fetch

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// defaultDialer is what a Client without a Dialer uses: the command's
// defaults, so the library never waits forever on a silent peer.
var defaultDialer = &transport.Dialer{
	ConnectTimeout: 30 * time.Second,
	IdleTimeout:    2 * time.Minute,
	Proxy:          transport.ProxyFromEnvironment,
}

// dialer is the Dialer of every request: c.Dialer (the default one when
// nil) with c.TLS as its TLS settings when c.TLS is set, so that handlers
// and an https proxy are checked alike.
func (c *Client) dialer() schemes.Dialer {
	if c.TLS == nil {
		if c.Dialer != nil {
			return c.Dialer
		}
		return defaultDialer
	}
	base := defaultDialer
	if c.Dialer != nil {
		td, ok := c.Dialer.(*transport.Dialer)
		if !ok {
			// Dialing with other checks than the caller asked for would
			// be worse than not dialing: every connection fails instead.
			return refusingDialer{&schemes.Error{Phase: "tls", Kind: schemes.KindUsage, Part: "tls",
				Msg: fmt.Sprintf("Client.TLS is set, but the Client's Dialer is a %T, not a *transport.Dialer "+
					"that can take it: give that Dialer its TLS settings and leave Client.TLS nil", c.Dialer)}}
		}
		base = td
	}
	if base.TLS == c.TLS {
		return base
	}
	return c.tlsDialers.get(base, c.TLS)
}

// tlsDialers keeps the copy of a *transport.Dialer that carries a Client's
// TLS. It is made once and shared with the Client's clones (Clone): pooled
// sessions are keyed by their Dialer's identity, so a copy made per
// request would never find one.
type tlsDialers struct {
	mu   sync.Mutex
	last *tlsDialer
}

// tlsDialer is d, the copy of from with TLS cfg.
type tlsDialer struct {
	from *transport.Dialer
	cfg  *tls.Config
	d    *transport.Dialer
}

// get returns the copy of from with TLS cfg, made now unless the last one
// made was of the same Dialer and settings (a field set between requests
// gets a Dialer of its own).
func (t *tlsDialers) get(from *transport.Dialer, cfg *tls.Config) *transport.Dialer {
	t.mu.Lock()
	defer t.mu.Unlock()
	if l := t.last; l != nil && l.from == from && l.cfg == cfg {
		return l.d
	}
	d := *from // the fields only: a Dialer holds no state of its own
	d.TLS = cfg
	t.last = &tlsDialer{from: from, cfg: cfg, d: &d}
	return &d
}

// share gives n the copy c made, so that a clone's requests find c's
// pooled sessions.
func (t *tlsDialers) share(n *tlsDialers) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n.last = t.last
}

// refusingDialer fails every connection with err.
type refusingDialer struct{ err *schemes.Error }

// Dial fails with the refusal.
func (r refusingDialer) Dial(context.Context, string, string, int) (net.Conn, error) {
	return nil, r.err
}

// DialDatagram fails with the refusal.
func (r refusingDialer) DialDatagram(context.Context, string, string, int) (net.Conn, error) {
	return nil, r.err
}

// StartTLS fails with the refusal.
func (r refusingDialer) StartTLS(context.Context, net.Conn, string, string, ...schemes.TLSOption) (net.Conn, error) {
	return nil, r.err
}
