package transport

import (
	"context"
	"fmt"
	"net"
	"strconv"

	"github.com/urlget/urlget/schemes"
)

// DialDatagram opens a UDP socket connected to host:port on behalf of
// scheme (Prospero's ARDP) and returns it as a *Conn bound to ctx: the port
// policy applies first, before any name is resolved; Reads get the idle
// timeout and fail at once when ctx is canceled. Each Write sends one
// datagram and each Read returns one (from host:port only: the socket is
// connected). No proxy carries datagrams, so a proxy configured for scheme
// is an error (KindUnsupported) rather than something to go around. The
// Dialer's ConnectTimeout becomes the socket's FirstReplyTimeout.
func (d *Dialer) DialDatagram(ctx context.Context, scheme, host string, port int) (net.Conn, error) {
	port, err := d.port(scheme, port)
	if err != nil {
		return nil, err
	}
	addr := net.JoinHostPort(host, strconv.Itoa(port))
	if ctx.Err() != nil {
		return nil, dialError(ctx, scheme, addr, "", ctx.Err())
	}
	if d.Proxy != nil {
		p, err := d.Proxy(scheme, host, port)
		if err != nil {
			return nil, proxyConfigError(scheme, err)
		}
		if p != nil {
			return nil, &schemes.Error{Scheme: scheme, Phase: "dial", Kind: schemes.KindUnsupported, Part: "proxy",
				Msg: fmt.Sprintf("%s needs UDP to %s, which proxy %s cannot carry (unset the proxy, or add the host to no_proxy)",
					scheme, addr, schemes.RedactString(p.String()))}
		}
	}
	dctx, cancel, timeout := d.connectContext(ctx)
	defer cancel()
	d.info(ctx, "Opening UDP to %s", addr)
	c, err := d.netDialer("udp").DialContext(dctx, "udp", addr)
	if err != nil {
		return nil, dialError(ctx, scheme, addr+" (udp)", timeout, err)
	}
	d.connected(ctx, "", addr+" (udp)", c)
	wc := Wrap(ctx, c, d.IdleTimeout)
	wc.firstReply = d.ConnectTimeout
	return wc, nil
}
