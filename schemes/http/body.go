package http

import (
	"context"
	"io"
	"sync"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// body is the Response.Body: the response body, with read errors turned
// into *schemes.Error and the request's resources released on Close. Its
// WriteTo may splice the body from the connection (splice.go).
type body struct {
	rc     io.ReadCloser
	ctx    context.Context
	loc    *URL
	cancel context.CancelCauseFunc
	done   func()
	once   sync.Once

	// raw is the plain connection the body arrives on, when WriteTo may
	// take the body from it past net/http (see spliceConn); else nil.
	raw    *transport.Conn
	size   int64 // the Content-Length, when raw is set
	length int64 // the Content-Length, -1 when none was sent
	got    int64 // bytes of the body delivered so far
	// taken is set once WriteTo reads the body from raw: net/http's
	// reader is behind it then and must not be read again; err is the
	// end the body came to there, io.EOF or the failure.
	taken bool
	err   error
	// framing is how the body's end is known (an index page cut at a
	// connection's close is told from a whole one by it).
	framing framing
	// sent is the request answered: the answer to one that is not
	// idempotent is not retried when it breaks off (sentOnce).
	sent sending
}

// Read reads the body. A connection that breaks or stalls mid-body is
// KindConnect or KindTimeout and retryable, as on every scheme
// (schemes.IOError); a body net/http cannot decode (bad chunked framing)
// is KindProtocol, retryable too: it is as often a connection cut in the
// middle of a chunk as a broken server.
func (b *body) Read(p []byte) (int, error) {
	if b.taken {
		return 0, b.err
	}
	// net/http reacts to cancellation from a goroutine of its own; until
	// then a body it has buffered would still be delivered in full.
	if cerr := b.ctx.Err(); cerr != nil {
		return 0, schemes.IOError(b.loc.g.Scheme, "body", cerr)
	}
	n, err := b.rc.Read(p)
	b.got += int64(n)
	if err == nil || err == io.EOF {
		return n, err
	}
	return n, b.readError(err)
}

// readError classifies a failure to read the body: the caller's context
// first, then schemes.IOError, with what that leaves unclassified (bad
// chunked framing) made a retryable protocol error.
func (b *body) readError(err error) error {
	if cerr := b.ctx.Err(); cerr != nil {
		return schemes.IOError(b.loc.g.Scheme, "body", cerr)
	}
	e := ioError(b.loc, "body", err)
	if e.Kind == schemes.KindOther {
		e.Kind, e.Retryable = schemes.KindProtocol, true
	}
	return sentOnce(e, b.sent)
}

// Close closes the body and releases the request. A body WriteTo took
// past net/http leaves net/http's reader short of its end, so net/http
// closes the connection rather than reuse it.
func (b *body) Close() error {
	err := b.rc.Close()
	b.once.Do(func() {
		b.cancel(nil)
		b.done()
	})
	return err
}
