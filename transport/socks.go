package transport

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"

	"golang.org/x/net/proxy"
)

// dialSOCKS connects to host:port through a SOCKS5 proxy (RFC 1928, with
// RFC 1929 user/password authentication from the proxy URL). For socks5
// the name is resolved here and the proxy is given an address; for socks5h
// the proxy resolves it, which is what a client behind a proxy without DNS
// needs.
func (d *Dialer) dialSOCKS(ctx context.Context, pu *url.URL, host string, port int) (net.Conn, error) {
	var auth *proxy.Auth
	if pu.User != nil {
		pw, _ := pu.User.Password()
		auth = &proxy.Auth{User: pu.User.Username(), Password: pw}
		if tr := d.trace(ctx); tr != nil {
			tr.Secret(pw)
		}
	}
	paddr := proxyAddr(pu)
	sd, err := proxy.SOCKS5("tcp", paddr, auth, contextDialer(d.dialDirect))
	if err != nil {
		return nil, err
	}
	target := host
	if pu.Scheme == proxySOCKS5 && net.ParseIP(host) == nil {
		r := d.Resolver
		if r == nil {
			r = net.DefaultResolver
		}
		addrs, err := r.LookupNetIP(ctx, "ip", host)
		if err != nil {
			return nil, err
		}
		if len(addrs) == 0 {
			return nil, &net.DNSError{Err: "no addresses", Name: host, IsNotFound: true}
		}
		target = addrs[0].Unmap().String()
		d.info(ctx, "Resolved %s to %s (the SOCKS proxy gets the address)", host, target)
	}
	addr := net.JoinHostPort(target, strconv.Itoa(port))
	d.info(ctx, "SOCKS5 CONNECT %s through %s", addr, paddr)
	c, err := sd.(proxy.ContextDialer).DialContext(ctx, "tcp", addr)
	if err != nil {
		if ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
			err = fmt.Errorf("%w (%v)", ctx.Err(), err)
		}
		return nil, err
	}
	d.info(ctx, "SOCKS5 tunnel to %s established", addr)
	return c, nil
}

// contextDialer adapts a dial function to proxy.Dialer and
// proxy.ContextDialer, so that the SOCKS library reaches the proxy through
// our resolver and context.
type contextDialer func(ctx context.Context, addr string) (net.Conn, error)

// Dial dials without a context; the SOCKS library uses DialContext.
func (f contextDialer) Dial(network, addr string) (net.Conn, error) {
	return f(context.Background(), addr)
}

// DialContext dials addr under ctx.
func (f contextDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	return f(ctx, addr)
}
