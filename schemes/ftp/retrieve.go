package ftp

import (
	"bufio"
	"context"
	"io"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/urlget/urlget/schemes"
)

// retr retrieves a file: SYST when the TYPE is guessed and depends on the
// server's system (once per connection), TYPE when it changes, the data
// connection, RETR.
// A resumed transfer asks SIZE and MDTM first and sends REST when the
// resume rule allows. Otherwise SIZE is asked (TYPE I only: an ASCII size
// is the server's, not ours) only while the server's 150 reply has not
// shown that its "(N bytes)" tells the size, which it then does, and when
// no listing told it (Request.Listed). What
// arrives is checked against the size: exactly in TYPE I, and in TYPE A
// against the file's size in the 150 reply, which the transfer may exceed
// (CRLF line ends) but not fall short of.
func (h *Handler) retr(ctx context.Context, c *ctrl, loc *URL, req *schemes.Request) (*schemes.Response, error) {
	tt := h.transferType(loc, partOf(req), req.Exact)
	if tt.askSystem {
		rp, ok, err := c.system(loc)
		if err != nil {
			return nil, err
		}
		tt = tt.bySystem(loc.Name, rp, ok, h.words)
		if h.pipelines(c) {
			if err := c.sendBatch(h.fetchPlan(req)(c, loc)); err != nil {
				return nil, ioError(loc, "type", err)
			}
		}
	}
	if tt.note != "" {
		c.tr.Info(tt.note)
	}
	mode := strings.ToUpper(string(tt.t))
	if err := c.setType(loc, tt.t); err != nil {
		return nil, err
	}
	ranged := req.Ranged()
	if ranged && tt.t == 'a' {
		return nil, &schemes.Error{Scheme: loc.u.Scheme, Phase: "rest", Kind: schemes.KindUnsupported, Part: "type",
			Msg: "a byte range counts the file's bytes, which TYPE A changes on the way: ask for it in TYPE I (;type=i)"}
	}
	size := int64(-1)
	if c.asksSize(tt.t, req) {
		n, err := c.size(loc)
		if err != nil {
			return nil, err
		}
		size = n
	}
	var mtime time.Time
	if asksModTime(tt.t, req) {
		t, err := c.mdtm(loc)
		if err != nil {
			return nil, err
		}
		mtime = t
	}
	if notModified, changed := req.TimeCondition(mtime, time.Second); notModified || changed {
		// As curl: MDTM decides, and RETR is never sent.
		c.tr.Info(conditionNote(notModified, mtime))
		c.release()
		return &schemes.Response{Body: io.NopCloser(strings.NewReader("")), Kind: schemes.EntryFile, Size: size,
			ModTime: mtime, Precision: time.Second, Mode: mode, ModeGuessed: tt.guessed,
			NotModified: notModified, Changed: changed, Status: 213}, nil // the MDTM reply decided
	}
	offset := c.resumeAt(req, schemes.Remote{ModTime: mtime, Precision: time.Second, Size: size, Mode: mode})
	if ranged {
		if err := req.RangeError(loc.u.Scheme, size, 0); err != nil {
			return nil, err // run gives the login back
		}
		offset = rangeStart(req, size, c.tr)
	}
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
			c.tr.Info("server cannot start at a byte (REST): retrieving all of it")
			offset = 0
		}
	}
	dc, rp, err := c.transfer(ctx, loc, req.Dialer, dc, "retr", "RETR "+loc.Name, h.sendsAhead(ctx, c, loc, req))
	if err != nil {
		if rp.Code == codeFileUnavailable {
			return nil, c.notAFile(loc, err)
		}
		return nil, err
	}
	if tt.t == 'i' && offset == 0 {
		size = c.learnSize(size, rp)
	}
	b := &body{h: h, c: c, dc: dc, ctx: ctx, loc: loc, want: -1, least: -1}
	b.raw = dc
	b.r = &b.counter
	// A large buffer takes everything the socket holds in one read: fewer
	// wake-ups per megabyte than the 32 KiB reads of io.Copy.
	b.br = bufio.NewReaderSize(dc, bufferFor(size-offset))
	b.counter = countReader{r: b.br}
	if size >= 0 {
		b.want = size - offset
	}
	if tt.t == 'a' {
		b.r = newCRLFReader(&b.counter)
		if n, ok := byteCount(rp.Text()); ok {
			b.least = n
		}
	}
	resp := &schemes.Response{Body: b, Offset: offset, Kind: schemes.EntryFile, Size: size, ModTime: mtime,
		Mode: mode, ModeGuessed: tt.guessed, Status: rp.Code}
	if !mtime.IsZero() {
		resp.Precision = time.Second
	}
	resp.Name, _ = schemes.SafeName(loc.Name)
	b.status = &resp.Status // the 226 replaces the 150 once the data is in
	return resp, nil
}

// setType sends TYPE t unless it is in effect already.
func (c *ctrl) setType(loc *URL, t byte) error {
	if c.typ == t {
		return nil
	}
	if err := c.simple(loc, "type", "TYPE "+strings.ToUpper(string(t))); err != nil {
		return err
	}
	c.typ = t
	return nil
}

// learnSize returns the size of a TYPE I file from start, the reply to
// RETR without REST: size when SIZE told it, else the "(N bytes)" of the
// reply when it has one (vsftpd and proftpd write it; pure-ftpd does
// not). The first time both are known, it notes whether they agree: when
// they do, later transfers on the connection skip SIZE.
func (c *ctrl) learnSize(size int64, start reply) int64 {
	n, ok := byteCount(start.Text())
	switch {
	case size < 0 && ok:
		return n
	case size >= 0 && c.count150 == unknown:
		c.count150 = no
		if ok && n == size {
			c.count150 = yes
		}
	}
	return size
}

// byteCount reads the size a transfer reply announces: "150 Opening BINARY
// mode data connection for f (1234 bytes)." It is the server's text, not
// a standard field, so only that exact form counts.
func byteCount(text string) (int64, bool) {
	end := strings.LastIndex(text, " bytes)")
	if end < 0 {
		return 0, false
	}
	start := strings.LastIndexByte(text[:end], '(')
	if start < 0 {
		return 0, false
	}
	digits := text[start+1 : end]
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return 0, false
	}
	return n, true
}

// partOf says which part of the file req asks for, for transferType:
// "resuming" a partial copy, "a range of" it, "" for all of it.
func partOf(req *schemes.Request) string {
	switch {
	case req.Ranged():
		return "a range of"
	case req.Offset > 0:
		return "resuming"
	}
	return ""
}

// timeConditioned says whether req has a time condition to meet, which
// MDTM is asked for.
func timeConditioned(req *schemes.Request) bool {
	return req.Partial == (schemes.Partial{}) && !(req.IfModifiedSince.IsZero() && req.IfUnmodifiedSince.IsZero())
}

// conditionNote is the trace's note for a transfer a time condition
// stopped: notModified, or changed.
func conditionNote(notModified bool, mtime time.Time) string {
	when := mtime.UTC().Format(time.RFC3339)
	if notModified {
		return "not modified since the time asked (MDTM: " + when + "): RETR not sent"
	}
	return "modified after the time asked (MDTM: " + when + "): RETR not sent"
}

// rangeStart is the REST offset of req's byte range on a file of size
// bytes (-1: unknown): its first byte, or for the last N bytes where
// they start, which SIZE tells (without it the whole file is sent, and
// the caller cuts it where it can).
func rangeStart(req *schemes.Request, size int64, tr schemes.Trace) int64 {
	if req.Suffix <= 0 {
		return req.Offset
	}
	if size < 0 {
		tr.Info("the server tells no SIZE: retrieving all of it for its last bytes")
		return 0
	}
	return max(size-req.Suffix, 0)
}

// resumeAt is where the transfer starts: req.Offset when the resume rule
// (Request.MayResume) allows continuing the partial copy from the remote
// file r describes, else 0; the decision is noted with its reason. A TYPE
// A copy is never continued, nor is anything in TYPE A: REST counts the
// server's bytes, and TYPE A changes line ends on the way, so a local
// offset names no server position.
func (c *ctrl) resumeAt(req *schemes.Request, r schemes.Remote) int64 {
	if req.Offset <= 0 || req.Ranged() {
		return 0
	}
	if rec := req.Partial.Record; rec != nil && rec.Mode == "A" {
		c.tr.Info("the partial copy was made in TYPE A, whose offsets name no position on the server: retrieving all of it")
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
// -1 when the server does not say. A server that does not know the
// command is not asked again.
func (c *ctrl) size(loc *URL) (int64, error) {
	rp, err := c.cmd("SIZE " + loc.Name)
	if err != nil {
		return -1, ioError(loc, "size", err)
	}
	switch rp.Code {
	case codeServiceNotAvailable:
		return -1, c.replyError(loc, "size", "SIZE "+loc.Name, rp)
	case codeUnknownCommand, codeNotImplemented:
		c.noSIZE = true
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
// MLSD, NLST), with the next file's EPSV when ahead (ahead.go), and waits
// for the server's 125/150. On failure dc is closed (and the reply to an
// EPSV sent ahead read: the session stays in step).
func (c *ctrl) transfer(ctx context.Context, loc *URL, d schemes.Dialer, dc net.Conn, phase, cmd string, ahead bool) (net.Conn, reply, error) {
	err := c.settle()
	closing := false
	if err == nil {
		closing, err = c.inStep()
	}
	if err == nil && !closing { // a 421 waiting answers cmd, not sent
		err = c.send(cmd)
	}
	if err == nil && ahead && !closing {
		err = c.sendAhead()
	}
	var rp reply
	if err == nil {
		rp, err = c.read()
	}
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
		} else {
			c.readAhead()
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

// endTransfer reads the reply that ends a transfer (226 or 250) and
// returns its code. The reply to an EPSV sent ahead comes after it, or
// before it from a server that reads commands during a transfer: any
// reply that cannot end one is that (pure-ftpd answers "500 Unknown
// command" and is sent no EPSV ahead again, see keepAhead).
func (c *ctrl) endTransfer(loc *URL, phase, cmd string) (int, error) {
	rp, err := c.read()
	if err == nil && c.aheadSent && !endsTransfer(rp.Code) {
		c.keepAhead(rp)
		rp, err = c.read()
	}
	if err != nil {
		return 0, ioError(loc, phase, err)
	}
	if rp.Code == 226 || rp.Code == 250 {
		return rp.Code, nil
	}
	return rp.Code, c.replyError(loc, phase, cmd, rp)
}

// endsTransfer says whether code is one a transfer command's last reply
// may have once its data connection opened (RFC 959 §5.4: RETR, LIST,
// NLST; MLSD, RFC 3659 §7.2, likewise).
func endsTransfer(code int) bool {
	switch code {
	case 226, 250, 425, 426, 451, 551, 552:
		return true
	}
	return false
}

// dataBuffer is the read buffer of a data connection.
const dataBuffer = 1 << 20

// bufferFor sizes the read buffer of a transfer of n bytes (-1: unknown):
// a mirror fetches thousands of small files, and a megabyte allocated
// and cleared for each costs more than the transfer.
func bufferFor(n int64) int {
	if n < 0 || n >= dataBuffer {
		return dataBuffer
	}
	return max(int(n)+1, 4096) // +1: the read that sees the end
}

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
