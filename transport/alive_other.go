//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package transport

import "net"

// peekSocket tells what waits in the socket of c, a connection at rest.
// Where a socket cannot be peeked at without blocking, every connection
// counts as quiet and the first command on it tells.
func peekSocket(c net.Conn) restState { return restQuiet }
