package http

import (
	"context"
	"errors"
	"io"
	"sync"

	"github.com/urlget/urlget/schemes"
)

// body is the Response.Body: the response body, with read errors turned
// into *schemes.Error and the request's resources released on Close.
type body struct {
	rc     io.ReadCloser
	ctx    context.Context
	loc    *URL
	cancel context.CancelCauseFunc
	done   func()
	once   sync.Once
}

// Read reads the body. A connection that breaks or stalls mid-body is
// KindConnect or KindTimeout and retryable, as on every scheme
// (schemes.IOError); a body net/http cannot decode (bad chunked framing)
// is KindProtocol, retryable too: it is as often a connection cut in the
// middle of a chunk as a broken server.
func (b *body) Read(p []byte) (int, error) {
	// net/http reacts to cancellation from a goroutine of its own; until
	// then a body it has buffered would still be delivered in full.
	if cerr := b.ctx.Err(); cerr != nil {
		return 0, ctxError(b.loc, "body", cerr)
	}
	n, err := b.rc.Read(p)
	if err == nil || err == io.EOF {
		return n, err
	}
	if cerr := b.ctx.Err(); cerr != nil {
		return n, ctxError(b.loc, "body", cerr)
	}
	var se *schemes.Error
	errors.As(schemes.IOError(b.loc.g.Scheme, "body", err), &se)
	e := withURL(se, b.loc)
	if e.Kind == schemes.KindOther {
		e.Kind, e.Retryable = schemes.KindProtocol, true
	}
	return n, e
}

// Close closes the body and releases the request.
func (b *body) Close() error {
	err := b.rc.Close()
	b.once.Do(func() {
		b.cancel(nil)
		b.done()
	})
	return err
}
