package ftp

import (
	"bufio"
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/textproto"
	"strconv"

	"github.com/urlget/urlget/schemes"
)

// Handler retrieves ftp and ftps URLs by the access algorithm of RFC 1738
// §3.2: log in, one CWD per directory component, then RETR, NLST (for
// ";type=d") or a directory listing (for a name ending in "/").
//
// It speaks FTP itself, on connections from the request's Dialer, so that
// every command is exactly the one the URL implies (see ctrl). Its only
// state is a pool of idle control connections, shared by the URLs of a run
// to the same server and login (RFC 1738 §3.2.5); it is safe for
// concurrent use and must not be copied after first use.
type Handler struct {
	// AnonPassword is the password of anonymous logins (--ftp-anon-password);
	// "" means $URLGET_EMAIL, $EMAIL, then user@host.
	AnonPassword string
	// ExplicitTLS upgrades ftp: control connections with AUTH TLS and
	// protects data connections (--ftp-ssl). ftps: URLs always use TLS.
	ExplicitTLS bool
	// Long renders directory listings like ls -l instead of one name a line.
	Long bool
	// Netrc, when set, supplies logins for hosts the URL names no user for
	// (--netrc, --netrc-file): the path of a .netrc file.
	Netrc string

	pool pool
}

var (
	_ schemes.Handler   = (*Handler)(nil)
	_ schemes.Explainer = (*Handler)(nil)
	_ schemes.Lister    = (*Handler)(nil)
)

// CloseIdleConnections sends QUIT on the idle control connections kept for
// reuse and closes them.
func (h *Handler) CloseIdleConnections() { h.pool.closeAll() }

func locator(req *schemes.Request) (*URL, error) {
	loc, ok := req.URL.(*URL)
	if !ok {
		return nil, &schemes.Error{Scheme: "ftp", Phase: "request", Kind: schemes.KindOther,
			Msg: fmt.Sprintf("ftp handler given a %T, want *ftp.URL", req.URL)}
	}
	return loc, nil
}

// Fetch carries out the access algorithm for req.URL. For a file, Body
// streams it from the data connection (TYPE A data with CRLF turned into
// LF); for a directory or NLST, Body is the listing and Entries holds it.
func (h *Handler) Fetch(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	loc, err := locator(req)
	if err != nil {
		return nil, err
	}
	tr := req.Trace
	if tr == nil {
		tr = schemes.NopTrace{}
		req.Trace = tr
	}
	lg := h.credentials(loc, req)
	if lg.Password != nil && !lg.Anonymous {
		tr.Secret(*lg.Password)
	}
	if err := checkLines(loc, lg); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, ioError(ctx, loc, "request", err)
	}
	if req.Dialer == nil {
		return nil, &schemes.Error{Scheme: loc.u.Scheme, Phase: "request", Kind: schemes.KindOther, URL: loc.Redacted(),
			Msg: "no Dialer in the request"}
	}
	c, err := h.conn(ctx, loc, req, lg)
	if err != nil {
		return nil, err
	}
	resp, err := h.retrieve(ctx, c, loc, req)
	if err != nil {
		if c.broken {
			c.close()
		} else {
			h.pool.put(c) // a 550 leaves the connection fine for the next URL
		}
		return nil, err
	}
	return resp, nil
}

// List returns the entries of the directory req.URL names (a URL ending
// in "/", or one with ";type=d").
func (h *Handler) List(ctx context.Context, req *schemes.Request) ([]schemes.Entry, error) {
	resp, err := h.Fetch(ctx, req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	if resp.Entries == nil {
		loc, _ := locator(req)
		return nil, &schemes.Error{Scheme: loc.u.Scheme, Phase: "list", Kind: schemes.KindUsage, URL: loc.Redacted(),
			Part: "name", Msg: "not a directory URL (end it with \"/\" or ;type=d)"}
	}
	return resp.Entries, nil
}

// conn returns a logged-in control connection at the login directory: an
// idle one from the pool after "CWD <login directory>" succeeds on it
// (RFC 1738 §3.2.5), else a new one.
func (h *Handler) conn(ctx context.Context, loc *URL, req *schemes.Request, lg login) (*ctrl, error) {
	key := h.key(loc, lg)
	for {
		c := h.pool.get(key)
		if c == nil {
			break
		}
		c.bind(ctx)
		c.tr = req.Trace
		c.tr.Info("reusing control connection to " + net.JoinHostPort(c.host, strconv.Itoa(c.port)))
		if rp, err := c.cmd("CWD " + c.loginDir); err == nil && rp.Code/100 == 2 {
			return c, nil
		}
		c.broken = true
		c.close()
		if err := ctx.Err(); err != nil {
			return nil, ioError(ctx, loc, "request", err)
		}
	}
	return h.dial(ctx, loc, req, lg, key)
}

func (h *Handler) key(loc *URL, lg login) poolKey {
	k := poolKey{scheme: loc.u.Scheme, host: loc.u.Host, port: loc.u.EffectivePort(), user: lg.User,
		tls: h.ExplicitTLS || loc.u.Scheme == "ftps"}
	if lg.Password != nil {
		k.pass = *lg.Password
	}
	return k
}

// dial opens a control connection: greeting, TLS when asked, login, then
// PWD to record the login directory.
func (h *Handler) dial(ctx context.Context, loc *URL, req *schemes.Request, lg login, key poolKey) (*ctrl, error) {
	nc, err := req.Dialer.Dial(ctx, loc.u.Scheme, loc.u.Host, loc.u.EffectivePort())
	if err != nil {
		return nil, err
	}
	c := newCtrl(nc, req.Trace, loc.u.Host, loc.u.EffectivePort())
	c.key = key
	ok := false
	defer func() {
		if !ok {
			c.broken = true
			c.close()
		}
	}()
	if key.tls {
		c.tlsCfg = tlsConfig(req.TLS, loc.u.Host)
	}
	if loc.u.Scheme == "ftps" {
		if err := c.startTLS(ctx); err != nil {
			return nil, tlsError(ctx, loc, err)
		}
	}
	if err := c.greeting(ctx, loc); err != nil {
		return nil, err
	}
	if h.ExplicitTLS && loc.u.Scheme == "ftp" {
		rp, err := c.cmd("AUTH TLS")
		if err != nil {
			return nil, ioError(ctx, loc, "tls", err)
		}
		if rp.Code != 234 {
			e := replyError(loc, "tls", "AUTH TLS", rp)
			e.Kind, e.Msg = schemes.KindSafety, "server refused TLS ("+rp.String()+") and --ftp-ssl requires it"
			return nil, e
		}
		if err := c.startTLS(ctx); err != nil {
			return nil, tlsError(ctx, loc, err)
		}
	}
	if err := c.doLogin(ctx, loc, req, lg); err != nil {
		return nil, err
	}
	if key.tls {
		for _, cmd := range []string{"PBSZ 0", "PROT P"} {
			rp, err := c.cmd(cmd)
			if err != nil {
				return nil, ioError(ctx, loc, "tls", err)
			}
			if rp.Code/100 != 2 {
				return nil, replyError(loc, "tls", cmd, rp)
			}
		}
		c.secure = true
	}
	rp, err := c.cmd("PWD")
	if err != nil {
		return nil, ioError(ctx, loc, "login", err)
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
func (c *ctrl) greeting(ctx context.Context, loc *URL) error {
	for {
		rp, err := c.read()
		if err != nil {
			return ioError(ctx, loc, "greeting", err)
		}
		switch {
		case rp.Code == 120:
			continue
		case rp.Code == 220:
			return nil
		default:
			c.broken = true
			return replyError(loc, "greeting", "connect", rp)
		}
	}
}

// startTLS wraps the control connection in TLS (implicit ftps, or after
// AUTH TLS).
func (c *ctrl) startTLS(ctx context.Context) error {
	tc := tls.Client(c.nc, c.tlsCfg)
	if err := tc.HandshakeContext(ctx); err != nil {
		return err
	}
	st := tc.ConnectionState()
	c.tr.Info(fmt.Sprintf("TLS %s, %s", tls.VersionName(st.Version), tls.CipherSuiteName(st.CipherSuite)))
	c.nc = tc
	c.r = textproto.NewReader(bufio.NewReaderSize(tc, 4096))
	return nil
}

func tlsConfig(base *tls.Config, host string) *tls.Config {
	var cfg *tls.Config
	if base != nil {
		cfg = base.Clone()
	} else {
		cfg = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	if cfg.ServerName == "" {
		cfg.ServerName = host
	}
	// Data connections resume the control connection's session: servers
	// such as vsftpd refuse a data connection that does not.
	cfg.ClientSessionCache = tls.NewLRUClientSessionCache(4)
	return cfg
}

func tlsError(ctx context.Context, loc *URL, err error) error {
	if ctx.Err() != nil {
		return ioError(ctx, loc, "tls", err)
	}
	return &schemes.Error{Scheme: loc.u.Scheme, Phase: "tls", Kind: schemes.KindSafety, URL: loc.Redacted(),
		Msg: "TLS handshake failed", Err: err}
}
