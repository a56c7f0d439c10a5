package ftp

import (
	"bufio"
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// Bounds on what one reply may hold, so that a hostile server cannot make
// the client buffer without end: a line (RFC 959 sets none; real replies
// are well under 1 KiB), the lines of a multi-line reply, and their bytes.
const (
	maxReplyLine  = 64 << 10
	maxReplyLines = 1000
	maxReplyBytes = 1 << 20
)

// ctrl is one FTP control connection: a line-oriented state machine of our
// own, on a reader that bounds lines (net/textproto's does not), rather
// than jlaffaye/ftp. That library's Login adds
// FEAT, TYPE I and OPTS UTF8 ON of its own, it connects to the address in a
// PASV reply unless a heuristic finds it bogus (we always use the control
// peer), its List drops lines its parser rejects, it has no raw command
// and its debug output shows PASS; RFC 1738 §3.2 needs exactly the commands
// the URL implies and nothing else.
type ctrl struct {
	nc   net.Conn        // the connection read and written (TLS after AUTH TLS)
	tc   *transport.Conn // the transport.Conn under nc: context binding, counters
	r    *bufio.Reader   // over nc; lines are read by readLine, bounded
	tr   schemes.Trace   // this connection's scope, kept while it is pooled
	host string          // control peer as dialed: data connections go there
	port int

	key      schemes.ConnKey // what the pool keeps it under
	conns    schemes.Conns   // where release keeps it; nil: nowhere
	loginDir string          // PWD after login ("" when the server did not say)
	noEPSV   bool            // EPSV refused once: use PASV from then on
	rtt      time.Duration   // EPSV's round trip, the last one sent in its turn
	// aheadSent: an EPSV went with the transfer command, its reply is
	// still to be read (ahead.go); aheadPort is the port of the last one,
	// asked for at aheadAt, 0 once used.
	aheadSent bool
	aheadPort int
	aheadAt   time.Time
	noAhead   *sync.Map // the Handler's servers that did not answer one (ahead.go)
	// pending are the commands sent together whose replies are still to
	// be read, in order (pipeline.go); piped says the last reply cmd
	// returned was one of them (its time is no round trip).
	pending  []string
	piped    bool
	noPipe   *sync.Map // the Handler's servers that answered a batch out of step
	feat     map[string]string
	secure   bool                   // PROT P in effect: data connections use TLS
	sessions tls.ClientSessionCache // the control and data connections': see newSessions
	broken   bool                   // a protocol or I/O error: never reuse
	// heard is set by every reply but a 421 read since the connection was
	// taken for the current request: a pooled connection whose first
	// command meets a closed socket or a 421 was dropped by the server
	// while idle, and the request may start again on a new one.
	heard bool
	// The state the commands of earlier requests left, so that a request
	// sends only what changes it (see chdir and setType).
	at       []string // the CWD arguments sent since the login directory
	typ      byte     // the TYPE in effect, 'a' or 'i'; 0 when none was sent
	noSIZE   bool     // SIZE is not a command this server knows
	noListA  bool     // the server refused "LIST -a": plain LIST from then on
	count150 tristate // whether the 150 reply's "(N bytes)" is the file's size
	// syst is the reply to SYST once systAsked: asked at most once per
	// connection, when guessing the TYPE of a text-looking name needs it.
	syst      reply
	systAsked bool
	// secret is the password of the login, hidden in every error built
	// from the server's text.
	secret string
}

// reply is one server reply: the code and every line of text.
type reply struct {
	Code  int
	Lines []string // the lines as received, code included
}

// Text is the reply's message: the lines without code, joined by spaces.
func (r reply) Text() string {
	parts := make([]string, 0, len(r.Lines))
	for _, l := range r.Lines {
		if len(l) >= 4 && l[:3] == strconv.Itoa(r.Code) {
			l = l[4:]
		}
		parts = append(parts, strings.TrimSpace(l))
	}
	return strings.TrimSpace(strings.Join(parts, " "))
}

// String is the first line, as a server's own text for messages.
func (r reply) String() string { return fmt.Sprintf("%d %s", r.Code, r.Text()) }

func newCtrl(ctx context.Context, nc net.Conn, tr schemes.Trace, host string, port int) *ctrl {
	nc, tc := transport.Bound(ctx, nc)
	c := &ctrl{nc: nc, tc: tc, tr: tr, host: host, port: port}
	c.r = bufio.NewReaderSize(nc, 4096)
	return c
}

// tristate is a fact about the server learned from its replies.
type tristate int8

const (
	unknown tristate = iota
	yes
	no
)

var _ schemes.Session = (*ctrl)(nil)

// Conn is the connection commands go on (TLS after AUTH TLS), for the pool.
func (c *ctrl) Conn() net.Conn { return c.nc }

// Unread is what the control connection's reader holds and no reply
// read has taken, for the pool: a reply nobody asked for.
func (c *ctrl) Unread() int { return c.r.Buffered() }

// Close ends the session (see close), for the pool.
func (c *ctrl) Close() error {
	c.close()
	return nil
}

// release ends a request's use of c: kept in the request's Conns when its
// state is known and it is logged in at a known directory, else closed.
func (c *ctrl) release() {
	if !c.broken && c.settle() != nil {
		c.broken = true
	}
	if c.broken || c.loginDir == "" || c.conns == nil || !c.key.Pooled() {
		c.close()
		return
	}
	c.conns.Keep(c.key, c)
}

// send writes one command line. Arguments were checked for CR, LF and NUL
// before connecting, so line is one line.
func (c *ctrl) send(line string) error {
	c.tr.Sent(line)
	if _, err := c.nc.Write([]byte(line + "\r\n")); err != nil {
		c.broken = true
		return err
	}
	return nil
}

// read reads one reply, multi-line ones included (RFC 959 §4.2), and
// traces every line. A reply longer than the bounds above is a protocol
// error, found before more than maxReplyLine bytes of a line are held.
func (c *ctrl) read() (reply, error) {
	var rp reply
	line, err := c.readLine()
	if err != nil {
		return rp, err
	}
	rp.Lines = append(rp.Lines, line)
	code, ok := replyCode(line)
	if !ok {
		c.broken = true
		return rp, &schemes.Error{Kind: schemes.KindProtocol, Msg: fmt.Sprintf("malformed reply %q", c.redact(clip(line)))}
	}
	rp.Code = code
	size := len(line)
	if len(line) > 3 && line[3] == '-' {
		end := line[:3] + " "
		for {
			l, err := c.readLine()
			if err != nil {
				return rp, err
			}
			rp.Lines = append(rp.Lines, l)
			// The last line counts too: 1000 lines and a final one are
			// more than 1000.
			if size += len(l); len(rp.Lines) > maxReplyLines || size > maxReplyBytes {
				c.broken = true
				return rp, &schemes.Error{Kind: schemes.KindProtocol,
					Msg: fmt.Sprintf("reply longer than %d lines or %d bytes", maxReplyLines, maxReplyBytes)}
			}
			if strings.HasPrefix(l, end) || l == line[:3] {
				break
			}
		}
	}
	if code != 421 {
		c.heard = true
	}
	return rp, nil
}

// readLine reads one line of a reply without its line end, and traces it.
// A line without a line end within maxReplyLine bytes is a protocol error:
// the bytes read so far are dropped, never gathered into a longer line.
func (c *ctrl) readLine() (string, error) {
	b, err := c.r.ReadSlice('\n')
	switch {
	case err == bufio.ErrBufferFull:
		// The buffer is smaller than the bound: gather up to it.
		buf := append([]byte(nil), b...)
		for err == bufio.ErrBufferFull && len(buf) <= maxReplyLine {
			b, err = c.r.ReadSlice('\n')
			buf = append(buf, b...)
		}
		if err == bufio.ErrBufferFull || len(buf) > maxReplyLine {
			c.broken = true
			c.tr.Received(clip(string(buf)))
			return "", &schemes.Error{Kind: schemes.KindProtocol,
				Msg: fmt.Sprintf("reply line too long (more than %d bytes without a line end)", maxReplyLine)}
		}
		b = buf
	case err == io.EOF && len(b) > 0:
		// The last line before the server closed, without its line end
		// ("421 bye"): read it as a line; the next read meets the end. A
		// fragment that is no reply ("2") is a connection cut inside a
		// line: a broken connection (exit 5, retryable), not a bad reply.
		if _, ok := replyCode(strings.TrimRight(string(b), "\r\n")); ok {
			err = nil
		} else {
			c.tr.Received(clip(string(b)))
			err = io.ErrUnexpectedEOF
		}
	}
	if err != nil {
		c.broken = true
		return "", err
	}
	line := strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r")
	c.tr.Received(line)
	return line, nil
}

// cmd sends line, a command in its turn, and reads the reply; when line
// went ahead in a batch (sendBatch), it reads that reply.
func (c *ctrl) cmd(line string) (reply, error) {
	rp, piped, err := c.takePending(line)
	if c.piped = piped; piped {
		return rp, err
	}
	closing, err := c.inStep()
	if err != nil {
		return reply{}, err
	}
	if closing {
		return c.read() // the 421 answers the command, which is not sent
	}
	if err := c.send(line); err != nil {
		return reply{}, err
	}
	return c.read()
}

// inStep checks, before a command sent in its turn, that no reply waits
// read and not taken: every reply before it was read, so one waiting now
// came unasked, and would be taken for this command's (a stray "250"
// would make a CWD that failed look done, and the next RETR fetch another
// directory's file). Such a session is out of step and is not used
// again. A waiting 421 is no error but closing: the server is closing
// (RFC 959: it may send 421 unasked before it does), so the command is
// not sent and the 421 is read as its reply, which reports it as such.
func (c *ctrl) inStep() (closing bool, err error) {
	n := c.r.Buffered()
	if n == 0 {
		return false, nil
	}
	if b, _ := c.r.Peek(min(n, 3)); string(b) == strconv.Itoa(codeServiceNotAvailable) {
		return true, nil
	}
	b, _ := c.r.Peek(min(n, maxReplyLine))
	line, _, _ := strings.Cut(string(b), "\n")
	c.broken = true
	return false, &schemes.Error{Kind: schemes.KindProtocol, Retryable: true,
		Msg: fmt.Sprintf("the server sent a reply nobody asked for (%q): the session is out of step and is closed",
			c.redact(clip(strings.TrimRight(line, "\r"))))}
}

// close sends QUIT without waiting long for its reply and closes.
func (c *ctrl) close() {
	if !c.broken {
		c.tc.Stop()
		c.send("QUIT")
	}
	c.nc.Close()
}

func replyCode(line string) (int, bool) {
	if len(line) < 3 || (len(line) > 3 && line[3] != ' ' && line[3] != '-') {
		return 0, false
	}
	n, err := strconv.Atoi(line[:3])
	if err != nil || n < 100 || n > 599 {
		return 0, false
	}
	return n, true
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
