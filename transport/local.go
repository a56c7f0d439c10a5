package transport

import (
	"context"
	"errors"
	"io/fs"
	"net"

	"github.com/urlget/urlget/schemes"
)

var _ schemes.LocalDialer = (*Dialer)(nil)

// DialLocal connects to the unix stream socket at path on behalf of
// scheme (schemes.LocalDialer: a socket the user's environment names,
// such as the SSH agent's $SSH_AUTH_SOCK) and returns a *Conn bound to
// ctx, with the idle timeout and byte counting of a dialed connection.
// Neither the port policy nor a proxy applies: the socket is on this
// machine, and no proxy could reach it. ConnectTimeout bounds the
// connect as Dial's. Errors are *schemes.Error of Dial's kinds; a missing
// socket is KindConnect, not retryable (asking again will not make it),
// with fs.ErrNotExist in its chain.
func (d *Dialer) DialLocal(ctx context.Context, scheme, path string) (net.Conn, error) {
	what := "local socket " + path
	if ctx.Err() != nil {
		return nil, dialError(ctx, scheme, what, "", ctx.Err())
	}
	dctx, cancel, timeout := d.connectContext(ctx)
	defer cancel()
	d.info(ctx, "Connecting to %s", what)
	c, err := (&net.Dialer{}).DialContext(dctx, "unix", path)
	if err != nil {
		err = dialError(ctx, scheme, what, timeout, err)
		var se *schemes.Error
		if errors.As(err, &se) && errors.Is(err, fs.ErrNotExist) {
			se.Retryable = false
		}
		return nil, err
	}
	d.info(ctx, "Connected to %s", what)
	return Wrap(ctx, c, d.IdleTimeout), nil
}
