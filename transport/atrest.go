package transport

import (
	"errors"
	"net"
	"os"
	"time"

	"github.com/urlget/urlget/schemes"
)

// restState is what waits on a connection at rest.
type restState int

const (
	restQuiet restState = iota // nothing: the server has said all it said
	restData                   // bytes nobody has read
	restEnded                  // the end of the stream, or an error
)

// AtRest reports whether s is in step with its server: nothing the server
// sent waits unread (Pending), and the connection is not at its end.
// The pool asks it of every session it keeps or lends. A session found not
// at rest must be closed: the check may have taken a byte from a layer's
// buffer. A schemes.SelfReader answers for itself: its library's reader
// holds the socket, and it alone knows.
func AtRest(s schemes.Session) bool {
	if sr, ok := s.(schemes.SelfReader); ok {
		return sr.AtRest()
	}
	if s.Unread() > 0 {
		return false
	}
	c := s.Conn()
	return layerState(c) == restQuiet && peekSocket(c) == restQuiet
}

// Pending reports whether bytes the server sent wait for s unread.
// Protocols whose server speaks only when asked (FTP, NNTP, WAIS, SMTP
// between commands) have a session out of step when any do, for a stray
// reply would be read as the answer to the next command and put one
// article's or file's bytes under another's name. Bytes can wait in three
// places, each looked at:
//
//   - the session's own read buffer (schemes.Session.Unread), which no
//     connection can see;
//   - a layer over the transport Conn, such as TLS, which decrypts whole
//     records and reads ahead in the socket;
//   - the socket itself.
//
// The end of the stream is no bytes: a server that closes after its reply
// said nothing more. A handler asks it after a reply that must be the last
// thing its server says until asked again (a WAIS reply). A session with
// bytes pending must be closed, as for AtRest.
func Pending(s schemes.Session) bool {
	if s.Unread() > 0 {
		return true
	}
	c := s.Conn()
	return layerState(c) == restData || peekSocket(c) == restData
}

// layerState tells what the layers over c's transport Conn hold. It reads
// one byte with a deadline in the past: a layer returns what it holds at
// once, and its read of the connection under it fails at once on the
// passed deadline, without a system call (Go checks the deadline before
// reading), so nothing is waited for. A timeout is not sticky in
// crypto/tls: the connection stays usable. A connection that is itself a
// transport Conn has no layer over it.
func layerState(c net.Conn) restState {
	if _, direct := c.(*Conn); direct {
		return restQuiet
	}
	if c.SetReadDeadline(aLongTimeAgo) != nil {
		return restEnded
	}
	var b [1]byte
	n, err := c.Read(b[:])
	c.SetReadDeadline(time.Time{})
	switch {
	case n > 0:
		return restData
	case errors.Is(err, os.ErrDeadlineExceeded):
		return restQuiet
	}
	return restEnded
}
