package fetch

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"

	"github.com/urlget/urlget/schemes"
)

// stream is the Body of a RoundTripper's response: it reads r, and its
// Close closes resp (the transfer, its connection, the attempt's
// MaxTime) and ends the request's context.
type stream struct {
	r      io.Reader
	resp   *Response          // nil for a body of the RoundTripper's own text
	cancel context.CancelFunc // of the context the transfer runs under

	mu     sync.Mutex // held by a Read: a handler's body is read by one goroutine at a time
	closed bool
	once   sync.Once
	err    error
}

// Read reads the resource; after Close it fails.
func (s *stream) Read(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return 0, errBodyClosed
	}
	return s.r.Read(p)
}

var errBodyClosed = errors.New("fetch: read on a closed response body")

// Close stops the transfer. A Read blocked on the server (another
// goroutine's) is first ended by canceling the transfer's context, as
// net/http's Close ends a blocked Read; otherwise the response is closed
// with its context alive, so that a transfer read to its end can finish
// its exchange and keep its session.
func (s *stream) Close() error {
	s.once.Do(func() {
		if !s.mu.TryLock() { // a Read is under way: stop it
			s.stop()
			s.mu.Lock()
		}
		s.closed = true
		if s.resp != nil {
			s.err = s.resp.Close()
		}
		s.mu.Unlock()
		s.stop()
	})
	return s.err
}

func (s *stream) stop() {
	if s.cancel != nil {
		s.cancel()
	}
}

// lines reads a listing as JSON lines (ListingMediaType), one entry at a
// time as the listing yields it: memory is one entry's, whatever the
// listing's length. The listing's end is its Close's error, if it has
// one (an FTP 451 after the data), else io.EOF.
type lines struct {
	l   schemes.Listing
	buf []byte
	end error
}

func (x *lines) Read(p []byte) (int, error) {
	for len(x.buf) == 0 {
		if x.end != nil {
			return 0, x.end
		}
		e, err := x.l.Next()
		switch {
		case errors.Is(err, io.EOF):
			x.end = io.EOF
			if cerr := x.l.Close(); cerr != nil {
				x.end = cerr
			}
		case err != nil:
			x.end = err
		default:
			b, err := json.Marshal(e)
			if err != nil {
				x.end = err
				continue
			}
			x.buf = append(b, '\n')
		}
	}
	n := copy(p, x.buf)
	x.buf = x.buf[n:]
	return n, nil
}
