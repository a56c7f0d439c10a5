package nntp

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"strconv"
	"strings"
	"time"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// Bounds on what a server may send, so that a broken or hostile server
// cannot make the client buffer without end.
const (
	// maxLine is the longest reply line (status, overview, list) read
	// whole. RFC 3977 lines are at most 512 bytes for commands and replies,
	// and data lines are unbounded, but overview lines with long
	// References fields reach some KiB; 256 KiB leaves a wide margin.
	maxLine = 256 << 10
	// maxCapabilities bounds the CAPABILITIES list (lines).
	maxCapabilities = 1000
	// maxHeaderLines bounds a HEAD reply read by the overview fallback.
	maxHeaderLines = 10000
	// bufSize is the read buffer; a streamed article line longer than it
	// is passed through in pieces.
	bufSize = 32 << 10
)

// errLineTooLong is returned when a reply line exceeds maxLine.
var errLineTooLong = badReply("reply line longer than 256 KiB")

// badReply is a reply the client refuses: malformed, or beyond a bound.
// It is a protocol error (exit 6), unlike I/O errors.
type badReply string

func (e badReply) Error() string { return string(e) }

// reply is one NNTP status line: a three-digit code and the text after it.
type reply struct {
	Code int
	Text string
}

// String is the status line as received (without CRLF).
func (r reply) String() string {
	if r.Text == "" {
		return strconv.Itoa(r.Code)
	}
	return strconv.Itoa(r.Code) + " " + r.Text
}

// parseReply reads a status line: exactly three digits, then nothing or a
// space and text (RFC 3977 §3.2). The first digit must be 1–5.
func parseReply(line string) (reply, error) {
	if len(line) < 3 || line[0] < '1' || line[0] > '5' || !isDigit(line[1]) || !isDigit(line[2]) ||
		(len(line) > 3 && line[3] != ' ') {
		return reply{}, fmt.Errorf("malformed status line %q", clip(line))
	}
	code := int(line[0]-'0')*100 + int(line[1]-'0')*10 + int(line[2]-'0')
	text := ""
	if len(line) > 3 {
		text = line[4:]
	}
	return reply{Code: code, Text: text}, nil
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// clip shortens s for an error message.
func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}

// session is one NNTP connection after the greeting: the connection, its
// reader and writer, what CAPABILITIES said, and whether it has
// authenticated. It belongs to one request at a time.
type session struct {
	conn  net.Conn
	r     *bufio.Reader
	w     *textproto.Writer
	tr    schemes.Trace   // the connection's trace scope
	root  schemes.Trace   // the Trace tr is a scope of
	tc    *transport.Conn // nil with a dialer that does not return one
	quick func()          // sets TCP_QUICKACK (transport.QuickAcker); nil if unavailable

	scheme  string
	caps    map[string]string // capability label → its arguments; nil when unknown
	posting bool              // greeting 200 (posting allowed) rather than 201
	authed  bool
	heard   bool // a reply was read since the request took the session: it is not stale
	broken  bool // the protocol state is unknown: never reuse

	group      string            // the group selected by the last GROUP that succeeded
	pending    []pipedCmd        // commands sent ahead whose replies are not read yet, in order
	pendingFor []schemes.Locator // the URL each was sent for
}

// newSession wraps conn, whose lines go to tr, a scope of root. It does
// not read the greeting.
func newSession(conn net.Conn, scheme string, tr, root schemes.Trace) *session {
	s := &session{conn: conn, r: bufio.NewReaderSize(conn, bufSize), w: textproto.NewWriter(bufio.NewWriter(conn)),
		tr: tr, root: root, scheme: scheme}
	s.tc, _ = transport.ConnOf(conn)
	s.quick = transport.QuickAcker(conn)
	return s
}

// upgrade switches the session to tc, the TLS connection over its
// connection (STARTTLS). Binding and deadlines still act on the
// connection underneath.
func (s *session) upgrade(tc net.Conn) {
	s.conn = tc
	s.r = bufio.NewReaderSize(tc, bufSize)
	s.w = textproto.NewWriter(bufio.NewWriter(tc))
	s.quick = transport.QuickAcker(tc)
}

var _ schemes.Session = (*session)(nil)

// Conn is the connection commands go on (TLS after STARTTLS), for the pool.
func (s *session) Conn() net.Conn { return s.conn }

// Unread is what the session's reader holds and no reply read has taken,
// for the pool: a reply nobody asked for (an article sent unasked).
func (s *session) Unread() int { return s.r.Buffered() }

// Close ends the session (see close), for the pool.
func (s *session) Close() error {
	s.close()
	return nil
}

// close ends the session: QUIT (not waited for) unless the state is
// unknown, then the connection.
func (s *session) close() {
	if !s.broken {
		s.conn.SetWriteDeadline(time.Now().Add(time.Second))
		s.tr.Sent("QUIT")
		s.w.PrintfLine("QUIT")
	}
	s.conn.Close()
}

// readLine reads one CRLF- (or LF-) terminated line of at most maxLine
// bytes and returns it without the line end.
func (s *session) readLine() (string, error) {
	line, err := readBoundedLine(s.r, maxLine)
	if err != nil {
		s.broken = true
	}
	return line, err
}

// readBoundedLine reads a line from r, failing with errLineTooLong beyond
// max bytes. A final line without a line end is io.ErrUnexpectedEOF.
func readBoundedLine(r *bufio.Reader, max int) (string, error) {
	chunk, err := r.ReadSlice('\n')
	if err == nil {
		line := trimEOL(string(chunk))
		if len(line) > max {
			return "", errLineTooLong
		}
		return line, nil
	}
	var b []byte
	for err == bufio.ErrBufferFull {
		if len(b)+len(chunk) > max {
			return "", errLineTooLong
		}
		b = append(b, chunk...)
		chunk, err = r.ReadSlice('\n')
	}
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return "", err
	}
	b = append(b, chunk...)
	line := trimEOL(string(b))
	if len(line) > max {
		return "", errLineTooLong
	}
	return line, nil
}

func trimEOL(s string) string {
	s = strings.TrimSuffix(s, "\n")
	return strings.TrimSuffix(s, "\r")
}

// readReply reads and traces a status line.
func (s *session) readReply() (reply, error) {
	line, err := s.readLine()
	if err != nil {
		return reply{}, err
	}
	s.tr.Received(line)
	s.heard = true
	r, err := parseReply(line)
	if err != nil {
		s.broken = true
		return reply{}, &schemes.Error{Scheme: s.scheme, Phase: "reply", Kind: schemes.KindProtocol, Msg: err.Error()}
	}
	return r, nil
}

// send writes and traces one command line. Arguments from URLs were
// checked with transport.CheckChars before any connection was made.
func (s *session) send(line string) error {
	s.tr.Sent(line)
	if err := s.w.PrintfLine("%s", line); err != nil {
		s.broken = true
		return err
	}
	if s.quick != nil {
		s.quick()
	}
	return nil
}

// cmd sends line and reads the status line of the reply.
func (s *session) cmd(line string) (reply, error) {
	if err := s.send(line); err != nil {
		return reply{}, err
	}
	return s.readReply()
}

// blockReader reads the lines of a multi-line data block (RFC 3977
// §3.1.1) one at a time, dot-unstuffed, up to the "." line; max bounds the
// block's total size. An error leaves the session broken.
type blockReader struct {
	s     *session
	max   int64
	total int64
	done  bool // the "." line was read: the session is at the next reply
}

// block starts reading a data block of at most maxBytes bytes.
func (s *session) block(maxBytes int64) *blockReader { return &blockReader{s: s, max: maxBytes} }

// next returns the next line of the block, or io.EOF after its "." line.
func (b *blockReader) next() (string, error) {
	if b.done {
		return "", io.EOF
	}
	line, err := b.s.readLine()
	if err != nil {
		return "", err
	}
	if line == "." {
		b.done = true
		return "", io.EOF
	}
	b.total += int64(len(line)) + 2
	if b.total > b.max {
		b.s.broken = true
		return "", badReply(fmt.Sprintf("reply longer than %d bytes", b.max))
	}
	return strings.TrimPrefix(line, "."), nil
}

// readBlock reads a whole data block (blockReader), calling fn for each
// line; fn's error stops the reading (and leaves the session broken).
func (s *session) readBlock(maxBytes int64, fn func(line string) error) error {
	b := s.block(maxBytes)
	for {
		line, err := b.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := fn(line); err != nil {
			s.broken = true
			return err
		}
	}
}

// greet reads the server's greeting: 200 (posting allowed) or 201 (no
// posting); anything else ends the session.
func (s *session) greet() (reply, error) {
	r, err := s.readReply()
	if err != nil {
		return r, err
	}
	switch r.Code {
	case 200, 201:
		s.posting = r.Code == 200
		return r, nil
	}
	s.broken = true
	return r, errUnexpected
}

// errUnexpected marks a reply the caller turns into an error with its
// code and text.
var errUnexpected = errors.New("unexpected reply")

// capabilities asks CAPABILITIES (RFC 3977 §5.2). A server that does not
// know the command (500, 501, 502 before auth on some) leaves caps nil:
// unknown, so the client tries commands and falls back.
func (s *session) capabilities() error {
	r, err := s.cmd("CAPABILITIES")
	if err != nil {
		return err
	}
	if r.Code != 101 {
		s.caps = nil
		return nil
	}
	caps := map[string]string{}
	n := 0
	err = s.readBlock(1<<20, func(line string) error {
		if n++; n > maxCapabilities {
			return badReply(fmt.Sprintf("more than %d capability lines", maxCapabilities))
		}
		s.tr.Received(line)
		label, args, _ := strings.Cut(line, " ")
		caps[strings.ToUpper(label)] = args
		return nil
	})
	if err != nil {
		return err
	}
	s.caps = caps
	return nil
}

// has reports whether the server announced capability label; known is
// false when CAPABILITIES was not understood.
func (s *session) has(label string) (has, known bool) {
	if s.caps == nil {
		return false, false
	}
	_, ok := s.caps[label]
	return ok, true
}

// modeReader switches a mode-switching server to reading (RFC 3977 §5.3):
// when it announces MODE-READER rather than READER, or announces nothing
// (a server older than CAPABILITIES; 500 is ignored there).
func (s *session) modeReader() error {
	if s.caps != nil {
		_, reader := s.caps["READER"]
		_, mode := s.caps["MODE-READER"]
		if reader || !mode {
			return nil
		}
	}
	r, err := s.cmd("MODE READER")
	if err != nil {
		return err
	}
	switch r.Code {
	case 200, 201:
		s.posting = r.Code == 200
		if s.caps != nil {
			// The capabilities change with the mode (RFC 3977 §5.3).
			return s.capabilities()
		}
	}
	return nil
}

// authinfo authenticates with AUTHINFO USER/PASS (RFC 4643 §2.3). The
// password line is traced redacted (Trace redacts "AUTHINFO PASS" by
// shape, and the password was registered with Secret).
func (s *session) authinfo(user, pass string) (reply, error) {
	r, err := s.cmd("AUTHINFO USER " + user)
	if err != nil {
		return r, err
	}
	if r.Code == 381 {
		s.tr.Secret(pass)
		if r, err = s.cmd("AUTHINFO PASS " + pass); err != nil {
			return r, err
		}
	}
	if r.Code != 281 {
		return r, errUnexpected
	}
	s.authed = true
	if s.caps != nil {
		// Capabilities may change after authentication (RFC 4643 §2.3.1).
		if err := s.capabilities(); err != nil {
			return r, err
		}
	}
	return r, nil
}
