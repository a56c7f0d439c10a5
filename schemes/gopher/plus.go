package gopher

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// replyHeader is the first line of a Gopher+ reply (Gopher+ §2.3): `+N` exact
// length, `+-1` dot-terminated, `+-2` until the server closes; a leading
// `-` instead of `+` marks an error block of the same three forms.
type replyHeader struct {
	Err    bool  // the reply is an error block ("-")
	Length int64 // N >= 0, or -1 (dot-terminated) or -2 (until close)
}

// String formats h as the server sends it (without the line end).
func (h replyHeader) String() string {
	c := "+"
	if h.Err {
		c = "-"
	}
	return c + strconv.FormatInt(h.Length, 10)
}

// parseReplyHeader reads a Gopher+ reply header line (without its line end):
// `^[+-]-?[0-9]+$`. ok is false for anything else — a server that ignored
// Gopher+ and sent the plain document.
func parseReplyHeader(line string) (h replyHeader, ok bool) {
	if len(line) < 2 || len(line) > 21 || (line[0] != '+' && line[0] != '-') {
		return h, false
	}
	h.Err = line[0] == '-'
	n, err := strconv.ParseInt(line[1:], 10, 64)
	if err != nil || n < -2 || line[1] == '+' {
		return h, false
	}
	h.Length = n
	return h, true
}

// peekHeader looks for a Gopher+ header at the start of br and consumes it
// when there is one. It looks at no more than the first line or 24 bytes,
// and waits for a byte only while what it has could still be a header, so
// a short reply from a server that keeps the connection open does not
// stall it.
func peekHeader(br *bufio.Reader) (replyHeader, bool) {
	var b []byte
	for n := 1; n <= 24; n++ {
		var err error
		if b, err = br.Peek(n); err != nil {
			return replyHeader{}, false
		}
		c := b[n-1]
		if c == '\n' {
			break
		}
		if !(n == 1 && (c == '+' || c == '-') || n == 2 && c == '-' || c >= '0' && c <= '9' || c == '\r') {
			return replyHeader{}, false
		}
	}
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return replyHeader{}, false
	}
	h, ok := parseReplyHeader(strings.TrimSuffix(string(b[:i]), "\r"))
	if ok {
		br.Discard(i + 1)
	}
	return h, ok
}

// bodyReader returns the reader of a Gopher+ body that follows header h.
func bodyReader(br *bufio.Reader, h replyHeader) io.Reader {
	switch {
	case h.Length >= 0:
		return &exactReader{r: br, n: h.Length}
	case h.Length == -1:
		return &dotReader{lr: br, unstuff: true}
	}
	return br
}

// cutReply is the error of a Gopher+ body that ends before its header
// said it would: a `+N` body short of N bytes, a `+-1` body without its
// "." line. It unwraps to io.ErrUnexpectedEOF, so schemes.IOError makes
// it a transfer cut short (KindConnect, exit 5, retryable): what arrived
// is never taken for the whole document.
type cutReply struct{ want string }

func (c cutReply) Error() string { return "the Gopher+ reply ended before " + c.want }
func (cutReply) Unwrap() error   { return io.ErrUnexpectedEOF }

// exactReader reads exactly n bytes, failing with cutReply if the stream
// ends sooner.
type exactReader struct {
	r io.Reader
	n int64
}

func (e *exactReader) Read(p []byte) (int, error) {
	if e.n <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > e.n {
		p = p[:e.n]
	}
	n, err := e.r.Read(p)
	e.n -= int64(n)
	if errors.Is(err, io.EOF) {
		if e.n > 0 {
			return n, cutReply{fmt.Sprintf("the length its header announced (%d bytes missing)", e.n)}
		}
		err = nil
	}
	return n, err
}

// errNoDot is the error of a `+-1` body that ends without its "." line:
// the connection was cut, the document is not whole.
var errNoDot = cutReply{`its "." line (a +-1 reply is dot-terminated)`}

// dotReader reads a dot-terminated block (RFC 1436, a Gopher+ `+-1`
// body): it stops at a line that is exactly ".", and with unstuff drops
// the first "." of a line that starts with "..". Line ends pass unchanged.
// A stream that ends without the "." line fails with errNoDot.
type dotReader struct {
	lr      *bufio.Reader
	unstuff bool
	buf     []byte // the rest of the current line
	atStart bool   // the next byte starts a line
	started bool
	err     error // io.EOF after the "." line, else what ended the block
}

func (d *dotReader) Read(p []byte) (int, error) {
	if !d.started {
		d.started, d.atStart = true, true
	}
	for len(d.buf) == 0 {
		if d.err != nil {
			return 0, d.err
		}
		line, err := d.lr.ReadSlice('\n')
		switch {
		case errors.Is(err, io.EOF):
			err = errNoDot // whatever came last, the "." line did not
		case errors.Is(err, bufio.ErrBufferFull):
			err = nil // a long line: its rest follows
		}
		if d.atStart && err == nil && (string(line) == ".\r\n" || string(line) == ".\n") {
			d.err = io.EOF
			return 0, io.EOF
		}
		if len(line) > 0 {
			if d.atStart && d.unstuff && len(line) >= 2 && line[0] == '.' && line[1] == '.' {
				line = line[1:]
			}
			d.buf = append(d.buf[:0], line...)
			d.atStart = line[len(line)-1] == '\n'
		}
		d.err = err // returned once what arrived before it is read
	}
	n := copy(p, d.buf)
	d.buf = d.buf[n:]
	return n, nil
}

// textReader turns the lines of a type 0 reply into local text: CRLF
// becomes LF, and a line "." is dropped when it is the last line — the
// RFC 1436 terminator. A "." line elsewhere is data: gophernicus sends
// files as they are, without dot-stuffing or a terminator. With unstuff
// the first "." of a line starting ".." is dropped too (UMN gopherd).
type textReader struct {
	br      *bufio.Reader
	unstuff bool
	out     []byte
	held    bool // a "." line, dropped if nothing follows
	atStart bool
	started bool
	done    bool
	// Terminated says whether the text ended with a "." line; onEnd runs
	// once at the end with it.
	Terminated bool
	onEnd      func(terminated bool)
}

func (t *textReader) Read(p []byte) (int, error) {
	if !t.started {
		t.started, t.atStart = true, true
	}
	for len(t.out) == 0 {
		if t.done {
			return 0, io.EOF
		}
		line, err := t.br.ReadSlice('\n')
		if len(line) == 0 && err != nil {
			t.done = true
			if !errors.Is(err, io.EOF) {
				return 0, err
			}
			t.Terminated = t.held
			if t.onEnd != nil {
				t.onEnd(t.held)
			}
			return 0, io.EOF
		}
		t.out = t.out[:0]
		if t.held {
			t.out = append(t.out, ".\n"...)
			t.held = false
		}
		isLine := t.atStart
		t.atStart = line[len(line)-1] == '\n'
		if isLine && (string(line) == ".\r\n" || string(line) == ".\n") {
			t.held = true
			continue
		}
		if isLine && t.unstuff && len(line) >= 2 && line[0] == '.' && line[1] == '.' {
			line = line[1:]
		}
		if n := len(line); n >= 2 && line[n-2] == '\r' && line[n-1] == '\n' {
			t.out = append(t.out, line[:n-2]...)
			t.out = append(t.out, '\n')
		} else {
			t.out = append(t.out, line...)
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) && !errors.Is(err, io.EOF) {
			return 0, err
		}
	}
	n := copy(p, t.out)
	t.out = t.out[n:]
	return n, nil
}

// errorBlock is a Gopher+ error reply: `<code> <admin name> <email>` then
// message lines. Codes: 1 item not available, 2 try again later, 3 item
// moved (the message then holds a menu line of the new place).
type errorBlock struct {
	Code  int
	Admin string
	Text  string
	Moved *menuItem // for code 3, the new place when the server gave one
}

// readErrorBlock reads the body of an error reply (capped at 64 KiB).
func readErrorBlock(r io.Reader) errorBlock {
	b, _ := io.ReadAll(io.LimitReader(r, 64<<10))
	lines := strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n")
	var eb errorBlock
	first := strings.TrimSpace(lines[0])
	code, admin, _ := strings.Cut(first, " ")
	if n, err := strconv.Atoi(code); err == nil {
		eb.Code, eb.Admin = n, admin
		lines = lines[1:]
	}
	var text []string
	for _, l := range lines {
		if l == "." || l == "" {
			continue
		}
		if eb.Code == 3 && eb.Moved == nil && strings.Count(l, "\t") >= 3 {
			it := parseMenuItem(l)
			if it.Valid {
				eb.Moved = &it
				continue
			}
		}
		text = append(text, l)
	}
	eb.Text = strings.Join(text, " ")
	if eb.Text == "" {
		eb.Text = fmt.Sprintf("Gopher+ error %d", eb.Code)
	}
	return eb
}
