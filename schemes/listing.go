package schemes

import (
	"errors"
	"io"
	"iter"
)

// Listing streams the entries of a container in the server's order (menus,
// score-ranked hits and article numbers have meaningful orders), as they
// are parsed: a listing of millions of names is never held whole. Callers
// that need another order sort what they collect.
//
// Next returns the next entry, or io.EOF after the last one; any other
// error ends the listing (a broken connection is the usual *Error). Close
// releases the connection behind the listing and must be called, also
// after an error or before the end; it returns what went wrong finishing
// the exchange (an FTP 451 after the data), and is safe to call twice.
// A Listing is used by one goroutine at a time.
type Listing interface {
	Next() (Entry, error)
	Close() error
}

// ListingOf returns a Listing over entries already held (a local
// directory, a small group list, a test's fixture).
func ListingOf(entries []Entry) Listing { return &sliceListing{entries: entries} }

type sliceListing struct{ entries []Entry }

func (l *sliceListing) Next() (Entry, error) {
	if len(l.entries) == 0 {
		return Entry{}, io.EOF
	}
	e := l.entries[0]
	l.entries = l.entries[1:]
	return e, nil
}

func (l *sliceListing) Close() error { l.entries = nil; return nil }

// ListingFunc returns a Listing whose Next calls next and whose Close calls
// close (nil: nothing to release) once.
func ListingFunc(next func() (Entry, error), close func() error) Listing {
	return &funcListing{next: next, close: close}
}

type funcListing struct {
	next   func() (Entry, error)
	close  func() error
	closed bool
	err    error
}

func (l *funcListing) Next() (Entry, error) {
	if l.closed {
		return Entry{}, io.ErrClosedPipe
	}
	if l.err != nil {
		return Entry{}, l.err
	}
	e, err := l.next()
	if err != nil {
		l.err = err // a listing that ended stays ended
	}
	return e, err
}

func (l *funcListing) Close() error {
	if l.closed {
		return nil
	}
	l.closed = true
	if l.close == nil {
		return nil
	}
	return l.close()
}

// Entries ranges over l's entries: it yields each entry with a nil error,
// and a final zero Entry with the error that ended the listing, if it was
// not io.EOF. It does not close l.
func Entries(l Listing) iter.Seq2[Entry, error] {
	return func(yield func(Entry, error) bool) {
		for {
			e, err := l.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				yield(Entry{}, err)
				return
			}
			if !yield(e, nil) {
				return
			}
		}
	}
}

// ReadAll reads l to its end, closes it, and returns its entries (an empty,
// non-nil slice for an empty listing). The error is the first of a failed
// Next and Close. Use it only where the listing is known to be small.
func ReadAll(l Listing) ([]Entry, error) {
	out := []Entry{}
	var err error
	for e, ierr := range Entries(l) {
		if ierr != nil {
			err = ierr
			break
		}
		out = append(out, e)
	}
	if cerr := l.Close(); err == nil {
		err = cerr
	}
	return out, err
}
