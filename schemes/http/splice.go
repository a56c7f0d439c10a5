package http

import (
	"io"
	"net"
	"net/http"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// net/http reads a response through a bufio.Reader of its own, and a body
// it hands out can only be Read: every byte goes through user memory. A
// large body with a known length on a plain connection is instead taken
// past net/http by WriteTo, which lets the kernel splice it from the socket
// into the destination (a file, a pipe), as the ftp data connection does.
//
// net/http keeps no count of what its buffer holds, but its bufio.Reader
// behaves in a way that tells: a Read for at least the buffer's size finds
// the buffer either holding bytes, and is served from them alone, or
// empty, and then reads the connection straight into the caller's slice,
// leaving the buffer empty. So WriteTo reads through net/http, with such
// Reads, until one of them moved the connection's byte count by exactly
// what it returned: from then on the rest of the body (Content-Length
// minus what was delivered) is on the connection and nowhere else, and
// WriteTo reads it from there. Nothing else reads the connection
// meanwhile: net/http's read loop waits for the body to be closed.
//
// net/http's reader is left short of the body's end, so closing the body
// makes net/http close the connection instead of keeping it for the next
// request. That is why only a large body is taken: a new connection costs a
// round trip and a slow start, negligible beside moving spliceMin bytes,
// while a run of small files keeps reusing one connection.
const (
	// spliceMin is the least of a body that must be left for WriteTo to
	// take it past net/http.
	spliceMin = 8 << 20
	// readBuffer is the size of net/http's read buffer (the Transport's
	// ReadBufferSize); probeSize must not be smaller.
	readBuffer = 4 << 10
	// probeSize is the size of the Reads through net/http that look for
	// its buffer empty: larger than readBuffer, so that bufio reads the
	// connection straight into them.
	probeSize = 64 << 10
	// spliceChunk is how much one splice pass may move before the body
	// takes stock (the caller's context, the count).
	spliceChunk = 4 << 20
	// copyBuffer is the buffer of WriteTo when it copies: larger than
	// io.Copy's 32 KiB, so a fast transfer takes fewer reads per megabyte.
	copyBuffer = 256 << 10
)

// spliceConn returns the connection a response's body may be taken from
// by WriteTo, or nil. That is the Dialer's *transport.Conn when net/http
// reads the body straight from it: a plain connection (never TLS, whose
// records must be decrypted) that this package dialed, carrying a body
// framed by a Content-Length of at least spliceMin, neither chunked nor
// decompressed by net/http. A Content-Encoding does not matter: the body
// is the bytes as served, whichever way they are read.
func spliceConn(resp *http.Response, c net.Conn) *transport.Conn {
	sc, ok := c.(*scopedConn) // a TLS connection is a tlsConn over a *tls.Conn over one
	if !ok || len(resp.TransferEncoding) > 0 || resp.Uncompressed || resp.ContentLength < spliceMin {
		return nil
	}
	tc, _ := sc.Conn.(*transport.Conn)
	return tc
}

// WriteTo copies the rest of the body to w in copyBuffer chunks, with
// Read's errors; io.Copy and the fetch client's copier call it. A body
// spliceConn allowed, going to a writer with ReadFrom
// (transport.SpliceTarget), is spliced from the connection instead, in
// passes of at most spliceChunk, each a w.ReadFrom of the connection
// (where the copier reports progress and applies its limits), with the
// checks of Read: fewer bytes than the Content-Length is a retryable
// connect error, a stall past the idle timeout a timeout, a canceled
// context KindCanceled. An error of w's own comes back as it is.
func (b *body) WriteTo(w io.Writer) (int64, error) {
	total, err := b.splice(w)
	if err != nil {
		return total, err
	}
	// Not taken (or taken to the end: Read then says io.EOF). The
	// wrappers keep io.CopyBuffer from calling this WriteTo again or
	// w's ReadFrom, which would copy in io.Copy's smaller buffer.
	// A small body gets a buffer its size (+1 for the read that sees the
	// end): a mirror fetches thousands, and allocating and clearing
	// copyBuffer bytes for each cost more than the transfer.
	size := copyBuffer
	if b.length >= 0 && b.length < copyBuffer {
		size = max(int(b.length)+1, 512)
	}
	n, err := io.CopyBuffer(struct{ io.Writer }{w}, struct{ io.Reader }{b}, make([]byte, size))
	return total + n, err
}

// splice moves the body to w from the connection, once drain has emptied
// net/http's buffer. It does nothing when the body or w does not allow it.
// The caller's context is bound to the connection meanwhile, so that
// canceling it fails the splice at once.
func (b *body) splice(w io.Writer) (int64, error) {
	rf, ok := transport.SpliceTarget(w)
	if !ok || b.raw == nil || b.taken || b.size-b.got < spliceMin {
		return 0, nil
	}
	total, ok, err := b.drain(w)
	if !ok || err != nil {
		return total, err
	}
	b.taken = true
	defer b.raw.Bind(b.ctx)()
	for b.got < b.size {
		if cerr := b.ctx.Err(); cerr != nil {
			b.err = schemes.IOError(b.loc.g.Scheme, "body", cerr)
			return total, b.err
		}
		chunk := min(spliceChunk, b.size-b.got)
		n, err := b.raw.ReadTo(rf, chunk)
		b.got += n
		total += n
		switch {
		case err != nil && !transport.FromSocket(err):
			// w refused the bytes (a full disk, a pipe whose reader
			// left): like a failed Write, the caller's to report.
			b.err = err
			return total, err
		case err == nil && n < chunk:
			err = io.ErrUnexpectedEOF // closed before Content-Length bytes
			fallthrough
		case err != nil:
			b.err = b.readError(err)
			return total, b.err
		}
	}
	b.err = io.EOF
	return total, nil
}

// drain reads the body through net/http into w until a Read came straight
// from the connection, which proves net/http's buffer empty (see the top
// of this file); that takes two Reads at most, the first emptying the
// buffer. Each asks for probeSize bytes, and net/http's limit to the
// Content-Length never cuts one below readBuffer: at least spliceMin are
// left. ok is false when the body ended, or what is left of it is no
// longer worth taking, before that happened.
func (b *body) drain(w io.Writer) (total int64, ok bool, err error) {
	buf := make([]byte, probeSize)
	for b.size-b.got >= spliceMin {
		before := b.raw.BytesRead()
		n, rerr := b.Read(buf)
		direct := n > 0 && b.raw.BytesRead()-before == int64(n)
		if n > 0 {
			m, werr := w.Write(buf[:n])
			total += int64(m)
			if werr != nil {
				return total, false, werr
			}
		}
		switch {
		case rerr == io.EOF:
			return total, false, nil
		case rerr != nil:
			return total, false, rerr
		case direct:
			return total, true, nil
		}
	}
	return total, false, nil
}
