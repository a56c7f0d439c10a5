package mailto

import (
	"fmt"
	"net"
)

// Bounds on one SMTP reply. textproto, under urlget's own reading and
// go-smtp's, gathers a whole multi-line reply, and each of its lines, in
// memory before anyone sees it: a server that sends a greeting of
// millions of "220-" lines, or one line without end, would take all the
// memory there is. RFC 5321 §4.5.3.1.5 limits a reply line to 512 octets
// and sets no count of lines; real EHLO replies have a few dozen.
const (
	maxReplyLines = 1000
	maxReplyBytes = 1 << 20
)

// longReply is the error of a reply past the bounds; smtpError makes it
// a protocol error (exit 6).
type longReply struct{ limit string }

func (e *longReply) Error() string { return "longer than " + e.limit }

// boundedReplies fails a Read once the reply being received passes
// maxReplyLines lines or maxReplyBytes bytes. It follows the reply
// structure of RFC 5321 §4.2.1 on the bytes as they arrive: a line whose
// fourth byte is not "-" ends a reply.
//
// It also counts the bytes that came after the reply to the last command
// written (unread): go-smtp reads one reply a command, so those wait in
// its buffer, out of this package's sight, and a session holding any is
// out of step with its server (schemes.Session.Unread).
type boundedReplies struct {
	net.Conn
	lines, bytes int  // of the reply under way
	col          int  // bytes of the current line so far
	more         bool // the current line's fourth byte is "-"
	err          error
	awaiting     bool  // a command was written and its reply has not ended
	unread       int   // bytes received after the end of that reply
	total        int64 // bytes received: none since a command means no reply began
}

func bounded(c net.Conn) *boundedReplies { return &boundedReplies{Conn: c} }

func (b *boundedReplies) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.Conn.Read(p)
	b.total += int64(n)
	for _, c := range p[:n] {
		if !b.awaiting {
			b.unread++
		}
		if b.col == 3 {
			b.more = c == '-'
		}
		b.col++
		b.bytes++
		if b.bytes > maxReplyBytes {
			b.err = &longReply{fmt.Sprintf("%d MiB", maxReplyBytes>>20)}
			return 0, b.err // what came past the bound is not delivered
		}
		if c != '\n' {
			continue
		}
		if b.lines++; b.lines > maxReplyLines {
			b.err = &longReply{fmt.Sprintf("%d lines", maxReplyLines)}
			return 0, b.err
		}
		if !b.more {
			b.lines, b.bytes = 0, 0 // the last line of its reply
			b.awaiting = false
		}
		b.col, b.more = 0, false
	}
	return n, err
}

// Write sends a command (or the message text): the reply that follows is
// the one awaited, and nothing received before it is unread any more
// than go-smtp reads it.
func (b *boundedReplies) Write(p []byte) (int, error) {
	b.awaiting, b.unread = true, 0
	return b.Conn.Write(p)
}
