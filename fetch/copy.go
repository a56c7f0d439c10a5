package fetch

import (
	"context"
	"hash"
	"io"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// A body is copied in passes, and the copier takes stock between two
// passes: it reports progress, applies LimitRate and MaxFileSize, and
// notices a canceled ctx. One io.Copy would be a single ReadFrom or WriteTo
// call, and a progress bar would jump from 0 to 100 % at the end.
const (
	// maxPass bounds a pass: progress is reported at least every MiB.
	maxPass = 1 << 20
	// minPass is the smallest pass handed to the kernel (splice,
	// sendfile, copy_file_range): below it the system calls cost more
	// than the copy they save.
	minPass = 16 << 10
	// reportEvery is the longest wait between two progress reports while
	// data flows.
	reportEvery = 250 * time.Millisecond
	// passTime is how long a kernel pass should last; its size follows
	// the rate measured in the passes before.
	passTime = 150 * time.Millisecond
	// copyBuffer is the buffer of the passes that copy through memory.
	copyBuffer = 128 << 10
)

// copier moves one body to dst in passes. It is the io.Writer and
// io.ReaderFrom the body is copied into: a body with WriteTo (the ftp
// body, which splices from its data connection) writes to it or hands its
// reader to ReadFrom, any other body is read by ReadFrom.
//
// ReadFrom picks, pass by pass, how the bytes move. While they come fast
// and the source is one the kernel can move (an *os.File, a socket), a
// pass is dst.ReadFrom of at most maxPass bytes, sized to last about
// passTime, so splice(2), sendfile(2) and copy_file_range(2) still do the
// work. When they come slowly (the first pass too, until the rate is
// known), a pass is one Read and one Write, so a trickle is still reported
// every reportEvery: a blocked Read cannot be interrupted, so a pass must
// not wait for more bytes than the source gives at once.
type copier struct {
	ctx      context.Context
	loc      schemes.Locator
	dst      io.Writer
	rf       io.ReaderFrom // dst's ReadFrom, when the kernel may move bytes into dst; else nil
	hash     hash.Hash     // sums the bytes in passing when set (no kernel passes then)
	done     int64         // bytes of the resource held: the offset, then what arrives
	total    int64         // the resource's size, -1 if unknown
	progress func(done, total int64)
	rate     int64 // LimitRate, 0 for none
	max      int64 // MaxFileSize, 0 for none

	begin      time.Time // when the copy started, for the rate cap
	moved      int64     // bytes moved by this copy
	lastReport time.Time
	window     int64 // bytes moved since lastReport
	pass       int64 // size of the next kernel pass
	fast       bool  // the last window was fast enough for kernel passes
	buf        []byte
	wb         *writeback // starts the disk writes of a file target early; nil for none
	werr       error      // dst refused bytes: the failure is the local side's
	limit      error      // the copy passed MaxFileSize
}

func (c *Client) newCopier(ctx context.Context, loc schemes.Locator, dst io.Writer, done, total int64, progress func(int64, int64)) *copier {
	now := time.Now()
	return &copier{ctx: ctx, loc: loc, dst: dst, rf: kernelTarget(dst), done: done, total: total, progress: progress,
		rate: c.LimitRate, max: c.MaxFileSize, begin: now, lastReport: now, pass: minPass}
}

// kernelTarget returns dst's ReadFrom if handing it a socket is safe: a
// terminal or another device may refuse splice(2) after the kernel took
// the bytes off the socket (transport.SpliceSafe), so a file must be one
// that accepts it.
func kernelTarget(dst io.Writer) io.ReaderFrom {
	if f, ok := dst.(*os.File); ok && !transport.SpliceSafe(f) {
		return nil
	}
	rf, _ := dst.(io.ReaderFrom)
	return rf
}

// run copies body, reports the final count, and returns the bytes that
// reached dst.
func (c *copier) run(body io.Reader) (int64, error) {
	if c.progress != nil {
		c.progress(c.done, c.total)
	}
	var err error
	if wt, ok := body.(io.WriterTo); ok && !movable(body) {
		_, err = wt.WriteTo(c)
	} else {
		// A file's or socket's own WriteTo would copy through a
		// wrapper that hides its descriptor from dst's ReadFrom.
		_, err = c.ReadFrom(body)
	}
	c.report(time.Now())
	if c.buf != nil {
		buf := c.buf
		c.buf = nil
		buffers.Put(&buf)
	}
	return c.moved, err
}

// buffers keeps the buffers of passes through memory for the next copy: a
// mirror copies thousands of small files, each of which would otherwise
// allocate (and clear) one of copyBuffer bytes for its first pass.
var buffers = sync.Pool{New: func() any {
	b := make([]byte, copyBuffer)
	return &b
}}

// Write takes bytes a body's WriteTo pushes, in passes of at most maxPass.
func (c *copier) Write(p []byte) (int, error) {
	written := 0
	for len(p) > 0 {
		if err := c.ctx.Err(); err != nil {
			return written, err
		}
		n := int64(min(len(p), c.step()))
		if c.max > 0 {
			room := c.max - c.done
			if room <= 0 {
				return written, c.tooLarge()
			}
			n = min(n, room)
		}
		m, err := c.dst.Write(p[:n])
		if c.hash != nil {
			c.hash.Write(p[:m])
		}
		written += m
		p = p[m:]
		if aerr := c.account(int64(m), false); aerr != nil {
			return written, aerr
		}
		if err != nil {
			c.werr = err
			return written, err
		}
	}
	return written, nil
}

// ReadFrom copies r to the end (or, for an *io.LimitedReader, to its
// limit) in passes.
func (c *copier) ReadFrom(r io.Reader) (int64, error) {
	var total int64
	for {
		if err := c.ctx.Err(); err != nil {
			return total, err
		}
		var n int64
		var end bool
		var err error
		if c.kernelPass(r) {
			n, end, err = c.passKernel(r)
		} else {
			n, end, err = c.passBuffered(r)
		}
		total += n
		if err != nil || end {
			return total, err
		}
	}
}

// kernelPass says whether the next pass goes through dst's ReadFrom.
func (c *copier) kernelPass(r io.Reader) bool {
	return c.rf != nil && c.hash == nil && c.fast && (c.max <= 0 || c.done < c.max) && movable(r)
}

// movable says whether the kernel can move r's bytes: r is, or is limited
// by one *io.LimitedReader around, a file or a socket. Other readers pass
// every byte through memory anyway.
func movable(r io.Reader) bool {
	if lr, ok := r.(*io.LimitedReader); ok {
		r = lr.R
	}
	switch r.(type) {
	case *os.File, syscall.Conn:
		return true
	}
	return false
}

// passKernel hands dst's ReadFrom one pass of r. It keeps a single
// *io.LimitedReader around the source, which is all os.File.ReadFrom
// looks through to find a descriptor.
func (c *copier) passKernel(r io.Reader) (n int64, end bool, err error) {
	want := min(c.pass, int64(c.step()))
	if c.max > 0 {
		want = min(want, c.max-c.done)
	}
	outer, _ := r.(*io.LimitedReader)
	lr := &io.LimitedReader{R: r, N: want}
	if outer != nil {
		if outer.N <= 0 {
			return 0, true, nil
		}
		lr.R, lr.N = outer.R, min(outer.N, want)
	}
	asked := lr.N
	n, err = c.rf.ReadFrom(lr)
	if outer != nil {
		outer.N -= n
	}
	if err != nil && !fromSource(err) {
		c.werr = err
	}
	if aerr := c.account(n, true); aerr != nil {
		return n, false, aerr
	}
	return n, err == nil && n < asked, err
}

// fromSource tells a failure of a kernel pass's source (a socket reset or
// timed out, a canceled read) from one of the destination, which
// os.File.ReadFrom reports alike, as a failed "write".
func fromSource(err error) bool { return transport.FromSocket(err) }

// passBuffered is one Read and one Write.
func (c *copier) passBuffered(r io.Reader) (int64, bool, error) {
	if c.buf == nil {
		c.buf = *buffers.Get().(*[]byte)
	}
	size := min(len(c.buf), c.step())
	if c.max > 0 {
		// One byte past the limit tells a body that ends there from
		// one that goes on, and Write refuses that byte.
		size = int(min(int64(size), max(c.max-c.done, 0)+1))
	}
	n, err := r.Read(c.buf[:size])
	if n > 0 {
		if _, werr := c.Write(c.buf[:n]); werr != nil {
			return int64(n), false, werr
		}
	}
	if err == io.EOF {
		return int64(n), true, nil
	}
	return int64(n), false, err
}

// account takes stock after n bytes reached dst: the rate cap, then a
// report after every kernel pass, every maxPass bytes or every
// reportEvery.
func (c *copier) account(n int64, pass bool) error {
	c.done += n
	c.moved += n
	c.window += n
	if err := c.throttle(); err != nil {
		return err
	}
	if now := time.Now(); pass || c.window >= maxPass || now.Sub(c.lastReport) >= reportEvery {
		c.report(now)
	}
	return nil
}

// report calls progress, and sizes the next kernel pass from the rate of
// the window since the last report: kernel passes are for a source fast
// enough that the smallest of them is over well within reportEvery.
func (c *copier) report(now time.Time) {
	if c.progress != nil {
		c.progress(c.done, c.total)
	}
	c.wb.advance()
	if d := now.Sub(c.lastReport); d > 0 && c.window > 0 {
		perPass := int64(float64(c.window) * float64(passTime) / float64(d))
		c.fast = perPass >= minPass
		c.pass = min(max(perPass, minPass), maxPass)
	}
	c.lastReport, c.window = now, 0
}
