package ftp

import (
	"context"
	"net"
	"strconv"

	"github.com/urlget/urlget/schemes"
)

// conn returns a logged-in control connection: an idle one from the pool
// (reused), else a new one at the login directory. A pooled connection
// keeps the trace scope it was dialed with, so that its lines read as one
// conversation, and the directory and TYPE its last request left (see
// chdir): nothing is sent to check it is still alive, since the first
// command of the request does that (see Handler.run).
func (h *Handler) conn(ctx context.Context, loc *URL, req *schemes.Request, lg login) (c *ctrl, reused bool, err error) {
	key := h.key(loc, lg)
	if c := h.pool.get(key, loc.Cwd); c != nil {
		c.bind(ctx)
		c.tr.Info("reusing control connection to " + net.JoinHostPort(c.host, strconv.Itoa(c.port)))
		return c, true, nil
	}
	c, err = h.dial(ctx, loc, req, lg, key)
	return c, false, err
}

func (h *Handler) key(loc *URL, lg login) poolKey {
	k := poolKey{scheme: loc.u.Scheme, host: loc.u.Host, port: loc.u.EffectivePort(), user: lg.User,
		tls: h.ExplicitTLS || loc.u.Scheme == "ftps"}
	if lg.Password != nil {
		k.pass = *lg.Password
	}
	return k
}

// dial opens a control connection in a trace scope of its own: greeting,
// TLS when asked, login, then PWD to record the login directory.
func (h *Handler) dial(ctx context.Context, loc *URL, req *schemes.Request, lg login, key poolKey) (*ctrl, error) {
	tr := schemes.NewScope(req.Trace)
	nc, err := req.Dialer.Dial(schemes.WithTrace(ctx, tr), loc.u.Scheme, loc.u.Host, loc.u.EffectivePort())
	if err != nil {
		return nil, err
	}
	c := newCtrl(nc, tr, loc.u.Host, loc.u.EffectivePort())
	c.key = key
	if lg.Password != nil {
		c.secret = *lg.Password
	}
	ok := false
	defer func() {
		if !ok {
			c.broken = true
			c.close()
		}
	}()
	if key.tls {
		c.tlsCfg = tlsConfig(req.TLS)
	}
	if loc.u.Scheme == "ftps" {
		if err := c.startTLS(ctx, loc, req.Dialer); err != nil {
			return nil, err
		}
	}
	if err := c.greeting(loc); err != nil {
		return nil, err
	}
	if h.ExplicitTLS && loc.u.Scheme == "ftp" {
		rp, err := c.cmd("AUTH TLS")
		if err != nil {
			return nil, ioError(loc, "tls", err)
		}
		if rp.Code != 234 {
			e := c.replyError(loc, "tls", "AUTH TLS", rp)
			if e.Kind != schemes.KindBusy {
				e.Kind, e.Msg = schemes.KindSafety, "server refused TLS ("+c.redact(rp.String())+") and --ftp-ssl requires it"
			}
			return nil, e
		}
		if err := c.startTLS(ctx, loc, req.Dialer); err != nil {
			return nil, err
		}
	}
	if err := c.doLogin(ctx, loc, req, lg); err != nil {
		return nil, err
	}
	if key.tls {
		for _, cmd := range []string{"PBSZ 0", "PROT P"} {
			if err := c.simple(loc, "tls", cmd); err != nil {
				return nil, err
			}
		}
		c.secure = true
	}
	rp, err := c.cmd("PWD")
	if err != nil {
		return nil, ioError(loc, "login", err)
	}
	if rp.Code == 421 {
		return nil, c.replyError(loc, "login", "PWD", rp)
	}
	if rp.Code == 257 {
		if dir, ok := parsePWD(rp.Text()); ok && checkLines(&URL{u: loc.u, Name: dir}, login{}) == nil {
			c.loginDir = dir
		}
	}
	ok = true
	return c, nil
}

// greeting reads the server's 220, waiting through 120 "ready in n minutes".
func (c *ctrl) greeting(loc *URL) error {
	for {
		rp, err := c.read()
		if err != nil {
			return ioError(loc, "greeting", err)
		}
		switch {
		case rp.Code == 120:
			continue
		case rp.Code == 220:
			return nil
		default:
			c.broken = true
			return c.replyError(loc, "greeting", "connect", rp)
		}
	}
}
