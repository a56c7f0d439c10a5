package ftp

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"sync"

	"github.com/urlget/urlget/schemes"
)

// body streams a file from the data connection. At the end of the data it
// reads the server's transfer reply and checks the byte count against
// SIZE; only then does the control connection go back to the pool. Closed
// early, or after any failure, it closes both connections: an aborted
// transfer leaves the control connection in a state not worth repairing.
type body struct {
	h       *Handler
	c       *ctrl
	dc      net.Conn
	raw     net.Conn
	ctx     context.Context
	loc     *URL
	r       io.Reader
	counter countReader
	want    int64 // bytes the data connection should carry, -1 if unknown

	mu   sync.Mutex
	err  error // sticky: io.EOF after a good end, else the failure
	done bool  // connections released
}

func (b *body) Read(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.r.Read(p)
	switch {
	case err == io.EOF:
		if ferr := b.finish(); ferr != nil {
			b.err = ferr
			return n, ferr
		}
		b.err = io.EOF
	case err != nil:
		e := ioError(b.ctx, b.loc, "retr", err)
		if e.Kind == schemes.KindConnect {
			e.Msg = "data connection broke"
		}
		b.err = e
		b.abort()
	}
	return n, b.err
}

// finish ends a transfer whose data arrived: the 226 must follow, and a
// size announced by SIZE must match what came.
func (b *body) finish() error {
	b.dc.Close()
	b.done = true
	if err := b.c.endTransfer(b.ctx, b.loc, "retr", "RETR "+b.loc.Name); err != nil {
		b.c.broken = true
		b.c.close()
		return err
	}
	if b.want >= 0 && b.counter.n != b.want {
		b.c.broken = true
		b.c.close()
		return &schemes.Error{Scheme: b.loc.u.Scheme, Phase: "retr", Kind: schemes.KindProtocol, URL: b.loc.Redacted(),
			Retryable: true, Msg: fmt.Sprintf("truncated transfer: %d bytes received, the server announced %d",
				b.counter.n, b.want)}
	}
	b.h.pool.put(b.c)
	return nil
}

func (b *body) abort() {
	if b.done {
		return
	}
	b.done = true
	b.dc.Close()
	b.c.broken = true
	b.c.close()
}

// Close releases the connections; before the end of the data it aborts.
// It may be called while a Read is blocked in another goroutine: closing
// the data connection first makes that Read return.
func (b *body) Close() error {
	b.dc.Close()
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.err == nil {
		b.err = &schemes.Error{Scheme: b.loc.u.Scheme, Phase: "retr", Kind: schemes.KindCanceled, URL: b.loc.Redacted(),
			Msg: "body closed"}
	}
	b.abort()
	return nil
}

// crlfReader turns CRLF into LF: TYPE A data uses CRLF line ends on the
// wire (RFC 959 §3.1.1.1) and local files use LF. A lone CR is kept.
type crlfReader struct {
	br *bufio.Reader
}

func newCRLFReader(r io.Reader) *crlfReader { return &crlfReader{br: bufio.NewReaderSize(r, 32<<10)} }

func (c *crlfReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if n > 0 && c.br.Buffered() == 0 {
			break // return what we have rather than block
		}
		ch, err := c.br.ReadByte()
		if err != nil {
			if n > 0 {
				return n, nil
			}
			return 0, err
		}
		if ch == '\r' {
			// Peek blocks for the next byte when none is buffered: a CR
			// at a read boundary must wait to know what it is.
			if next, err := c.br.Peek(1); err == nil && next[0] == '\n' {
				continue
			}
		}
		p[n] = ch
		n++
	}
	return n, nil
}

// copyBuffer is the buffer size of WriteTo: larger than io.Copy's 32 KiB,
// so a fast transfer takes fewer reads (and wake-ups) per megabyte.
const copyBuffer = 256 << 10

// WriteTo copies the rest of the body to w, so io.Copy (and Download)
// read in copyBuffer chunks; the end-of-transfer checks of Read apply.
func (b *body) WriteTo(w io.Writer) (int64, error) {
	buf := make([]byte, copyBuffer)
	var total int64
	for {
		n, err := b.Read(buf)
		if n > 0 {
			m, werr := w.Write(buf[:n])
			total += int64(m)
			if werr != nil {
				return total, werr
			}
		}
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}
