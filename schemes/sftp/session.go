package sftp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/pkg/sftp"
	"golang.org/x/crypto/ssh"

	"github.com/urlget/urlget/schemes"
)

// session is one logged-in SSH connection with its SFTP channel, as the
// pool keeps it between requests: the next file of the same server and
// login costs no handshake, key exchange or login. SFTP requests carry
// their own handles and offsets, so a session has no state a request
// leaves behind.
type session struct {
	nc   net.Conn
	ssh  *ssh.Client
	sftp *sftp.Client
	// dirs is the channel listings go over, opened by the first one;
	// noDirs says the server would not open it.
	dirs   *dirChannel
	noDirs bool
	dead   chan struct{} // closed when the SSH connection ended
	// ended is why it ended (ssh.Client.Wait's error), set before dead
	// is closed.
	ended error
	tr    schemes.Trace
	key   schemes.ConnKey
	conns schemes.Conns
}

var _ schemes.SelfReader = (*session)(nil)

// Conn is the TCP connection under SSH, which the pool binds to each
// request's context.
func (s *session) Conn() net.Conn { return s.nc }

// Close ends the SFTP channel and the SSH connection.
func (s *session) Close() error {
	if s.dirs != nil {
		s.dirs.Close()
	}
	s.sftp.Close()
	return s.ssh.Close()
}

// Unread is 0: the SSH package reads the connection itself, all the
// time, and a server's unasked messages (keepalives, window updates) are
// its business, not a stray reply.
func (s *session) Unread() int { return 0 }

// AtRest says the SSH connection is up (schemes.SelfReader): the ssh
// package's reader holds the socket, and a request leaves nothing behind
// on it once its file handle is closed.
func (s *session) AtRest() bool { return s.alive() }

// alive says the SSH connection has not ended.
func (s *session) alive() bool {
	select {
	case <-s.dead:
		return false
	default:
		return true
	}
}

// endedWithin is why the SSH connection ended, waiting for it for d at
// most: pkg/sftp reports every request pending when its channel closes
// as "connection lost" (sftp.ErrSSHFxConnectionLost), without the
// cause, which the ssh package sees a moment later, when its reader
// ends. nil when the connection still runs.
func (s *session) endedWithin(d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-s.dead:
		return s.ended
	case <-t.C:
		return nil
	}
}

// dropBrokenDirs closes the directory channel once it is out of step
// (a malformed answer, a failed read): the next listing opens another.
func (s *session) dropBrokenDirs() {
	if s.dirs != nil && s.dirs.broken != nil {
		s.dirs.Close()
		s.dirs = nil
	}
}

// release gives the session back to the pool when it still works, or
// closes it.
func (s *session) release() {
	if s.conns != nil && s.key.Pooled() && s.alive() {
		s.conns.Keep(s.key, s)
		return
	}
	s.Close()
}

// dial connects through the request's Dialer, checks the host key, logs
// in and opens the sftp subsystem, in a trace scope of its own.
func (h *Handler) dial(ctx context.Context, loc *URL, req *schemes.Request, lg login, key schemes.ConnKey) (*session, error) {
	g := loc.u
	tr := schemes.NewScope(req.Trace)
	file, err := h.knownHostsFile()
	if err != nil {
		return nil, &schemes.Error{Scheme: g.Scheme, Phase: "host key", Kind: schemes.KindUsage, Part: "host key",
			Msg: "no known hosts file: no home directory, and no file given", Err: err}
	}
	address := net.JoinHostPort(g.Host, strconv.Itoa(g.EffectivePort()))
	hk := &hostKeys{file: file, acceptNew: h.AcceptNew, scheme: g.Scheme, words: h.words, trace: tr}
	check, algos, err := hk.callback(address)
	if err != nil {
		return nil, err
	}
	methods, keys, err := h.authMethods(ctx, loc, req, lg, tr)
	if err != nil {
		return nil, err
	}
	defer keys.close()
	nc, err := req.Dialer.Dial(schemes.WithTrace(ctx, tr), g.Scheme, g.Host, g.EffectivePort())
	if err != nil {
		return nil, err
	}
	cfg := &ssh.ClientConfig{User: lg.User, Auth: methods, HostKeyCallback: check, HostKeyAlgorithms: algos,
		ClientVersion: "SSH-2.0-urlget"}
	tr.Info("SSH to " + address + " as " + lg.User)
	c, chans, reqs, err := ssh.NewClientConn(nc, address, cfg)
	if err != nil {
		nc.Close()
		switch {
		case hk.refused != nil:
			return nil, hk.refused
		case ctxEnded(ctx) != nil:
			return nil, schemes.IOError(g.Scheme, "connect", ctxEnded(ctx))
		case errors.Is(err, errNoPassword):
			return nil, &schemes.Error{Scheme: g.Scheme, Phase: "auth", Kind: schemes.KindPermission, Part: "auth",
				Msg: fmt.Sprintf("the server wants a password for %q%s, and none was given (in the URL, or by %s) "+
					"nor could one be asked for", lg.User, keys.refused(), h.words.Setting(schemes.SettingCredentials)), Err: err}
		case strings.Contains(err.Error(), "unable to authenticate"):
			msg := fmt.Sprintf("the server refused the login of %q", lg.User)
			if keys.offered > 0 {
				msg += keys.refused()
			}
			if lg.From != "" && lg.Password != nil {
				msg += " with the password from " + lg.From
			}
			return nil, &schemes.Error{Scheme: g.Scheme, Phase: "auth", Kind: schemes.KindPermission, Part: "auth",
				Msg: msg, Err: scrub(err, lg)}
		}
		return nil, schemes.IOError(g.Scheme, "connect", scrub(err, lg))
	}
	tr.Received(string(c.ServerVersion()))
	client := ssh.NewClient(c, chans, reqs)
	sc, err := sftp.NewClient(client)
	if err != nil {
		client.Close()
		if err := ctxEnded(ctx); err != nil {
			// The bound connection closed under the subsystem's start
			// because the request ended: its time, not the server's
			// lack of sftp.
			return nil, schemes.IOError(g.Scheme, "connect", err)
		}
		return nil, &schemes.Error{Scheme: g.Scheme, Phase: "connect", Kind: schemes.KindProtocol,
			Msg: "the server has no sftp subsystem", Err: err}
	}
	tr.Info("sftp subsystem started")
	s := &session{nc: nc, ssh: client, sftp: sc, dead: make(chan struct{}), tr: tr, key: key, conns: req.Conns}
	go func() {
		s.ended = client.Wait()
		close(s.dead)
	}()
	return s, nil
}

// ctxEnded is ctx's error, or context.DeadlineExceeded once its deadline
// has passed though its timer has yet to mark it (the connection's
// deadline, set from it, can expire a moment earlier); nil while ctx goes
// on.
func ctxEnded(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if dl, ok := ctx.Deadline(); ok && !time.Now().Before(dl) {
		return context.DeadlineExceeded
	}
	return nil
}

// scrub removes the login's password from err's text.
func scrub(err error, lg login) error {
	if lg.Password == nil || *lg.Password == "" {
		return err
	}
	return schemes.ScrubSecrets(err, *lg.Password)
}

// errStale is the failure of a leased session whose SSH connection had
// ended while it was idle.
var errStale = errors.New("the idle SSH connection was closed")
