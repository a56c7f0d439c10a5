package transport

import (
	"errors"
	"net"
	"os"
	"time"

	"github.com/urlget/urlget/schemes"
)

// AtRest reports whether s is in step with its server: nothing the server
// sent waits unread, and the connection is not at its end. Protocols whose
// server speaks only when asked (FTP, NNTP, WAIS, SMTP between commands)
// have a session out of step when bytes wait anywhere, for a stray reply
// would be read as the answer to the next command and put one article's
// or file's bytes under another's name. Bytes can wait in three places,
// each looked at:
//
//   - the session's own read buffer (schemes.Session.Unread), which no
//     connection can see;
//   - a layer over the transport Conn, such as TLS, which decrypts whole
//     records and reads ahead in the socket;
//   - the socket itself (connAlive).
//
// The pool asks it of every session it keeps or lends, and a handler may
// ask it after a reply that must be the last thing its server says (a
// WAIS reply). A session found not at rest must be closed: the check may
// have taken a byte from a layer's buffer.
func AtRest(s schemes.Session) bool {
	if s.Unread() > 0 {
		return false
	}
	c := s.Conn()
	return layersEmpty(c) && connAlive(c)
}

// layersEmpty reports whether the layers over c's transport Conn hold
// nothing to read. It reads one byte with a deadline in the past: a layer
// returns what it holds at once, and its read of the connection under it
// fails at once on the passed deadline, without a system call (Go checks
// the deadline before reading), so nothing is waited for. A timeout is
// not sticky in crypto/tls: the connection stays usable. A connection that
// is itself a transport Conn has no layer over it.
func layersEmpty(c net.Conn) bool {
	if _, direct := c.(*Conn); direct {
		return true
	}
	if c.SetReadDeadline(aLongTimeAgo) != nil {
		return false
	}
	var b [1]byte
	n, err := c.Read(b[:])
	c.SetReadDeadline(time.Time{})
	return n == 0 && errors.Is(err, os.ErrDeadlineExceeded)
}
