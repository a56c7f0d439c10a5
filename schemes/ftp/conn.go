package ftp

import (
	"bufio"
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/textproto"
	"strconv"
	"strings"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// maxReplyLines bounds a multi-line reply, so a hostile server cannot make
// the client buffer without end.
const maxReplyLines = 1000

// ctrl is one FTP control connection: a line-oriented state machine of our
// own on net/textproto rather than jlaffaye/ftp. That library's Login adds
// FEAT, TYPE I and OPTS UTF8 ON of its own, it connects to the address in a
// PASV reply unless a heuristic finds it bogus (we always use the control
// peer), its List drops lines its parser rejects, it has no raw command
// and its debug output shows PASS; RFC 1738 §3.2 needs exactly the commands
// the URL implies and nothing else.
type ctrl struct {
	nc   net.Conn        // the connection read and written (TLS after AUTH TLS)
	tc   *transport.Conn // the transport.Conn under nc: context binding, counters
	r    *textproto.Reader
	tr   schemes.Trace // this connection's scope, kept while it is pooled
	host string        // control peer as dialed: data connections go there
	port int

	key      poolKey
	loginDir string // PWD after login ("" when the server did not say)
	noEPSV   bool   // EPSV refused once: use PASV from then on
	feat     map[string]string
	secure   bool        // PROT P in effect: data connections use TLS
	tlsCfg   *tls.Config // for the control and data connections: one session cache
	broken   bool        // a protocol or I/O error: never reuse
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

func newCtrl(nc net.Conn, tr schemes.Trace, host string, port int) *ctrl {
	tc, ok := transport.ConnOf(nc)
	if !ok {
		// A dialer that is not transport's: adopt the connection so that it
		// still gets cancellation and byte counts.
		tc = transport.Wrap(nil, nc, 0)
		nc = tc
	}
	c := &ctrl{nc: nc, tc: tc, tr: tr, host: host, port: port}
	c.r = textproto.NewReader(bufio.NewReaderSize(nc, 4096))
	return c
}

// bind attaches ctx to the control connection for one request.
func (c *ctrl) bind(ctx context.Context) { c.tc.Bind(ctx) }

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
// traces every line.
func (c *ctrl) read() (reply, error) {
	var rp reply
	line, err := c.r.ReadLine()
	if err != nil {
		c.broken = true
		return rp, err
	}
	c.tr.Received(line)
	rp.Lines = append(rp.Lines, line)
	code, ok := replyCode(line)
	if !ok {
		c.broken = true
		return rp, &schemes.Error{Kind: schemes.KindProtocol, Msg: fmt.Sprintf("malformed reply %q", c.redact(clip(line)))}
	}
	rp.Code = code
	if len(line) > 3 && line[3] == '-' {
		end := line[:3] + " "
		for {
			l, err := c.r.ReadLine()
			if err != nil {
				c.broken = true
				return rp, err
			}
			c.tr.Received(l)
			rp.Lines = append(rp.Lines, l)
			if strings.HasPrefix(l, end) || l == line[:3] {
				break
			}
			if len(rp.Lines) > maxReplyLines {
				c.broken = true
				return rp, &schemes.Error{Kind: schemes.KindProtocol, Msg: fmt.Sprintf("reply longer than %d lines", maxReplyLines)}
			}
		}
	}
	return rp, nil
}

// cmd sends line and reads the reply.
func (c *ctrl) cmd(line string) (reply, error) {
	if err := c.send(line); err != nil {
		return reply{}, err
	}
	return c.read()
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
