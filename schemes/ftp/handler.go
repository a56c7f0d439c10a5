package ftp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/urlget/urlget/schemes"
)

// Handler retrieves ftp and ftps URLs by the access algorithm of RFC 1738
// §3.2: log in, one CWD per directory component, then RETR, NLST (for
// ";type=d") or a directory listing (for a name ending in "/").
//
// It speaks FTP itself, on connections from the request's Dialer, so that
// every command is exactly the one the URL implies (see ctrl). Logged-in
// control connections are kept between requests in the request's Conns,
// under a key of the server, login and TLS settings (RFC 1738 §3.2.5
// reuses a connection only for the same user). A Handler holds
// configuration only and is safe for concurrent use.
type Handler struct {
	// AnonPassword is the password of anonymous logins (--ftp-anon-password);
	// "" means $URLGET_EMAIL, $EMAIL, then user@host.
	AnonPassword string
	// ExplicitTLS upgrades ftp: control connections with AUTH TLS and
	// protects data connections (--ftp-ssl), as Request.RequireTLS
	// (--ssl-reqd) does for one request. ftps: URLs always use TLS.
	// Logins come from the URL or Request.Credentials (-u, netrc), never
	// from a file the handler reads.
	ExplicitTLS bool
	// DefaultType, 'a' (--ascii) or 'i' (--binary), is the TYPE of files
	// whose URL has no ";type=", in place of the guess from the name
	// (RFC 1738 §3.2.3); 0 guesses. A typecode in the URL still wins.
	DefaultType byte
	// NoPipeline sends each file's EPSV after the transfer before it has
	// ended (--no-pipeline): otherwise, when the caller names the files it
	// fetches next (schemes.NextOf), the next one's EPSV goes with RETR,
	// and the schemes claim schemes.Pipelines (ahead.go). It also sends
	// every command in its turn, where otherwise those a request sends
	// whatever the replies go together (pipeline.go).
	NoPipeline bool

	// noAhead holds the servers ("host:port") that did not answer an
	// EPSV sent ahead; noPipe those that answered commands sent together
	// out of step (pipeline.go).
	noAhead sync.Map
	noPipe  sync.Map
	// words name options and settings in messages as the caller does
	// (the declaration's Values): who chose a TYPE, what requires TLS,
	// where a password can come from.
	words schemes.Words
}

var (
	_ schemes.Handler   = (*Handler)(nil)
	_ schemes.Explainer = (*Handler)(nil)
	_ schemes.Lister    = (*Handler)(nil)
	_ schemes.Stater    = (*Handler)(nil)
)

// Fetch carries out the access algorithm for req.URL. For a file, Body
// streams it from the data connection (TYPE A data with CRLF turned into
// LF); for a directory (a name ending in "/") or ";type=d", Listing
// streams its entries.
func (h *Handler) Fetch(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	return h.run(ctx, req, h.fetchPlan(req), func(c *ctrl, loc *URL) (*schemes.Response, error) {
		if err := c.chdir(loc, loc.Cwd); err != nil {
			return nil, err
		}
		switch {
		case loc.Type == 'd':
			return h.nlst(ctx, c, loc, req)
		case loc.Name == "":
			return h.listDir(ctx, c, loc, req, loc.Cwd)
		}
		return h.retr(ctx, c, loc, req)
	})
}

// List lists req.URL as a directory, whatever its syntax says: a URL with
// ";type=d" as Fetch does (NLST), any other one by changing into its name
// (when it has one) and listing there, so that "ftp://h/pub" lists pub.
func (h *Handler) List(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	return h.run(ctx, req, chdirPlan, func(c *ctrl, loc *URL) (*schemes.Response, error) {
		if err := c.chdir(loc, loc.Cwd); err != nil {
			return nil, err
		}
		if loc.Type == 'd' {
			return h.nlst(ctx, c, loc, req)
		}
		dir := loc.Cwd
		if loc.Name != "" {
			if err := c.cwdName(loc); err != nil {
				return nil, err
			}
			dir = append(dir[:len(dir):len(dir)], loc.Name)
		}
		return h.listDir(ctx, c, loc, req, dir)
	})
}

// run does what every request shares: it checks req, gets a logged-in
// control connection (schemes.UseSession: a pooled one, else a new one),
// sends the commands of plan together (pipeline.go), and runs step on it. When step fails, the connection goes back to the
// pool if it is still in order (a 550 leaves it fine for the next URL);
// on success step has handed it to what it returned. A pooled connection
// the server closed while it was idle (the first command met the end of
// the connection or a 421 "Timeout") is reported stale, and the pool
// dials once and step starts again there: nothing had happened yet. A
// server that answered a batch out of step is asked once more, one command
// at a time.
func (h *Handler) run(ctx context.Context, req *schemes.Request, pl plan, step func(*ctrl, *URL) (*schemes.Response, error)) (*schemes.Response, error) {
	loc, err := schemes.LocatorOf[*URL](req)
	if err != nil {
		return nil, err
	}
	if req.Trace == nil {
		req.Trace = schemes.NopTrace{}
	}
	lg := h.credentials(loc, req)
	if lg.Password != nil {
		req.Trace.Secret(*lg.Password)
	}
	if err := checkLines(loc, lg); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, ioError(loc, "request", err)
	}
	if req.Dialer == nil {
		return nil, &schemes.Error{Scheme: loc.u.Scheme, Phase: "request", Kind: schemes.KindOther,
			Msg: "no Dialer in the request"}
	}
	key, _ := schemes.NewConnKey(req, loc.u.Scheme, loc.u.Host, loc.u.EffectivePort(), h.usesTLS(loc, req), lg.User, lg.password())
	resp, err := h.session(ctx, req, loc, lg, key, pl, step)
	if errors.Is(err, errOutOfStep) && ctx.Err() == nil {
		resp, err = h.session(ctx, req, loc, lg, key, pl, step)
	}
	return resp, err
}

// session is one attempt of run: a session from the pool or dialed, with
// plan's batch, and step on it.
func (h *Handler) session(ctx context.Context, req *schemes.Request, loc *URL, lg login, key schemes.ConnKey, pl plan,
	step func(*ctrl, *URL) (*schemes.Response, error)) (*schemes.Response, error) {
	cost := func(s schemes.Session) int { return cwdCost(s.(*ctrl).at, loc.Cwd) }
	dial := func(ctx context.Context) (schemes.Session, error) { return h.dial(ctx, loc, req, lg, key, pl) }
	var resp *schemes.Response
	err := schemes.UseSession(ctx, req.Conns, key, cost, dial, func(s schemes.Session, leased bool) (bool, error) {
		c := s.(*ctrl)
		if leased {
			c.tr.Info("reusing control connection to " + c.peer())
		}
		c.heard = false
		if leased && h.pipelines(c) {
			// A failed write or a stray reply is met again by the
			// first command, and judged there.
			_ = c.sendBatch(pl(c, loc))
		}
		var err error
		resp, err = step(c, loc)
		if err == nil {
			return false, nil
		}
		if leased && !c.heard && ctx.Err() == nil && droppedIdle(err) {
			c.tr.Info("the server closed the idle control connection (" + errorText(err) + "): connecting again")
			c.broken = true
			c.close()
			return true, err
		}
		c.release()
		return false, err
	})
	return resp, err
}

// errorText is err's message without the URL it names.
func errorText(err error) string {
	var se *schemes.Error
	if errors.As(err, &se) && se.Msg != "" {
		return se.Msg
	}
	return err.Error()
}

// droppedIdle tells the failures of a first command that mean the server
// let an idle connection go: the connection was closed or reset, or the
// server said 421 (vsftpd's "421 Timeout.") before closing it.
func droppedIdle(err error) bool {
	k := schemes.KindOf(err)
	return k == schemes.KindConnect || k == schemes.KindBusy
}

// chdir makes dir (a URL's Cwd, one CWD argument per segment, relative to
// the login directory as RFC 1738 §3.2.5 says) the connection's current
// directory, sending only what is needed: nothing when the connection is
// there already, the missing segments when it is in a parent of dir on
// the way there, else "CWD <login directory>" and every segment. A
// failed CWD changes nothing (RFC 959: the action was not taken).
func (c *ctrl) chdir(loc *URL, dir []string) error {
	if len(c.at) > len(dir) || !slices.Equal(c.at, dir[:len(c.at)]) {
		if err := c.simple(loc, "cwd", "CWD "+c.loginDir); err != nil {
			return err
		}
		c.at = nil
	}
	for i := len(c.at); i < len(dir); i++ {
		if err := c.enter(loc, dir[i]); err != nil {
			if dir[i] == "" {
				return emptySegment(loc, i, err)
			}
			return err
		}
	}
	return nil
}

// enter changes into seg, a directory in the current one.
func (c *ctrl) enter(loc *URL, seg string) error {
	if err := c.simple(loc, "cwd", "CWD "+seg); err != nil {
		return err
	}
	c.entered(seg)
	return nil
}

// entered notes a successful "CWD seg".
func (c *ctrl) entered(seg string) { c.at = append(c.at[:len(c.at):len(c.at)], seg) }

// cwdName changes into loc's name, for List. A name that is a file is not
// a directory to list (KindUsage, as Lister says); SIZE tells a file from
// a name that is not there only when CWD has failed.
func (c *ctrl) cwdName(loc *URL) error {
	err := c.enter(loc, loc.Name)
	if schemes.KindOf(err) != schemes.KindNotFound {
		return err
	}
	if n, serr := c.size(loc); serr != nil || n < 0 {
		return cmp.Or(serr, err)
	}
	return &schemes.Error{Scheme: loc.u.Scheme, Phase: "list", Kind: schemes.KindUsage,
		Part: "name", Msg: fmt.Sprintf("%q is a file, not a directory to list", loc.Name)}
}
