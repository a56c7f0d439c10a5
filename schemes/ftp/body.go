package ftp

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"sync"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
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
	br      *bufio.Reader // the read buffer over dc, under counter
	counter countReader
	want    int64 // bytes the data connection should carry, -1 if unknown
	// least is the fewest bytes a TYPE A transfer may carry, -1 if
	// unknown: the file's size the server announced. Its conversion to
	// CRLF line ends adds bytes on the way and never removes any, so
	// fewer means the transfer ended short.
	least int64
	// status is the Response's Status, which becomes the code of the
	// reply that ends the transfer (226), the last reply, as the
	// Response's contract says.
	status *int

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
	// Canceling unblocks the connections only once context.AfterFunc has
	// run, in a goroutine of its own; data already buffered (or the rest
	// of a short file) must not be delivered after cancel returned.
	if err := b.ctx.Err(); err != nil {
		b.fail(err)
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
		b.fail(err)
	}
	return n, b.err
}

// fail records a broken transfer and drops both connections.
func (b *body) fail(err error) {
	b.err = transferError(b.loc, "retr", err)
	b.abort()
}

// finish ends a transfer whose data arrived: the 226 must follow, and a
// size announced by SIZE must match what came.
func (b *body) finish() error {
	b.dc.Close()
	b.done = true
	code, err := b.c.endTransfer(b.loc, "retr", "RETR "+b.loc.Name)
	if b.status != nil && code != 0 {
		*b.status = code
	}
	if err != nil {
		b.c.broken = true
		b.c.close()
		return err
	}
	short := b.want >= 0 && b.counter.n != b.want || b.least >= 0 && b.counter.n < b.least
	if short {
		b.c.broken = true
		b.c.close()
		msg := fmt.Sprintf("truncated transfer: %d bytes received, the server announced %d", b.counter.n, b.want)
		if b.want < 0 {
			msg = fmt.Sprintf("truncated transfer: %d bytes received in TYPE A, fewer than the file's %d the server "+
				"announced", b.counter.n, b.least)
		}
		return &schemes.Error{Scheme: b.loc.u.Scheme, Phase: "retr", Kind: schemes.KindProtocol,
			Retryable: true, Msg: msg}
	}
	b.c.readAhead() // the file is whole: a session that fails here is only closed
	b.c.release()
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

// Close releases the connections. Before the end of the data it stops
// the transfer, and the control connection goes back to the pool when the
// server confirms the abort (abortTransfer), so that a reader that stops
// early (a seek, a client gone) costs no new login. It may be called
// while a Read is blocked in another goroutine: closing the data
// connection first makes that Read return.
func (b *body) Close() error {
	b.dc.Close()
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.err == nil {
		b.err = &schemes.Error{Scheme: b.loc.u.Scheme, Phase: "retr", Kind: schemes.KindCanceled,
			Msg: "body closed"}
		if !b.done && b.ctx.Err() == nil {
			b.done = true
			b.c.abortTransfer()
			return nil
		}
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

// spliceChunk is how much one splice pass may move before the body takes
// stock: progress reports and the truncation count advance per chunk.
const spliceChunk = 4 << 20

// WriteTo copies the rest of the body to w, so io.Copy (and Download)
// read in copyBuffer chunks; the end-of-transfer checks of Read apply.
// An image (TYPE I) transfer over a plain TCP data connection into a
// writer with ReadFrom (a file, a pipe) is spliced by the kernel instead;
// the final Read that meets the end of the data still runs the checks.
func (b *body) WriteTo(w io.Writer) (int64, error) {
	total, err := b.splice(w)
	if err != nil {
		return total, err
	}
	size := copyBuffer
	if b.want >= 0 && b.want < copyBuffer {
		size = max(int(b.want)+1, 512) // a small file: +1 for the read that sees the end
	}
	buf := make([]byte, size)
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

// splice moves what it can of the body to w without copying it through
// user memory: the bytes still due by SIZE, or everything up to the end
// of the data when no size was announced. A file smaller than one copy
// buffer is not worth it: a read and a write move it, where a splice
// costs a pipe and more system calls. It leaves the end of the data
// (and so the 226 and the count check) to Read. It does nothing when w
// or the data connection does not allow it.
func (b *body) splice(w io.Writer) (int64, error) {
	rf, ok := transport.SpliceTarget(w)
	dc, plainTCP := b.raw.(*transport.Conn)    // not TLS
	translated := b.r != io.Reader(&b.counter) // TYPE A: CRLF becomes LF on the way
	small := b.want >= 0 && b.want < copyBuffer
	if !ok || !plainTCP || translated || small {
		return 0, nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.err != nil || b.br.Buffered() > 0 {
		return 0, nil // Read was called before: let it carry on
	}
	var total int64
	for b.want < 0 || b.counter.n < b.want {
		if err := b.ctx.Err(); err != nil {
			b.fail(err)
			return total, b.err
		}
		chunk := int64(spliceChunk)
		if b.want >= 0 {
			chunk = min(chunk, b.want-b.counter.n)
		}
		n, err := dc.ReadTo(rf, chunk)
		b.counter.n += n
		total += n
		if err != nil && transport.FromSocket(err) {
			b.fail(err)
			return total, b.err
		}
		if err != nil {
			// The file or pipe refused the bytes (disk full, reader
			// gone): like a failed Write, the error is the caller's to
			// report; bytes taken off the socket are lost, so abort.
			b.err = err
			b.abort()
			return total, err
		}
		if n < chunk {
			break // the end of the data: Read meets it again and finishes
		}
	}
	return total, nil
}
