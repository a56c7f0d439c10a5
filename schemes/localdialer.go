package schemes

import (
	"context"
	"net"
)

// LocalDialer is implemented by a Dialer that can also open a local
// stream socket (a unix domain socket), with Dial's connect and idle
// timeouts, cancellation by ctx and tracing: the transport package's
// does. A handler asserts it on Request.Dialer and does without when the
// Dialer is of another kind.
//
// It is only for sockets the user's own environment names, as
// $SSH_AUTH_SOCK names the SSH agent's: never for a path that comes from
// a URL, a server's reply or anything else a remote party chooses, since
// a local socket is a service of this machine that no port policy guards.
type LocalDialer interface {
	// DialLocal connects to the unix socket at path on behalf of scheme
	// (which errors name). A missing socket fails with KindConnect and
	// fs.ErrNotExist in the chain.
	DialLocal(ctx context.Context, scheme, path string) (net.Conn, error)
}
