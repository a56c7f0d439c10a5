package ftp

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/urlget/urlget/schemes"
)

// retrieve runs the URL-specific part of the algorithm on a logged-in
// connection at the login directory.
func (h *Handler) retrieve(ctx context.Context, c *ctrl, loc *URL, req *schemes.Request) (*schemes.Response, error) {
	for _, seg := range loc.Cwd {
		// Each decoded segment is one CWD argument, "%2F" included; an
		// empty one sends CWD with a null argument (RFC 1738 §3.2.2).
		rp, err := c.cmd("CWD " + seg)
		if err != nil {
			return nil, ioError(ctx, loc, "cwd", err)
		}
		if rp.Code/100 != 2 {
			return nil, replyError(loc, "cwd", "CWD "+seg, rp)
		}
	}
	switch {
	case loc.Type == 'd':
		return h.listing(ctx, c, loc, req, "NLST")
	case loc.Name == "":
		return h.listing(ctx, c, loc, req, "")
	}
	return h.retr(ctx, c, loc, req)
}

// transferType is the TYPE for loc: its typecode, or a guess from the
// name (RFC 1738 §3.2.3 leaves the guess to the client).
func transferType(loc *URL) (t byte, guessed bool) {
	if loc.Type == 'a' || loc.Type == 'i' {
		return loc.Type, false
	}
	return guessType(loc.Name), true
}

// retr retrieves a file: TYPE, SIZE (binary only: an ASCII size is the
// server's, not ours), MDTM, the data connection, REST when resuming, RETR.
func (h *Handler) retr(ctx context.Context, c *ctrl, loc *URL, req *schemes.Request) (*schemes.Response, error) {
	t, guessed := transferType(loc)
	tc := strings.ToUpper(string(t))
	if guessed {
		c.tr.Info(fmt.Sprintf("no ;type= in the URL: guessed TYPE %s from the name %q", tc, loc.Name))
	}
	if err := c.simple(ctx, loc, "type", "TYPE "+tc); err != nil {
		return nil, err
	}
	size := int64(-1)
	if t == 'i' {
		rp, err := c.cmd("SIZE " + loc.Name)
		if err != nil {
			return nil, ioError(ctx, loc, "size", err)
		}
		if rp.Code == 213 {
			if n, err := strconv.ParseInt(rp.Text(), 10, 64); err == nil && n >= 0 {
				size = n
			}
		}
	}
	var mtime time.Time
	rp, err := c.cmd("MDTM " + loc.Name)
	if err != nil {
		return nil, ioError(ctx, loc, "mdtm", err)
	}
	if rp.Code == 213 {
		mtime, _ = parseMDTM(rp.Text())
	}
	offset := req.Offset
	if offset > 0 && !req.ResumeModTime.IsZero() && !mtime.IsZero() &&
		!mtime.Equal(req.ResumeModTime.UTC().Truncate(time.Second)) {
		c.tr.Info("the file changed since the partial copy was made: retrieving all of it")
		offset = 0
	}
	if offset > 0 && t == 'a' {
		// REST counts the server's bytes, and TYPE A changes line ends on
		// the way: a local offset does not name a server position.
		c.tr.Info("cannot resume a TYPE A transfer: retrieving all of it")
		offset = 0
	}
	if offset > 0 && size >= 0 && offset > size {
		c.tr.Info("the partial copy is longer than the file: retrieving all of it")
		offset = 0
	}
	dc, err := c.openData(ctx, loc, req.Dialer)
	if err != nil {
		return nil, err
	}
	if offset > 0 {
		rp, err := c.cmd("REST " + strconv.FormatInt(offset, 10))
		if err != nil {
			dc.Close()
			return nil, ioError(ctx, loc, "rest", err)
		}
		if rp.Code != 350 {
			c.tr.Info("server cannot resume: retrieving all of it")
			offset = 0
		}
	}
	dc, rp, err = c.transfer(ctx, loc, dc, "retr", "RETR "+loc.Name)
	if err != nil {
		return nil, err
	}
	b := &body{h: h, c: c, dc: dc, ctx: ctx, loc: loc, want: -1}
	b.raw = dc
	b.r = &b.counter
	// A large buffer takes everything the socket holds in one read: fewer
	// wake-ups per megabyte than the 32 KiB reads of io.Copy.
	b.br = bufio.NewReaderSize(dc, dataBuffer)
	b.counter = countReader{r: b.br}
	if size >= 0 {
		b.want = size - offset
	}
	if t == 'a' {
		b.r = newCRLFReader(&b.counter)
	}
	return &schemes.Response{Body: b, Offset: offset, Size: size, ModTime: mtime, Name: loc.Name, Status: rp.Code}, nil
}

// simple sends a command that must succeed with a 2yz reply.
func (c *ctrl) simple(ctx context.Context, loc *URL, phase, cmd string) error {
	rp, err := c.cmd(cmd)
	if err != nil {
		return ioError(ctx, loc, phase, err)
	}
	if rp.Code/100 != 2 {
		return replyError(loc, phase, cmd, rp)
	}
	return nil
}

// transfer sends the command that uses the data connection dc (RETR, LIST,
// MLSD, NLST) and waits for the server's 125/150. On failure dc is closed.
func (c *ctrl) transfer(ctx context.Context, loc *URL, dc net.Conn, phase, cmd string) (net.Conn, reply, error) {
	rp, err := c.cmd(cmd)
	if err != nil {
		dc.Close()
		return nil, rp, ioError(ctx, loc, phase, err)
	}
	if rp.Code != 125 && rp.Code != 150 {
		dc.Close()
		if rp.Code == 421 {
			c.broken = true
		}
		if rp.Code/100 == 2 {
			// A transfer reply without a preliminary one is a protocol
			// violation; the connection's state is unknown.
			c.broken = true
		}
		return nil, rp, replyError(loc, phase, cmd, rp)
	}
	sdc, err := c.secureData(ctx, dc)
	if err != nil {
		dc.Close()
		c.broken = true
		return nil, rp, tlsError(ctx, loc, err)
	}
	return sdc, rp, nil
}

// endTransfer reads the reply that ends a transfer (226 or 250).
func (c *ctrl) endTransfer(ctx context.Context, loc *URL, phase, cmd string) error {
	rp, err := c.read()
	if err != nil {
		return ioError(ctx, loc, phase, err)
	}
	if rp.Code == 226 || rp.Code == 250 {
		return nil
	}
	if rp.Code == 421 {
		c.broken = true
	}
	return replyError(loc, phase, cmd, rp)
}

// parseMDTM reads "YYYYMMDDHHMMSS[.sss]" (RFC 3659 §2.3), in UTC.
func parseMDTM(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '.'); i >= 0 {
		s = s[:i]
	}
	t, err := time.Parse("20060102150405", s)
	return t.UTC(), err == nil
}

// dataBuffer is the read buffer of a data connection.
const dataBuffer = 1 << 20

// countReader counts the bytes read from the data connection, before any
// conversion.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
