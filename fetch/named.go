package fetch

import (
	"errors"
	"io"

	"github.com/urlget/urlget/schemes"
)

// Handlers return protocol errors and leave the URL to the Client, which
// names it once, redacted, wherever a handler's error reaches the caller:
// the request's own error (withURL in follow), and the errors of the Body
// and Listing a Response carries (named), which a caller of Get or List
// reads after the request returned, and which Download and Stream copy.

// withURL names loc, redacted, in the first *schemes.Error of err's chain
// when it names no URL (a handler's or the Dialer's error), and its
// scheme when it names none. Handlers name no URL, so after redirects an
// error names the URL that failed (Get).
func withURL(err error, loc schemes.Locator) error {
	var se *schemes.Error
	if errors.As(err, &se) && se.URL == "" {
		se.URL = loc.Redacted()
		if se.Scheme == "" {
			se.Scheme = loc.Generic().Scheme
		}
	}
	return err
}

// named makes the errors of r's Body and Listing name r.URL (withURL).
func named(r *Response) {
	if r == nil || r.Response == nil {
		return
	}
	if r.Body != nil {
		r.Body = &namedBody{ReadCloser: r.Body, loc: r.URL}
	}
	if r.Listing != nil {
		r.Listing = &namedListing{Listing: r.Listing, loc: r.URL}
	}
}

// namedBody is a Body whose errors name loc.
type namedBody struct {
	io.ReadCloser
	loc schemes.Locator
}

func (b *namedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err != io.EOF {
		err = withURL(err, b.loc)
	}
	return n, err
}

func (b *namedBody) Close() error { return withURL(b.ReadCloser.Close(), b.loc) }

// WriteTo copies the body as it would be copied unwrapped, so that the
// wrapper costs no zero-copy path: by the body's own WriteTo (the ftp and
// http bodies splice from their connections), else by w's ReadFrom, which
// sees the file or socket itself (copier.run makes the same choice).
func (b *namedBody) WriteTo(w io.Writer) (int64, error) {
	var n int64
	var err error
	if wt, ok := b.ReadCloser.(io.WriterTo); ok && !movable(b.ReadCloser) {
		n, err = wt.WriteTo(w)
	} else if rf, ok := w.(io.ReaderFrom); ok {
		n, err = rf.ReadFrom(b.ReadCloser)
	} else {
		n, err = io.Copy(w, b.ReadCloser)
	}
	return n, withURL(err, b.loc)
}

// namedListing is a Listing whose errors name loc.
type namedListing struct {
	schemes.Listing
	loc schemes.Locator
}

func (l *namedListing) Next() (schemes.Entry, error) {
	e, err := l.Listing.Next()
	if err != nil && err != io.EOF {
		err = withURL(err, l.loc)
	}
	return e, err
}

func (l *namedListing) Close() error { return withURL(l.Listing.Close(), l.loc) }
