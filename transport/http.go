package transport

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/urlget/urlget/schemes"
)

// HTTPTransport returns an http.Transport for the http handler whose
// connections all go through d.Dial, so the port policy, proxies (as
// CONNECT or SOCKS tunnels: Transport.Proxy stays nil), connect timeout
// and idle timeout apply to HTTP as to every other scheme. scheme is the
// one the port policy sees ("http" or "https"); tlsCfg may be nil.
// Compression is off so that the body is the bytes as served, and HTTP/2
// is tried when the server offers it.
func (d *Dialer) HTTPTransport(scheme string, tlsCfg *tls.Config) *http.Transport {
	handshake := d.ConnectTimeout
	if handshake <= 0 {
		handshake = 30 * time.Second
	}
	t := &http.Transport{
		Proxy: nil,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			host, ps, err := net.SplitHostPort(addr)
			if err != nil {
				return nil, &schemes.Error{Scheme: scheme, Phase: "dial", Kind: schemes.KindUsage, Part: "host", Msg: "bad address " + addr, Err: err}
			}
			port, err := strconv.Atoi(ps)
			if err != nil {
				return nil, &schemes.Error{Scheme: scheme, Phase: "dial", Kind: schemes.KindUsage, Part: "port", Msg: "bad port " + ps, Err: err}
			}
			c, err := d.Dial(ctx, scheme, host, port)
			if err != nil {
				return nil, err
			}
			// net/http cancels the dial context once the connection is
			// handed over and cancels requests itself; a pooled
			// connection must not stay tied to it.
			c.(*Conn).Stop()
			return c, nil
		},
		TLSHandshakeTimeout:   handshake,
		IdleConnTimeout:       90 * time.Second,
		ExpectContinueTimeout: time.Second,
		ForceAttemptHTTP2:     true,
		DisableCompression:    true,
	}
	if tlsCfg != nil {
		t.TLSClientConfig = tlsCfg.Clone()
	}
	return t
}
