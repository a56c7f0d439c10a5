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

// transferType is the TYPE for loc: its typecode, or a guess from the
// name (RFC 1738 §3.2.3 leaves the guess to the client).
func transferType(loc *URL) (t byte, guessed bool) {
	if loc.Type == 'a' || loc.Type == 'i' {
		return loc.Type, false
	}
	return guessType(loc.Name), true
}

// retr retrieves a file: TYPE, SIZE (binary only: an ASCII size is the
// server's, not ours), MDTM, the data connection, REST when resuming under
// the resume rule, RETR.
func (h *Handler) retr(ctx context.Context, c *ctrl, loc *URL, req *schemes.Request) (*schemes.Response, error) {
	t, guessed := transferType(loc)
	mode := strings.ToUpper(string(t))
	if guessed {
		c.tr.Info(fmt.Sprintf("no ;type= in the URL: guessed TYPE %s from the name %q", mode, loc.Name))
	}
	if err := c.simple(loc, "type", "TYPE "+mode); err != nil {
		return nil, err
	}
	size := int64(-1)
	if t == 'i' {
		n, err := c.size(loc)
		if err != nil {
			return nil, err
		}
		size = n
	}
	mtime, err := c.mdtm(loc)
	if err != nil {
		return nil, err
	}
	offset := c.resumeAt(req, schemes.Remote{ModTime: mtime, Precision: time.Second, Size: size, Mode: mode})
	dc, err := c.openData(ctx, loc, req.Dialer)
	if err != nil {
		return nil, err
	}
	if offset > 0 {
		rp, err := c.cmd("REST " + strconv.FormatInt(offset, 10))
		if err != nil {
			dc.Close()
			return nil, ioError(loc, "rest", err)
		}
		if rp.Code != 350 {
			c.tr.Info("server cannot resume: retrieving all of it")
			offset = 0
		}
	}
	dc, rp, err := c.transfer(ctx, loc, req.Dialer, dc, "retr", "RETR "+loc.Name)
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
	resp := &schemes.Response{Body: b, Offset: offset, Kind: schemes.EntryFile, Size: size, ModTime: mtime,
		Mode: mode, Status: rp.Code}
	if !mtime.IsZero() {
		resp.Precision = time.Second
	}
	resp.Name, _ = schemes.SafeName(loc.Name)
	return resp, nil
}

// resumeAt is where the transfer starts: req.Offset when the resume rule
// (Request.MayResume) allows continuing the partial copy from the remote
// file r describes, else 0; the decision is noted with its reason. A TYPE
// A transfer is never resumed: REST counts the server's bytes, and TYPE A
// changes line ends on the way, so a local offset names no server
// position.
func (c *ctrl) resumeAt(req *schemes.Request, r schemes.Remote) int64 {
	if req.Offset <= 0 {
		return 0
	}
	if r.Mode == "A" {
		c.tr.Info("cannot resume a TYPE A transfer: retrieving all of it")
		return 0
	}
	ok, reason := req.MayResume(r)
	if !ok {
		c.tr.Info(reason + ": retrieving all of it")
		return 0
	}
	c.tr.Info(reason)
	return req.Offset
}

// size asks SIZE (RFC 3659 §4) for the size of name in the current TYPE:
// -1 when the server does not say.
func (c *ctrl) size(loc *URL) (int64, error) {
	rp, err := c.cmd("SIZE " + loc.Name)
	if err != nil {
		return -1, ioError(loc, "size", err)
	}
	if rp.Code == 421 {
		return -1, c.replyError(loc, "size", "SIZE "+loc.Name, rp)
	}
	if rp.Code == 213 {
		if n, err := strconv.ParseInt(rp.Text(), 10, 64); err == nil && n >= 0 {
			return n, nil
		}
	}
	return -1, nil
}

// mdtm asks MDTM (RFC 3659 §3) for the modification time of name: zero
// when the server does not say.
func (c *ctrl) mdtm(loc *URL) (time.Time, error) {
	rp, err := c.cmd("MDTM " + loc.Name)
	if err != nil {
		return time.Time{}, ioError(loc, "mdtm", err)
	}
	if rp.Code == 421 {
		return time.Time{}, c.replyError(loc, "mdtm", "MDTM "+loc.Name, rp)
	}
	if rp.Code == 213 {
		t, _ := parseMDTM(rp.Text())
		return t, nil
	}
	return time.Time{}, nil
}

// simple sends a command that must succeed with a 2yz reply.
func (c *ctrl) simple(loc *URL, phase, cmd string) error {
	rp, err := c.cmd(cmd)
	if err != nil {
		return ioError(loc, phase, err)
	}
	if rp.Code/100 != 2 {
		return c.replyError(loc, phase, cmd, rp)
	}
	return nil
}

// transfer sends the command that uses the data connection dc (RETR, LIST,
// MLSD, NLST) and waits for the server's 125/150. On failure dc is closed.
func (c *ctrl) transfer(ctx context.Context, loc *URL, d schemes.Dialer, dc net.Conn, phase, cmd string) (net.Conn, reply, error) {
	rp, err := c.cmd(cmd)
	if err != nil {
		dc.Close()
		return nil, rp, ioError(loc, phase, err)
	}
	if rp.Code != 125 && rp.Code != 150 {
		dc.Close()
		if rp.Code/100 == 2 {
			// A transfer reply without a preliminary one is a protocol
			// violation; the connection's state is unknown.
			c.broken = true
		}
		return nil, rp, c.replyError(loc, phase, cmd, rp)
	}
	sdc, err := c.secureData(ctx, loc, d, dc)
	if err != nil {
		dc.Close()
		return nil, rp, err
	}
	return sdc, rp, nil
}

// endTransfer reads the reply that ends a transfer (226 or 250).
func (c *ctrl) endTransfer(loc *URL, phase, cmd string) error {
	rp, err := c.read()
	if err != nil {
		return ioError(loc, phase, err)
	}
	if rp.Code == 226 || rp.Code == 250 {
		return nil
	}
	return c.replyError(loc, phase, cmd, rp)
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
