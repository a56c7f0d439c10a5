package transport

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"time"

	"github.com/urlget/urlget/schemes"
)

// ProxyFunc chooses the proxy for a connection to host:port made on behalf
// of scheme, or returns nil for a direct connection. ProxyFromEnvironment is
// the usual one.
type ProxyFunc func(scheme, host string, port int) (*url.URL, error)

// Dialer opens every connection urlget makes. It implements schemes.Dialer.
// The zero value dials directly with no timeouts but the context's. A
// Dialer is safe for concurrent use and must not be modified while in use.
type Dialer struct {
	// ConnectTimeout bounds connecting, including the proxy handshake
	// (0: only the context's deadline).
	ConnectTimeout time.Duration
	// IdleTimeout is given to every returned Conn: a Read or Write that
	// makes no progress for this long fails (0: never).
	IdleTimeout time.Duration
	// Proxy chooses a proxy per connection; nil means none. Supported proxy
	// URL schemes: http (CONNECT tunnel; plain http requests are forwarded
	// instead, see ForwardProxy), https (CONNECT over TLS to the proxy),
	// socks5 (local DNS) and socks5h (DNS by the proxy).
	Proxy ProxyFunc
	// AllowPorts are the user's exceptions to the port policy (CheckPort).
	AllowPorts []int
	// Ports are the schemes' declared port facts the port policy reads:
	// a restricted port a scheme owns is open to it, and a port of 0 is
	// its default. nil means no scheme owns one (only AllowPorts open a
	// restricted port) and no default is known, so port 0 is refused. A
	// fetch Client dials with its Registry's when this is nil; a Dialer
	// wrapped in another type is the wrapper's to give them (a
	// *schemes.Registry, such as fetch.DefaultRegistry()).
	Ports Ports
	// TLS is the client TLS configuration of every handshake the Dialer
	// makes: TLS schemes (StartTLS, DialTLS), upgrades (FTP AUTH TLS, an
	// FTPS data connection, STARTTLS) and an https proxy — verification,
	// trusted roots, client certificate, versions — set once, as
	// net/http's Transport.TLSClientConfig is. nil means the system's
	// roots, verified, TLS 1.2 at least. The name verified is the host
	// dialed unless TLS.ServerName names another (for an https proxy,
	// always the proxy's host). The Dialer never modifies it; what a
	// connection needs of its own (a session to resume, ALPN) comes from
	// StartTLS's options.
	TLS *tls.Config
	// Trace, if set, receives notes about connections and handshakes
	// dialed with a context that carries no Trace (schemes.WithTrace).
	// Handlers always give one, each connection's scope: the fetch Client
	// leaves this unset and traces through its own Trace.
	Trace schemes.Trace
	// Resolver resolves host names; nil means net.DefaultResolver.
	Resolver *net.Resolver
	// LocalIP is the address every connection is made from, to servers
	// and proxies, TCP and UDP (curl's --interface); nil lets the system
	// choose. A server of the other address family cannot be reached
	// from it.
	LocalIP net.IP
}

var _ schemes.Dialer = (*Dialer)(nil)

// Dial connects to host:port on behalf of scheme and returns a *Conn bound
// to ctx (see Conn.Bind). It applies the port policy first, before any
// name is resolved, then dials directly or through the proxy d.Proxy
// chooses. A port of 0 means the scheme's default (Ports). Errors are
// *schemes.Error: KindSafety for a refused port, KindConnect (retryable)
// when the host cannot be resolved or reached, KindTimeout when
// ConnectTimeout or ctx's deadline passes, KindCanceled when ctx is
// canceled.
func (d *Dialer) Dial(ctx context.Context, scheme, host string, port int) (net.Conn, error) {
	port, err := d.port(scheme, port)
	if err != nil {
		return nil, err
	}
	c, err := d.dial(ctx, scheme, host, port)
	if err != nil {
		return nil, err
	}
	return Wrap(ctx, c, d.IdleTimeout), nil
}

// dial does Dial's work, returning the raw connection.
func (d *Dialer) dial(ctx context.Context, scheme, host string, port int) (net.Conn, error) {
	addr := net.JoinHostPort(host, strconv.Itoa(port))
	if ctx.Err() != nil {
		return nil, dialError(ctx, scheme, addr, "", ctx.Err())
	}
	var proxy *url.URL
	if d.Proxy != nil {
		p, err := d.Proxy(scheme, host, port)
		if err != nil {
			return nil, proxyConfigError(scheme, err)
		}
		proxy = p
	}
	dctx, cancel, timeout := d.connectContext(ctx)
	defer cancel()
	if proxy == nil {
		d.info(ctx, "Connecting to %s", addr)
		c, err := d.netDialer("tcp").DialContext(dctx, "tcp", addr)
		if err != nil {
			return nil, dialError(ctx, scheme, addr, timeout, err)
		}
		d.connected(ctx, "", addr, c)
		return c, nil
	}
	d.info(ctx, "Using proxy %s for %s", schemes.RedactString(proxy.String()), addr)
	c, err := d.dialProxy(dctx, proxy, scheme, host, port)
	if err != nil {
		return nil, dialError(ctx, scheme, addr+" through proxy "+proxyAddr(proxy), timeout, err)
	}
	return c, nil
}

// connectContext is ctx bounded by ConnectTimeout, when there is one, for
// connecting, with the words that tell a timeout of ours (" after 30s")
// from the caller's deadline ("").
func (d *Dialer) connectContext(ctx context.Context) (context.Context, context.CancelFunc, string) {
	if d.ConnectTimeout <= 0 {
		return ctx, func() {}, ""
	}
	dctx, cancel := context.WithTimeout(ctx, d.ConnectTimeout)
	return dctx, cancel, fmt.Sprintf(" after %v", d.ConnectTimeout)
}

// dialProxy connects to host:port through proxy.
func (d *Dialer) dialProxy(ctx context.Context, proxy *url.URL, scheme, host string, port int) (net.Conn, error) {
	switch proxy.Scheme {
	case proxyHTTP, proxyHTTPS:
		return d.dialConnect(ctx, proxy, scheme, host, port)
	case proxySOCKS5, proxySOCKS5H:
		return d.dialSOCKS(ctx, proxy, host, port)
	}
	return nil, proxyConfigError(scheme, fmt.Errorf("unsupported proxy scheme %q (want http, https, socks5 or socks5h)", proxy.Scheme))
}

// netDialer is the dialer for direct connections (to servers and proxies)
// over network ("tcp" or "udp").
func (d *Dialer) netDialer(network string) *net.Dialer {
	nd := &net.Dialer{Resolver: d.Resolver}
	if d.LocalIP != nil {
		if network == "udp" {
			nd.LocalAddr = &net.UDPAddr{IP: d.LocalIP}
		} else {
			nd.LocalAddr = &net.TCPAddr{IP: d.LocalIP}
		}
	}
	return nd
}

// dialDirect connects to a proxy server.
func (d *Dialer) dialDirect(ctx context.Context, addr string) (net.Conn, error) {
	d.info(ctx, "Connecting to proxy %s", addr)
	c, err := d.netDialer("tcp").DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	d.connected(ctx, "proxy ", addr, c)
	return c, nil
}

// connected notes a connection, with the address a name resolved to.
func (d *Dialer) connected(ctx context.Context, label, addr string, c net.Conn) {
	if d.trace(ctx) == nil {
		return
	}
	if host, _, _ := net.SplitHostPort(addr); net.ParseIP(host) != nil {
		d.info(ctx, "Connected to %s%s", label, addr)
		return
	}
	d.info(ctx, "Connected to %s%s (%s)", label, addr, c.RemoteAddr())
}

func (d *Dialer) info(ctx context.Context, format string, args ...any) {
	if tr := d.trace(ctx); tr != nil {
		tr.Info(fmt.Sprintf(format, args...))
	}
}

// trace is where notes about a connection go: the scope ctx carries
// (schemes.WithTrace), else d.Trace; nil for none.
func (d *Dialer) trace(ctx context.Context) schemes.Trace {
	if ctx != nil {
		if t := schemes.TraceFrom(ctx); t != nil {
			return t
		}
	}
	return d.Trace
}

// proxyConfigError reports an unusable proxy setting.
func proxyConfigError(scheme string, err error) error {
	return &schemes.Error{Scheme: scheme, Phase: "proxy", Kind: schemes.KindUsage, Part: "proxy",
		Msg: "bad proxy setting", Err: err}
}
