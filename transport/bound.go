package transport

import (
	"context"
	"net"
)

// Bound returns c ready for one request under ctx, whoever dialed it: the
// *Conn under c (c itself, or under TLS) bound to ctx (see Conn.Bind), or,
// for a connection of another schemes.Dialer, c adopted by Wrap so that
// it still honours ctx and counts bytes. Every handler binds its fresh
// connections through here and Pool.Lease binds leased ones, so there is
// one way a connection is tied to a request.
//
// conn is what the handler reads and writes (c, or the wrapper), tc the
// *Conn under it.
func Bound(ctx context.Context, c net.Conn) (conn net.Conn, tc *Conn) {
	if tc, ok := ConnOf(c); ok {
		tc.Bind(ctx)
		return c, tc
	}
	tc = Wrap(ctx, c, 0)
	return tc, tc
}
