package transport

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/urlget/urlget/schemes"
)

// maxConnectResponse bounds the proxy's reply to CONNECT: a proxy that
// sends an endless header must not make us buffer it.
const maxConnectResponse = 64 << 10

// defaultProxyPort is curl's default when a proxy URL of kind names no
// port.
func defaultProxyPort(kind string) int {
	if kind == proxyHTTPS {
		return 443
	}
	return 1080
}

// proxyAddr is the proxy's "host:port".
func proxyAddr(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = strconv.Itoa(defaultProxyPort(u.Scheme))
	}
	return net.JoinHostPort(u.Hostname(), port)
}

// dialConnect opens an HTTP CONNECT tunnel to host:port through proxy (over
// TLS to the proxy when its scheme is https).
func (d *Dialer) dialConnect(ctx context.Context, proxy *url.URL, scheme, host string, port int) (_ net.Conn, err error) {
	paddr := proxyAddr(proxy)
	c, err := d.dialDirect(ctx, paddr)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			c.Close()
		}
	}()
	done := watch(ctx, c)
	defer func() { err = done(err) }()
	if proxy.Scheme == proxyHTTPS {
		cfg := d.tlsConfig(proxy.Hostname())
		cfg.ServerName = proxy.Hostname() // the proxy's own name, whatever d.TLS names
		tc := tls.Client(c, cfg)
		if err := tc.HandshakeContext(ctx); err != nil {
			return nil, tlsError(ctx, scheme, "proxy "+paddr, err)
		}
		c = tc
	}

	target := net.JoinHostPort(host, strconv.Itoa(port))
	req := &http.Request{
		Method: http.MethodConnect,
		URL:    &url.URL{Opaque: target},
		Host:   target,
		Header: http.Header{"User-Agent": {"urlget"}},
	}
	if u := proxy.User; u != nil {
		pw, _ := u.Password()
		cred := base64.StdEncoding.EncodeToString([]byte(u.Username() + ":" + pw))
		req.Header.Set("Proxy-Authorization", "Basic "+cred)
		if tr := d.trace(ctx); tr != nil {
			tr.Secret(pw)
			tr.Secret(cred)
		}
	}
	if tr := d.trace(ctx); tr != nil {
		tr.Sent("CONNECT " + target + " HTTP/1.1")
		tr.Sent("Host: " + target)
		for k, vs := range req.Header {
			for _, v := range vs {
				tr.Sent(k + ": " + v)
			}
		}
	}
	if err := req.Write(c); err != nil {
		return nil, err
	}

	br := bufio.NewReader(io.LimitReader(c, maxConnectResponse))
	resp, err := http.ReadResponse(br, req)
	if err != nil {
		if err == io.ErrUnexpectedEOF || err == io.EOF {
			err = fmt.Errorf("proxy closed the connection or sent an oversized reply: %w", err)
		}
		return nil, err
	}
	if tr := d.trace(ctx); tr != nil {
		tr.Received(resp.Proto + " " + resp.Status)
	}
	if resp.StatusCode != http.StatusOK {
		e := &schemes.Error{Scheme: scheme, Phase: "proxy", Kind: schemes.KindConnect, Code: resp.StatusCode,
			Msg: fmt.Sprintf("proxy %s refused to connect to %s: %s", paddr, target, resp.Status)}
		switch {
		case resp.StatusCode == http.StatusProxyAuthRequired:
			e.Kind, e.Part = schemes.KindPermission, "proxy"
			if proxy.User == nil {
				e.Msg += " (give credentials in the proxy URL: http://user:password@proxy:port)"
			} else {
				e.Msg += " (credentials rejected)"
			}
		case resp.StatusCode == http.StatusForbidden:
			e.Kind = schemes.KindPermission
		case resp.StatusCode >= 500:
			e.Retryable = true
		}
		return nil, e
	}
	d.info(ctx, "CONNECT tunnel to %s through %s established", target, paddr)
	if n := br.Buffered(); n > 0 {
		// The server behind the tunnel spoke first (an FTP or NNTP
		// greeting) and its bytes came with the proxy's reply.
		b, _ := br.Peek(n)
		return &prefixConn{Conn: c, prefix: append([]byte(nil), b...)}, nil
	}
	return c, nil
}

// prefixConn replays bytes read ahead from Conn before reading it further.
type prefixConn struct {
	net.Conn
	prefix []byte
}

// Read returns the replayed bytes first.
func (p *prefixConn) Read(b []byte) (int, error) {
	if len(p.prefix) > 0 {
		n := copy(b, p.prefix)
		p.prefix = p.prefix[n:]
		return n, nil
	}
	return p.Conn.Read(b)
}

// NetConn returns the underlying connection.
func (p *prefixConn) NetConn() net.Conn { return p.Conn }

// watch makes a handshake on c honour ctx: it sets c's deadline to ctx's
// and, when ctx is canceled, a deadline in the past. The returned func
// undoes both and, if the handshake failed because of ctx, returns ctx's
// error in place of the I/O error it caused.
func watch(ctx context.Context, c net.Conn) func(error) error {
	if dl, ok := ctx.Deadline(); ok {
		c.SetDeadline(dl)
	}
	stop := context.AfterFunc(ctx, func() { c.SetDeadline(aLongTimeAgo) })
	return func(err error) error {
		if !stop() && err == nil && ctx.Err() != nil {
			err = ctx.Err()
		}
		if err != nil {
			if ctxErr := ctx.Err(); ctxErr != nil {
				return fmt.Errorf("%w (%v)", ctxErr, err)
			}
			return err
		}
		c.SetDeadline(time.Time{})
		return nil
	}
}
