package ftp

import (
	"context"
	"slices"
	"time"

	"github.com/urlget/urlget/schemes"
)

// password is the login's password, "" when it has none.
func (lg login) password() string {
	if lg.Password == nil {
		return ""
	}
	return *lg.Password
}

// usesTLS says whether loc's control connection is protected: always for
// ftps, with --ftp-ssl or --ssl-reqd for ftp (explicitTLS).
func (h *Handler) usesTLS(loc *URL, req *schemes.Request) bool {
	return h.explicitTLS(req) || loc.u.Scheme == "ftps"
}

// cwdCost is the number of CWD commands chdir sends to go from the
// directory at to dir. The pool lends the idle connection of the lowest
// cost (a mirror's parallel transfers then keep to their directories); a
// pooled connection keeps the trace scope it was dialed with, so that its
// lines read as one conversation, and the directory and TYPE its last
// request left (see chdir).
func cwdCost(at, dir []string) int {
	if len(at) > len(dir) || !slices.Equal(at, dir[:len(at)]) {
		return 1 + len(dir)
	}
	return len(dir) - len(at)
}

// dial opens a control connection in a trace scope of its own: greeting,
// TLS when asked, login, then PWD to record the login directory, sent
// with the commands of pl (pipeline.go).
func (h *Handler) dial(ctx context.Context, loc *URL, req *schemes.Request, lg login, key schemes.ConnKey, pl plan) (*ctrl, error) {
	tr := schemes.NewScope(req.Trace)
	nc, err := req.Dialer.Dial(schemes.WithTrace(ctx, tr), loc.u.Scheme, loc.u.Host, loc.u.EffectivePort())
	if err != nil {
		return nil, err
	}
	c := newCtrl(ctx, nc, tr, loc.u.Host, loc.u.EffectivePort())
	c.noAhead, c.noPipe = &h.noAhead, &h.noPipe
	c.key, c.conns = key, req.Conns
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
	useTLS := h.usesTLS(loc, req)
	if useTLS {
		c.sessions = newSessions()
	}
	if loc.u.Scheme == "ftps" {
		if err := c.startTLS(ctx, loc, req.Dialer); err != nil {
			return nil, err
		}
	}
	if err := c.greeting(loc); err != nil {
		return nil, err
	}
	if h.explicitTLS(req) && loc.u.Scheme == "ftp" {
		rp, err := c.cmd("AUTH TLS")
		if err != nil {
			return nil, ioError(loc, "tls", err)
		}
		if rp.Code != 234 {
			e := c.replyError(loc, "tls", "AUTH TLS", rp)
			if e.Kind != schemes.KindBusy {
				e.Kind, e.Msg = schemes.KindSafety, "server refused TLS ("+c.redact(rp.String())+") and "+h.requiredBy(req)+" requires it"
			}
			return nil, e
		}
		if err := c.startTLS(ctx, loc, req.Dialer); err != nil {
			return nil, err
		}
	}
	start := time.Now()
	if err := c.doLogin(ctx, loc, req, lg, h.words); err != nil {
		return nil, err
	}
	c.rtt = time.Since(start) // a round trip or two: the least wait for a batch's replies
	if h.pipelines(c) {
		var batch []string
		if useTLS {
			batch = append(batch, "PBSZ 0", "PROT P")
		}
		batch = append(append(batch, "PWD"), pl(c, loc)...)
		if err := c.sendBatch(batch); err != nil {
			return nil, ioError(loc, "login", err)
		}
	}
	if useTLS {
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
