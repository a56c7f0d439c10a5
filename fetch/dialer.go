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
// defaults, so the library never waits forever on a silent peer. Its
// port facts are the default registry's, which a Client without a
// Registry has too (dialer gives a Client with one its own).
var defaultDialer = &transport.Dialer{
	ConnectTimeout: 30 * time.Second,
	IdleTimeout:    2 * time.Minute,
	Proxy:          transport.ProxyFromEnvironment,
	Ports:          defaultPorts{},
}

// defaultPorts are the port facts of DefaultRegistry, which is built when
// first asked rather than when this package is loaded.
type defaultPorts struct{}

// DefaultPort is DefaultRegistry's.
func (defaultPorts) DefaultPort(scheme string) int { return defaultRegistry().DefaultPort(scheme) }

// OwnsPort is DefaultRegistry's.
func (defaultPorts) OwnsPort(scheme string, port int) bool {
	return defaultRegistry().OwnsPort(scheme, port)
}

// ports are the port facts of c's schemes, from their declarations: its
// Registry's, or the default registry's (the default Dialer's own).
func (c *Client) ports() transport.Ports {
	if c.Registry != nil {
		return c.Registry
	}
	return defaultPorts{}
}

// dialer is the Dialer of every request: c.Dialer (the default one when
// nil) with c.TLS as its TLS settings when c.TLS is set, so that handlers
// and an https proxy are checked alike, and with the port facts of c's
// Registry when it has none of its own (the port policy lets a scheme use
// the restricted ports it declares). A Dialer of another type than
// *transport.Dialer keeps its own policy.
func (c *Client) dialer() schemes.Dialer {
	base := c.Dialer
	if base == nil {
		base = defaultDialer
	}
	td, ok := base.(*transport.Dialer)
	if !ok {
		if c.TLS != nil {
			// Dialing with other checks than the caller asked for would
			// be worse than not dialing: every connection fails instead.
			return refusingDialer{&schemes.Error{Phase: "tls", Kind: schemes.KindUsage, Part: "tls",
				Msg: fmt.Sprintf("Client.TLS is set, but the Client's Dialer is a %T, not a *transport.Dialer "+
					"that can take it: give that Dialer its TLS settings and leave Client.TLS nil", c.Dialer)}}
		}
		return base
	}
	var ports transport.Ports // nil: td's own
	if td.Ports == nil || (td == defaultDialer && c.Registry != nil) {
		ports = c.ports()
	}
	cfg := td.TLS
	if c.TLS != nil {
		cfg = c.TLS
	}
	if cfg == td.TLS && ports == nil {
		return td
	}
	return c.dialers.get(td, cfg, ports)
}

// dialerCopies keeps the copy of a *transport.Dialer that carries a
// Client's TLS and port facts. It is made once and shared with the
// Client's clones (Clone): pooled sessions are keyed by their Dialer's
// identity, so a copy made per request would never find one.
type dialerCopies struct {
	mu   sync.Mutex
	last *dialerCopy
}

// dialerCopy is d, the copy of from with TLS cfg and, unless nil, ports.
type dialerCopy struct {
	from  *transport.Dialer
	cfg   *tls.Config
	ports transport.Ports
	d     *transport.Dialer
}

// get returns the copy of from with TLS cfg and, unless nil, ports, made
// now unless the last one made was of the same Dialer and settings (a
// field set between requests gets a Dialer of its own). ports is a
// Registry or defaultPorts, so comparing it cannot panic.
func (t *dialerCopies) get(from *transport.Dialer, cfg *tls.Config, ports transport.Ports) *transport.Dialer {
	t.mu.Lock()
	defer t.mu.Unlock()
	if l := t.last; l != nil && l.from == from && l.cfg == cfg && l.ports == ports {
		return l.d
	}
	d := *from // the fields only: a Dialer holds no state of its own
	d.TLS = cfg
	if ports != nil {
		d.Ports = ports
	}
	t.last = &dialerCopy{from: from, cfg: cfg, ports: ports, d: &d}
	return &d
}

// share gives n the copy c made, so that a clone's requests find c's
// pooled sessions.
func (t *dialerCopies) share(n *dialerCopies) {
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
