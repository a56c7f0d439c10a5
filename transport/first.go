package transport

import (
	"context"
	"time"

	"github.com/urlget/urlget/schemes"
)

// First is a request's first exchange on a session of a protocol whose
// server speaks only when asked (Z39.50, WAIS): what UseFirst needs of
// the handler.
type First[S schemes.Session] struct {
	// Scheme names the request's scheme in its errors.
	Scheme string
	// Noun names the session in trace lines ("association"), and Peer
	// its server after it, with the preposition ("with h:210").
	Noun, Peer string
	// Dial makes a new session: it connects, and greets where the
	// protocol does.
	Dial func(ctx context.Context) (S, error)
	// Resume readies a kept session for this request: the request's URL,
	// and tr, the request's own trace scope for it.
	Resume func(s S, tr schemes.Trace)
	// Exchange is the request's first exchange on s.
	Exchange func(s S) error
	// Drop ends s after a failed exchange, which left it out of step.
	Drop func(s S)
}

// UseFirst runs f.Exchange on a session kept in req.Conns under key, or
// on a new one from f.Dial (schemes.UseSession), and returns the session,
// the caller's to keep or end. A kept session is resumed (f.Resume) in a
// new scope of req.Trace, its deadline req.Timeout from now when that is
// set. When its exchange fails with KindConnect before its connection has
// read a byte, while ctx is alive, the server closed it while it was
// idle: nothing the request asked for has happened, the session is
// reported stale, and the pool dials once. A session whose exchange
// failed is dropped (f.Drop). A ctx already done fails before anything
// is leased or dialed.
func UseFirst[S schemes.Session](ctx context.Context, req *schemes.Request, key schemes.ConnKey, f First[S]) (S, error) {
	var got S
	if err := ctx.Err(); err != nil { // ended before it began: no connection
		return got, schemes.IOError(f.Scheme, "dial", err)
	}
	err := schemes.UseSession(ctx, req.Conns, key, nil, func(ctx context.Context) (schemes.Session, error) {
		s, err := f.Dial(ctx)
		if err != nil {
			return nil, err
		}
		return s, nil
	}, func(v schemes.Session, leased bool) (bool, error) {
		s := v.(S)
		var tr schemes.Trace
		if leased {
			tr = schemes.NewScope(req.Trace)
			f.Resume(s, tr)
			tr.Info("reusing the " + f.Noun + " " + f.Peer)
			if req.Timeout > 0 {
				s.Conn().SetDeadline(time.Now().Add(req.Timeout))
			}
		}
		before := BytesReadOf(s.Conn())
		if err := f.Exchange(s); err != nil {
			stale := leased && ctx.Err() == nil && schemes.KindOf(err) == schemes.KindConnect && BytesReadOf(s.Conn()) == before
			if stale {
				tr.Info("the idle " + f.Noun + " was closed by the server: connecting again")
			}
			f.Drop(s)
			return stale, err
		}
		got = s
		return false, nil
	})
	return got, err
}
