package sftp

import (
	"io"
	"sync"
)

const (
	// chunkSize is what one read ahead asks for. Being more than the SFTP
	// client's packet (32 KiB), it goes out as several READ requests at
	// once, and a short answer to any of them is the end of the file: a
	// small file is read, and its end seen, in one round trip.
	chunkSize = 256 << 10
	// aheadDepth is how many chunks are asked for before the first is
	// read: 2 MiB in flight, SSH's channel window (x/crypto/ssh's), which
	// keeps a 40 ms link at 50 MiB/s.
	aheadDepth = 8
)

// chunkPool holds the read-ahead buffers between files.
var chunkPool = sync.Pool{New: func() any { b := make([]byte, chunkSize); return &b }}

// chunk is one read ahead: its bytes, once done is closed.
type chunk struct {
	buf  *[]byte
	off  int64 // where in the file it starts
	n    int
	err  error
	done chan struct{}
}

// readAhead reads a file in order through many reads at once, as an
// SFTP client must to fill a link whose round trip is long: one READ at
// a time moves a packet a round trip (32 KiB per 40 ms is 0.8 MiB/s).
// Chunks are asked for while the reader is behind them, up to the end
// the caller gives (a range's), else up to the size the server told and
// past it as long as the file keeps growing.
type readAhead struct {
	f     io.ReaderAt
	next  int64 // offset of the next chunk to ask for
	end   int64 // the range's end, or -1: up to the end of the file
	hint  int64 // the size the server told; chunks beyond it wait for the reader
	queue []*chunk
	cur   *chunk // the chunk being read, its bytes from off
	off   int
	err   error // the end, or the failure, that stopped the reads
}

// newReadAhead reads f from off; end is the range's end (exclusive), or
// -1 for the whole file, whose size the server gave as size.
func newReadAhead(f io.ReaderAt, off, end, size int64) *readAhead {
	return &readAhead{f: f, next: off, end: end, hint: size}
}

// fill asks for chunks until aheadDepth are in flight or the end is
// reached. The chunk that starts at the size told is asked for too: its
// empty answer is the end of the file, seen without a round trip of its
// own.
func (r *readAhead) fill() {
	for len(r.queue) < aheadDepth && r.err == nil {
		n := int64(chunkSize)
		if r.end >= 0 {
			if r.next >= r.end {
				return
			}
			n = min(n, r.end-r.next)
		} else if r.next > r.hint {
			return
		}
		c := &chunk{buf: chunkPool.Get().(*[]byte), off: r.next, done: make(chan struct{})}
		go func(c *chunk, off int64, n int64) {
			c.n, c.err = r.f.ReadAt((*c.buf)[:n], off)
			close(c.done)
		}(c, r.next, n)
		r.queue = append(r.queue, c)
		r.next += n
	}
}

// Read returns the file's bytes in order.
func (r *readAhead) Read(p []byte) (int, error) {
	for r.cur == nil {
		if r.err != nil {
			return 0, r.err
		}
		r.fill()
		if len(r.queue) == 0 {
			return 0, io.EOF // the range's end
		}
		c := r.queue[0]
		r.queue = r.queue[1:]
		<-c.done
		r.cur, r.off = c, 0
		if c.err != nil {
			// A short chunk is the file's end (io.EOF) or a failure; its
			// bytes come first, and no chunk after it is read.
			r.err = c.err
		} else if end := c.off + int64(c.n); r.end < 0 && end > r.hint {
			r.hint = end // a full chunk past the size told: the file grew
		}
		if c.n == 0 {
			r.release(c)
			r.cur = nil
		}
	}
	n := copy(p, (*r.cur.buf)[r.off:r.cur.n])
	r.off += n
	if r.off == r.cur.n {
		r.release(r.cur)
		r.cur = nil
	}
	return n, nil
}

// release gives a read chunk's buffer back.
func (r *readAhead) release(c *chunk) {
	chunkPool.Put(c.buf)
	c.buf = nil
}

// stop abandons the reads in flight: their buffers are left to the
// collector, since their answers may still arrive.
func (r *readAhead) stop() {
	r.err = io.ErrClosedPipe
	r.queue, r.cur = nil, nil
}
