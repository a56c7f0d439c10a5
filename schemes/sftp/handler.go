package sftp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/pkg/sftp"

	"github.com/urlget/urlget/schemes"
)

// Handler retrieves, lists and describes sftp URLs over SSH connections
// from the request's Dialer. Logged-in sessions are kept in the request's
// Conns between requests, under a key of the server and the login. A
// Handler holds configuration only and is safe for concurrent use.
type Handler struct {
	// KnownHosts is the known hosts file; "" means ~/.ssh/known_hosts.
	KnownHosts string
	// AcceptNew accepts the key of a host the file does not name and
	// appends it there (OpenSSH's StrictHostKeyChecking=accept-new). A
	// key that differs from the file's is refused all the same.
	AcceptNew bool
	// KeyFile is the private key to log in with, alone, asked for its
	// passphrase at the terminal when it has one; "" offers the SSH
	// agent's keys ($SSH_AUTH_SOCK, through a schemes.LocalDialer) and
	// then OpenSSH's default identity files that exist.
	KeyFile string

	// words name options and settings in messages as the caller does.
	words schemes.Words
}

var (
	_ schemes.Handler   = (*Handler)(nil)
	_ schemes.Explainer = (*Handler)(nil)
	_ schemes.Lister    = (*Handler)(nil)
	_ schemes.Stater    = (*Handler)(nil)
)

// precision is how exact SFTP times are (version 3: whole seconds).
const precision = time.Second

// Fetch retrieves the file the URL names, from the offset the resume
// rule or the byte range allows; a directory (a path ending in "/", or a
// name the server says is one) is listed.
func (h *Handler) Fetch(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	return h.run(ctx, req, func(s *session, loc *URL) (*schemes.Response, error) {
		p := loc.RemotePath()
		if loc.IsDir() {
			return h.listDir(ctx, s, loc, p)
		}
		if e := req.Listed; e != nil && e.Kind == schemes.EntryFile && e.Size >= 0 && !e.ModTime.IsZero() {
			// A listing's size and time (a mirror's) spare the STAT:
			// the caller checks the bytes against that size.
			f, err := s.sftp.Open(p)
			if err != nil {
				return nil, opError(loc, "open", p, err)
			}
			return h.get(ctx, s, loc, req, p, e.Size, e.ModTime, f)
		}
		fi, f, err := statOpen(s, p)
		switch {
		case err != nil:
			return nil, opError(loc, "stat", p, err)
		case fi.IsDir():
			closeLater(f)
			return h.listDir(ctx, s, loc, p)
		case f == nil:
			_, err := s.sftp.Open(p) // the refusal's status, as the server words it
			return nil, opError(loc, "open", p, err)
		}
		return h.get(ctx, s, loc, req, p, fi.Size(), fi.ModTime(), f)
	})
}

// statOpen sends STAT and OPEN for p at once, so that a file costs one
// round trip before its first READ rather than two; f is nil when the
// server refused the OPEN (a directory it will not open, no permission).
func statOpen(s *session, p string) (fi os.FileInfo, f *sftp.File, err error) {
	opened := make(chan *sftp.File, 1)
	go func() {
		f, err := s.sftp.Open(p)
		if err != nil {
			f = nil
		}
		opened <- f
	}()
	fi, err = s.sftp.Stat(p)
	f = <-opened
	if err != nil {
		closeLater(f)
		return nil, nil, err
	}
	return fi, f, nil
}

// closeLater closes f without waiting for the server's answer: a handle
// only read from has nothing to report on closing, and the next request
// on the session need not wait a round trip for it. The CLOSE is sent
// once the reads still in flight on f have ended.
func closeLater(f *sftp.File) {
	if f != nil {
		go f.Close()
	}
}

// get starts Body on the opened file f (size bytes, modified at mtime)
// where req asks.
func (h *Handler) get(ctx context.Context, s *session, loc *URL, req *schemes.Request, p string, size int64, mtime time.Time, f *sftp.File) (*schemes.Response, error) {
	resp := &schemes.Response{Kind: schemes.EntryFile, Size: size, ModTime: mtime, Precision: precision}
	resp.Name, _ = schemes.SafeName(loc.name())
	if nm, ch := req.TimeCondition(mtime, precision); nm || ch {
		closeLater(f)
		resp.NotModified, resp.Changed, resp.Body = nm, ch, io.NopCloser(eofReader{})
		s.release()
		return resp, nil
	}
	if err := req.RangeError(loc.u.Scheme, size, 0); err != nil {
		closeLater(f)
		return nil, err
	}
	switch {
	case req.Suffix > 0:
		resp.Offset = max(0, size-req.Suffix)
	case req.Ranged():
		resp.Offset = req.Offset
		if req.Length > 0 {
			resp.Length = min(req.Length, size-req.Offset)
		}
	case req.Offset > 0:
		ok, why := req.MayResume(schemes.Remote{ModTime: mtime, Precision: precision, Size: size})
		s.tr.Info(why)
		if ok {
			resp.Offset = req.Offset
		}
	}
	if resp.Offset > 0 {
		s.tr.Sent(fmt.Sprintf("READ %s from byte %d", p, resp.Offset))
	} else {
		s.tr.Sent("READ " + p)
	}
	end := int64(-1)
	if resp.Length > 0 {
		end = resp.Offset + resp.Length
	}
	resp.Body = &body{ctx: ctx, f: f, r: newReadAhead(f, resp.Offset, end, size), s: s, loc: loc, p: p}
	return resp, nil
}

// eofReader is an empty body.
type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// body streams a file; closing it closes the handle and gives the
// session back to the pool.
type body struct {
	ctx    context.Context
	f      *sftp.File
	r      *readAhead
	s      *session
	loc    *URL
	p      string
	closed bool
}

func (b *body) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	switch {
	case err == nil, err == io.EOF:
	case b.ctx.Err() != nil:
		// The bound connection failed because the request ended.
		err = schemes.IOError(b.loc.u.Scheme, "read", b.ctx.Err())
	case errors.Is(err, sftp.ErrSSHFxConnectionLost):
		// The cause decides the kind: a deadline of the transport
		// (idle timeout) is a timeout, a close or reset a lost
		// connection.
		if cause := b.s.endedWithin(lostCauseWait); cause != nil {
			err = fmt.Errorf("%w: %w", err, cause)
		}
		err = opError(b.loc, "read", b.p, err)
	case !b.s.alive():
		err = schemes.IOError(b.loc.u.Scheme, "read", err) // the network
	default:
		err = opError(b.loc, "read", b.p, err)
	}
	return n, err
}

// Close gives the session back at once: the reads still in flight and
// the handle's CLOSE finish on their own, beside the session's next
// request.
func (b *body) Close() error {
	if b.closed {
		return nil
	}
	b.closed = true
	b.r.stop()
	closeLater(b.f)
	b.s.release()
	return nil
}

// Stat describes what the URL names with SSH_FXP_STAT (links followed).
func (h *Handler) Stat(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	return h.run(ctx, req, func(s *session, loc *URL) (*schemes.Response, error) {
		p := loc.RemotePath()
		fi, err := s.sftp.Stat(p)
		if err != nil {
			return nil, opError(loc, "stat", p, err)
		}
		e := entryOf(loc, fi.Name(), fi)
		resp := &schemes.Response{Kind: e.Kind, Size: e.Size, ModTime: e.ModTime, Precision: e.Precision}
		resp.Name, _ = schemes.SafeName(loc.name())
		s.release()
		return resp, nil
	})
}

// List lists the directory the URL names, with or without its final
// "/". A file is no directory to list (KindUsage).
func (h *Handler) List(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	return h.run(ctx, req, func(s *session, loc *URL) (*schemes.Response, error) {
		p := loc.RemotePath()
		if !loc.IsDir() {
			fi, err := s.sftp.Stat(p)
			if err != nil {
				return nil, opError(loc, "stat", p, err)
			}
			if !fi.IsDir() {
				s.release()
				return nil, &schemes.Error{Scheme: loc.u.Scheme, Phase: "list", Kind: schemes.KindUsage, Part: "path",
					Msg: fmt.Sprintf("%q is a file, not a directory to list", p)}
			}
		}
		return h.listDir(ctx, s, loc, p)
	})
}

// run does what every request shares: it checks req, takes a session
// from the pool or dials one (schemes.UseSession), and runs step on it.
// step hands the session on to what it returns, or releases it; on its
// failure the session goes back to the pool if its connection still
// works. A leased session whose connection ended while idle is stale:
// the pool dials once and step starts again.
func (h *Handler) run(ctx context.Context, req *schemes.Request, step func(*session, *URL) (*schemes.Response, error)) (*schemes.Response, error) {
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
	if err := ctx.Err(); err != nil {
		return nil, schemes.IOError(loc.u.Scheme, "request", err)
	}
	if req.Dialer == nil {
		return nil, &schemes.Error{Scheme: loc.u.Scheme, Phase: "request", Kind: schemes.KindOther,
			Msg: "no Dialer in the request"}
	}
	g := loc.u
	// A session logged in with ambient keys never serves a request that
	// allows none: the difference is part of the login the key digests.
	pw := lg.password()
	if !req.NoAmbientCredentials && h.KeyFile == "" {
		pw += "\x00ambient keys"
	}
	key, _ := schemes.NewConnKey(req, g.Scheme, g.Host, g.EffectivePort(), true, lg.User, pw)
	dial := func(ctx context.Context) (schemes.Session, error) { return h.dial(ctx, loc, req, lg, key) }
	var resp *schemes.Response
	err = schemes.UseSession(ctx, req.Conns, key, nil, dial, func(ss schemes.Session, leased bool) (bool, error) {
		s := ss.(*session)
		if leased {
			if !s.alive() {
				s.Close()
				return true, schemes.IOError(g.Scheme, "request", errStale)
			}
			s.tr.Info("reusing the SSH connection to " + g.HostPort())
		}
		var err error
		resp, err = step(s, loc)
		if err == nil {
			return false, nil
		}
		if leased && !s.alive() && ctx.Err() == nil {
			s.Close()
			return true, err
		}
		s.release()
		return false, err
	})
	return resp, err
}

// lostCauseWait is how long a read whose SFTP channel was lost waits for
// the SSH connection's end, to say why it was lost.
const lostCauseWait = 2 * time.Second

// opError maps a failed SFTP operation on p: no such file is
// KindNotFound (fs.ErrNotExist in its chain), a refusal KindPermission,
// another status of the server KindProtocol, anything else a broken
// connection (schemes.IOError). pkg/sftp's "connection lost" (the
// channel closed under a pending request) is KindConnect and retryable
// unless its cause, when known, says more (a timeout): it is no answer
// of the server about p.
func opError(loc *URL, phase, p string, err error) error {
	e := &schemes.Error{Scheme: loc.u.Scheme, Phase: phase, Part: "path", Err: err}
	var st *sftp.StatusError
	var ours *statusError
	switch {
	case errors.Is(err, sftp.ErrSSHFxConnectionLost), errors.Is(err, sftp.ErrSSHFxNoConnection):
		ie := schemes.IOError(loc.u.Scheme, phase, err)
		if se, ok := ie.(*schemes.Error); ok && se.Kind == schemes.KindOther {
			se.Kind, se.Retryable = schemes.KindConnect, true // pkg/sftp's own words say it: "connection lost"
		}
		return ie
	case errors.Is(err, fs.ErrNotExist):
		e.Kind, e.Msg = schemes.KindNotFound, fmt.Sprintf("%s: no such file or directory", p)
	case errors.Is(err, fs.ErrPermission):
		e.Kind, e.Msg = schemes.KindPermission, fmt.Sprintf("%s: permission denied", p)
	case errors.As(err, &st), errors.As(err, &ours):
		e.Kind, e.Msg = schemes.KindProtocol, fmt.Sprintf("%s: the server said %v", p, err)
	case errors.Is(err, errBadPacket):
		e.Kind, e.Msg = schemes.KindProtocol, fmt.Sprintf("%s: %v", p, err)
	default:
		return schemes.IOError(loc.u.Scheme, phase, err)
	}
	return e
}
