// Package transport is the only package in urlget that opens network
// connections. A program that wants other than the defaults gives a
// fetch.Client a Dialer of its own (timeouts, proxies, ports), and may
// trace the protocol exchange:
//
//	c := &fetch.Client{
//		Dialer: &transport.Dialer{ConnectTimeout: 30 * time.Second,
//			IdleTimeout: time.Minute, Proxy: transport.ProxyFromEnvironment},
//		Trace: transport.NewTrace(os.Stderr), // as urlget -v, passwords as ****
//	}
//
// Clients that should share idle connections share one Pool (Client.Conns).
// A scheme package gets its connections from Request.Dialer and binds
// them to the request with Bound.
//
// Its Dialer implements schemes.Dialer: before anything is sent it applies
// the port policy of RFC 1738 §6 (CheckPort, with the port facts the
// schemes declare: Dialer.Ports), then connects directly or
// through an HTTP CONNECT or SOCKS5 proxy (or names the HTTP proxy that
// forwards plain http requests: ForwardProxy), and returns a *Conn that
// fails a stalled peer after an idle timeout, unblocks at once when its
// context is canceled and counts bytes. The package also holds the guard
// handlers run on decoded URL parts before they go on the wire (CheckLine,
// CheckChars), the redacting protocol Trace and TLS helpers. The http
// scheme's net/http Transport dials through the Dialer too (schemes/http).
package transport
