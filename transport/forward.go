package transport

import (
	"context"
	"fmt"
	"net"
	"net/url"

	"github.com/urlget/urlget/schemes"
)

var _ schemes.Forwarder = (*Dialer)(nil)

// ForwardProxy implements schemes.Forwarder: a request whose proxy
// (d.Proxy) is an http:// proxy goes to that proxy in absolute form
// instead of through a CONNECT tunnel, as curl and browsers do; proxies
// commonly allow CONNECT to port 443 only. Only the caller knows that its
// scheme's requests are HTTP ones a proxy can forward (http's plain ones:
// a TLS request is tunnelled), so it asks for those alone. Other proxy
// kinds (https, socks) and direct connections get nil: Dial tunnels or
// dials those. The port policy is applied to host:port first. The URL
// returned names its port (curl's default, 1080, when the setting did
// not), so that net/http dials the same address Dial would.
func (d *Dialer) ForwardProxy(scheme, host string, port int) (*url.URL, error) {
	if d.Proxy == nil {
		return nil, nil
	}
	port, err := d.port(scheme, port)
	if err != nil {
		return nil, err
	}
	p, err := d.Proxy(scheme, host, port)
	if err != nil {
		return nil, proxyConfigError(scheme, err)
	}
	if p == nil || p.Scheme != proxyHTTP {
		return nil, nil
	}
	fp := *p
	fp.Host = proxyAddr(p)
	return &fp, nil
}

// DialProxy implements schemes.Forwarder: it connects to the proxy itself
// (no port policy: the policy was applied to the target in ForwardProxy)
// and returns a *Conn bound to ctx with d's idle timeout.
func (d *Dialer) DialProxy(ctx context.Context, scheme string, proxy *url.URL) (net.Conn, error) {
	addr := proxyAddr(proxy)
	if ctx.Err() != nil {
		return nil, dialError(ctx, scheme, "proxy "+addr, "", ctx.Err())
	}
	dctx, timeout := ctx, ""
	if d.ConnectTimeout > 0 {
		var cancel context.CancelFunc
		dctx, cancel = context.WithTimeout(ctx, d.ConnectTimeout)
		defer cancel()
		timeout = fmt.Sprintf(" after %v", d.ConnectTimeout)
	}
	d.info(ctx, "Using proxy %s (forwarding %s requests)", schemes.RedactString(proxy.String()), scheme)
	c, err := d.dialDirect(dctx, addr)
	if err != nil {
		return nil, dialError(ctx, scheme, "proxy "+addr, timeout, err)
	}
	return Wrap(ctx, c, d.IdleTimeout), nil
}
