package telnet

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// escapeKey is Ctrl-], the key that has called up telnet's command prompt
// since BSD telnet.
const escapeKey = 0x1d

// Login progress (session.state).
const (
	loginOff      = iota // no --login, or done: Stdin flows
	loginWantUser        // waiting for "login:"
	loginWantPass        // user typed, waiting for "Password:"
	loginWantMore        // password typed, waiting for the shell
)

// loginTail is how much recent output is kept for prompt matching.
const loginTail = 256

// session is one telnet connection being run.
type session struct {
	h           *Handler
	loc         *URL
	conn        net.Conn
	tr          schemes.Trace
	cred        *login
	out         io.Writer
	interactive bool
	fd          int

	mu       sync.Mutex // guards everything below, and serializes writes to conn
	neg      negotiator
	dec      decoder
	outCR    bool   // output: a CR is pending (NUL or LF may follow)
	inCR     bool   // input: a CR is pending (LF may follow)
	wbuf     []byte // scratch for sendInput
	queue    []byte // bytes for the server, written by writeLoop
	obuf     []byte
	tail     []byte // recent output, for the login prompts
	state    int    // login progress
	loginEvt chan error
	writeErr error         // first failed write to the server
	wake     chan struct{} // tells writeLoop there is something queued
	drained  chan struct{} // tells run the queue has gone down
}

// maxQueue bounds what waits to be written to the server: run stops
// reading stdin while more is queued.
const maxQueue = 256 << 10

func (h *Handler) newSession(loc *URL, conn net.Conn, tr schemes.Trace, cred *login) *session {
	s := &session{h: h, loc: loc, conn: conn, tr: tr, cred: cred, out: h.stdout(), loginEvt: make(chan error, 2),
		wake: make(chan struct{}, 1), drained: make(chan struct{}, 1)}
	s.fd, s.interactive = h.terminalFD()
	if cred != nil {
		s.state = loginWantUser
	}
	s.neg = negotiator{
		allowHim: func(opt byte) bool { return opt == optEcho || opt == optSGA || opt == optBinary },
		allowUs: func(opt byte) bool {
			return opt == optSGA || opt == optBinary || opt == optTTYPE || (opt == optNAWS && s.interactive)
		},
		send:    s.sendNegotiation,
		changed: s.optionChanged,
	}
	return s
}

// run carries out the session until it ends; see Handler.
func (s *session) run(ctx context.Context) (err error) {
	defer s.conn.Close()
	if s.interactive {
		restore, rerr := makeRaw(s.fd)
		if rerr != nil {
			return &schemes.Error{Scheme: "telnet", Phase: "terminal", Kind: schemes.KindOther,
				Msg: "cannot put the terminal in raw mode", Err: rerr}
		}
		defer restore()
		fmt.Fprintf(s.h.stderr(), "Connected to %s. Escape character is '^]'.\r\n", s.loc.Generic().Host)
	}
	quit := make(chan struct{})
	defer close(quit)

	readDone := make(chan error, 1)
	activity := make(chan struct{}, 1)
	go s.readLoop(readDone, activity)
	go s.writeLoop(quit)

	input := make(chan []byte)
	go readInput(s.h.stdin(), input, quit)

	winch, stopWinch := notifyResize(s.interactive)
	defer stopWinch()

	idle := s.h.idle()
	quiet := time.NewTimer(idle)
	defer quiet.Stop()
	// Paced input (Handler.Pace): stdin is held in pending and sent a line
	// at a time, each once the server has answered and paused for pace,
	// or has been silent for idle.
	pace := s.h.Pace
	if s.interactive {
		pace = 0
	}
	settle := time.NewTimer(time.Hour)
	settle.Stop()
	defer settle.Stop()
	var pending []byte
	canSend, answered := false, false
	stdinDone := false
	escaped := false
	finish := func(e error) error {
		s.conn.Close()
		<-readDone
		s.flushOutput()
		return e
	}
	gated := func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.state != loginOff
	}
	// sendLine sends the next paced line, if it may go now.
	sendLine := func() error {
		if !canSend || len(pending) == 0 || gated() {
			return nil
		}
		n := bytes.IndexByte(pending, '\n') + 1
		if n == 0 {
			if !stdinDone {
				return nil // wait for the rest of the line
			}
			pending = append(pending, '\n') // a last line without LF is still a line
			n = len(pending)
		}
		line := pending[:n]
		pending = pending[n:]
		canSend, answered = false, false
		resetTimer(quiet, idle)
		return s.sendInput(line)
	}
	for {
		var in chan []byte
		backlog, werr := s.queued()
		if werr != nil {
			return finish(s.endError(ctx, werr))
		}
		if !stdinDone && backlog < maxQueue && (pace > 0 && len(pending) < 64<<10 || pace == 0 && !gated()) {
			in = input
		}
		select {
		case <-s.drained:
			// The queue went down (or a write failed): look again.
		case rerr := <-readDone:
			s.flushOutput()
			return s.endError(ctx, rerr)
		case lerr := <-s.loginEvt:
			if lerr != nil {
				return finish(lerr)
			}
		case <-activity:
			resetTimer(quiet, idle)
			if pace > 0 {
				answered = true
				resetTimer(settle, pace)
			}
		case <-settle.C:
			if answered {
				canSend = true
				werr = sendLine()
			}
		case <-quiet.C:
			if stdinDone && len(pending) == 0 {
				s.tr.Info(fmt.Sprintf("input ended and the server was silent for %v: closing", idle))
				return finish(nil)
			}
			s.mu.Lock()
			s.loginQuietLocked()
			s.mu.Unlock()
			if pace > 0 {
				canSend = true // no answer is coming: go on
				werr = sendLine()
			}
		case p, ok := <-in:
			if !ok {
				stdinDone = true
				if pace > 0 {
					werr = sendLine() // a last line without LF
				}
				s.mu.Lock()
				if s.inCR && len(pending) == 0 {
					s.inCR = false
					s.writeLocked([]byte{'\r', 0})
				}
				s.mu.Unlock()
				resetTimer(quiet, idle)
				break
			}
			if s.interactive {
				var stop bool
				p, escaped, stop = s.escape(p, escaped)
				if stop {
					fmt.Fprint(s.h.stderr(), "\r\nConnection closed.\r\n")
					return finish(nil)
				}
			}
			if pace > 0 {
				pending = append(pending, p...)
				werr = sendLine()
			} else {
				werr = s.sendInput(p)
			}
		case <-winch:
			s.mu.Lock()
			if s.neg.enabled(optNAWS, true) {
				s.sendNAWSLocked()
			}
			s.mu.Unlock()
		case <-ctx.Done():
			return finish(ioError("session", ctx.Err()))
		}
		if werr != nil {
			return finish(s.endError(ctx, werr))
		}
	}
}

// escape handles Ctrl-] in interactive input: the bytes before it are
// sent, and the next key decides — q, y or Ctrl-] again... quits, anything
// else goes back to the session.
func (s *session) escape(p []byte, escaped bool) (send []byte, stillEscaped, stop bool) {
	if escaped {
		if len(p) > 0 && (p[0] == 'q' || p[0] == 'Q' || p[0] == 'y' || p[0] == 'Y') {
			return nil, false, true
		}
		fmt.Fprint(s.h.stderr(), "\r\n")
		return nil, false, false // the answer is not typed to the server
	}
	i := bytes.IndexByte(p, escapeKey)
	if i < 0 {
		return p, false, false
	}
	fmt.Fprint(s.h.stderr(), "\r\ntelnet> quit? [y/N] ")
	return p[:i], true, false
}

// endError classifies why the connection ended: EOF from the server is the
// normal end of a session (nil).
func (s *session) endError(ctx context.Context, err error) error {
	if err == nil || errors.Is(err, io.EOF) {
		return nil
	}
	if ctx.Err() != nil {
		return ioError("session", ctx.Err())
	}
	return ioError("session", err)
}

// ioError wraps an I/O failure during the session (schemes.IOError: a
// broken connection is KindConnect, a stall KindTimeout). It is never
// retryable: a session that ran cannot be replayed.
func ioError(phase string, err error) error {
	e := schemes.IOError("telnet", phase, err)
	var se *schemes.Error
	if errors.As(e, &se) {
		c := *se
		c.Retryable = false
		return &c
	}
	return e
}

func resetTimer(t *time.Timer, d time.Duration) {
	t.Stop()
	select {
	case <-t.C:
	default:
	}
	t.Reset(d)
}

// readInput copies r to ch in chunks until r ends, then closes ch.
func readInput(r io.Reader, ch chan<- []byte, quit <-chan struct{}) {
	defer close(ch)
	for {
		buf := make([]byte, 4096)
		n, err := r.Read(buf)
		if n > 0 {
			select {
			case ch <- buf[:n]:
			case <-quit:
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// readLoop decodes the server's stream until it ends. Idle timeouts of the
// connection are not an end: a session may be quiet for as long as the
// person likes.
func (s *session) readLoop(done chan<- error, activity chan<- struct{}) {
	buf := make([]byte, 32<<10)
	for {
		n, err := s.conn.Read(buf)
		if n > 0 {
			s.mu.Lock()
			s.dec.feed(buf[:n], s)
			s.checkLoginLocked()
			s.mu.Unlock()
			select {
			case activity <- struct{}{}:
			default:
			}
		}
		if err != nil {
			var idle *transport.IdleTimeoutError
			if errors.As(err, &idle) {
				continue
			}
			done <- err
			return
		}
	}
}

// data is server output: decoded NVT text goes to Stdout (sink).
func (s *session) data(p []byte) {
	binary := s.neg.enabled(optBinary, false)
	b := s.obuf[:0]
	for _, c := range p {
		if binary {
			b = append(b, c)
			continue
		}
		if s.outCR {
			s.outCR = false
			switch c {
			case 0: // CR NUL is a bare CR
				if !s.interactive {
					b = append(b, '\r')
				}
				continue
			case '\n':
				// CR LF is an end of line: LF for pipes and files; on a
				// terminal the CR has been written already.
				b = append(b, '\n')
				continue
			default:
				if !s.interactive {
					b = append(b, '\r')
				}
			}
		}
		if c == '\r' {
			s.outCR = true
			if s.interactive {
				b = append(b, '\r') // a terminal wants it at once
			}
			continue
		}
		b = append(b, c)
	}
	s.obuf = b
	if len(b) > 0 {
		s.out.Write(b)
		if s.state != loginOff {
			s.tail = append(s.tail, b...)
			if len(s.tail) > loginTail {
				s.tail = append(s.tail[:0], s.tail[len(s.tail)-loginTail:]...)
			}
		}
	}
}

// flushOutput writes a CR still held at the end of the session.
func (s *session) flushOutput() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.outCR && !s.interactive {
		s.out.Write([]byte{'\r'})
	}
	s.outCR = false
}

// negotiate is a WILL, WONT, DO or DONT from the server (sink).
func (s *session) negotiate(cmd, opt byte) {
	s.tr.Received(fmt.Sprintf("IAC %s %s", commandName(cmd), optionName(opt)))
	s.neg.receive(cmd, opt)
}

// subnegotiate answers TERMINAL-TYPE SEND (sink); other subnegotiations
// are for options urlget never enabled and are ignored.
func (s *session) subnegotiate(opt byte, params []byte) {
	s.tr.Received(fmt.Sprintf("IAC SB %s % x IAC SE", optionName(opt), params))
	if opt == optTTYPE && len(params) > 0 && params[0] == ttypeSEND && s.neg.enabled(optTTYPE, true) {
		t := strings.ToUpper(s.h.termType())
		msg := append([]byte{cmdIAC, cmdSB, optTTYPE, ttypeIS}, escapeIAC(nil, []byte(t))...)
		s.writeLocked(append(msg, cmdIAC, cmdSE))
		s.tr.Sent("IAC SB TERMINAL-TYPE IS " + t + " IAC SE")
	}
}

// command is any other telnet command (sink). GA, NOP and DM need no
// action; AYT and the rest are for servers to act on.
func (s *session) command(cmd byte) {
	if cmd != cmdGA && cmd != cmdNOP {
		s.tr.Received("IAC " + commandName(cmd))
	}
}

// sendNegotiation is the negotiator's send: called with mu held.
func (s *session) sendNegotiation(cmd, opt byte) {
	s.tr.Sent(fmt.Sprintf("IAC %s %s", commandName(cmd), optionName(opt)))
	s.writeLocked([]byte{cmdIAC, cmd, opt})
}

// optionChanged acts on options coming into effect: NAWS is sent at once.
func (s *session) optionChanged(opt byte, local, enabled bool) {
	if opt == optNAWS && local && enabled {
		s.sendNAWSLocked()
	}
}

// sendNAWSLocked sends the terminal's size (RFC 1073).
func (s *session) sendNAWSLocked() {
	w, h, ok := windowSize(s.fd)
	if !ok {
		return
	}
	msg := []byte{cmdIAC, cmdSB, optNAWS}
	msg = escapeIAC(msg, []byte{byte(w >> 8), byte(w), byte(h >> 8), byte(h)})
	s.writeLocked(append(msg, cmdIAC, cmdSE))
	s.tr.Sent(fmt.Sprintf("IAC SB NAWS %d %d IAC SE", w, h))
}

// sendInput sends what the user typed, as NVT text unless BINARY is in
// effect on our side.
func (s *session) sendInput(p []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.wbuf[:0]
	binary := s.neg.enabled(optBinary, true)
	// Until the server takes over echoing (WILL ECHO), the NVT is in line
	// mode: the terminal is raw all the same, so urlget echoes what is
	// typed itself, and Return sends CR LF (a line service reads lines).
	charMode := s.neg.enabled(optEcho, false) || s.neg.enabled(optSGA, false)
	if s.interactive && !s.neg.enabled(optEcho, false) {
		s.out.Write(bytes.ReplaceAll(p, []byte{'\r'}, []byte{'\r', '\n'}))
	}
	for _, c := range p {
		if binary {
			b = escapeIAC(b, []byte{c})
			continue
		}
		if s.inCR {
			s.inCR = false
			if c == '\n' {
				b = append(b, '\r', '\n')
				continue
			}
			b = append(b, '\r', 0)
		}
		switch {
		case c == '\r' && s.interactive && charMode:
			b = append(b, '\r', 0) // the Return key, character at a time
		case c == '\r' && s.interactive:
			b = append(b, '\r', '\n') // NVT line mode: Return ends a line
		case c == '\r':
			s.inCR = true // CR LF from a file is one end of line
		case c == '\n':
			b = append(b, '\r', '\n')
		case c == cmdIAC:
			b = append(b, cmdIAC, cmdIAC)
		default:
			b = append(b, c)
		}
	}
	s.wbuf = b[:0]
	s.writeLocked(b)
	return s.writeErr
}

// sendLineLocked types one line (the login user or password).
func (s *session) sendLineLocked(line string) {
	s.writeLocked(append(escapeIAC(nil, []byte(line)), '\r', '\n'))
}

// writeLocked queues p for the server. Writes happen in writeLoop, never
// under mu: the reader goroutine answers negotiations under mu, and must
// not wait on a server that is itself waiting for us to read.
func (s *session) writeLocked(p []byte) {
	if s.writeErr != nil || len(p) == 0 {
		return
	}
	s.queue = append(s.queue, p...)
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// writeLoop writes what is queued, in order, until quit; the first
// failure is kept in writeErr and ends it.
func (s *session) writeLoop(quit <-chan struct{}) {
	var buf []byte
	for {
		s.mu.Lock()
		buf, s.queue = s.queue, buf[:0]
		s.mu.Unlock()
		if len(buf) == 0 {
			select {
			case <-s.wake:
				continue
			case <-quit:
				return
			}
		}
		_, err := s.conn.Write(buf)
		select {
		case s.drained <- struct{}{}:
		default:
		}
		if err != nil {
			s.mu.Lock()
			s.writeErr = err
			s.mu.Unlock()
			select {
			case s.drained <- struct{}{}:
			default:
			}
			return
		}
	}
}

// queued returns how many bytes wait for the server, and the write error.
func (s *session) queued() (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue), s.writeErr
}

// checkLoginLocked types the user and password at their prompts and
// decides when the shell is ready for the input.
func (s *session) checkLoginLocked() {
	if s.state == loginOff {
		return
	}
	t := strings.ToLower(strings.TrimRight(string(s.tail), " \t\r\n"))
	switch s.state {
	case loginWantUser:
		if strings.HasSuffix(t, "login:") || strings.HasSuffix(t, "username:") {
			s.tr.Sent(s.cred.user)
			s.sendLineLocked(s.cred.user)
			s.state, s.tail = loginWantPass, s.tail[:0]
		}
	case loginWantPass:
		if strings.HasSuffix(t, "password:") {
			s.tr.Sent(s.cred.password) // redacted by Secret
			s.sendLineLocked(s.cred.password)
			s.state, s.tail = loginWantMore, s.tail[:0]
		}
	case loginWantMore:
		switch {
		case strings.Contains(t, "incorrect") || strings.Contains(t, "denied") || strings.Contains(t, "failed"):
			s.state = loginOff
			s.loginEvt <- &schemes.Error{Scheme: "telnet", Phase: "login", Kind: schemes.KindPermission,
				Msg: fmt.Sprintf("login as %s refused by the server", s.cred.user)}
		case hasPromptSuffix(string(s.tail)):
			s.state, s.tail = loginOff, nil
		}
	}
}

// loginQuietLocked is called when the server has been quiet for the idle
// time: after the password, output that ended without a recognisable
// prompt still means the login went through. Silence alone does not (a
// refused login is answered after a delay).
func (s *session) loginQuietLocked() {
	if s.state == loginWantMore && len(bytes.TrimSpace(s.tail)) > 0 {
		s.state, s.tail = loginOff, nil
	}
}

// hasPromptSuffix reports whether out ends like a shell or service prompt:
// "$ ", "# ", "> " or "% ".
func hasPromptSuffix(out string) bool {
	for _, p := range []string{"$ ", "# ", "> ", "% "} {
		if strings.HasSuffix(out, p) {
			return true
		}
	}
	return false
}
