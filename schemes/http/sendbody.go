package http

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/urlget/urlget/schemes"
)

// Body is a request body: what a Handler sends with its requests (curl's
// -d, --data-binary, --data-urlencode and -F). It is bytes held in
// memory and files read again at each request, so that a request sent
// again (after a 307 or 308 redirect, on a retry) carries the same
// bytes while a large file is never held whole. Its length is fixed
// when it is made: a file whose size changed since fails the request
// rather than sending other bytes than its Content-Length announced.
// A Body is not changed once made and is safe for concurrent use.
type Body struct {
	// Type is the Content-Type field sent with it; "" sends none. A
	// Content-Type in Handler.Header replaces it, as curl's -H does.
	Type   string
	pieces []piece
	size   int64
}

// piece is a run of a Body's bytes: data held, or size bytes of a file.
type piece struct {
	data []byte
	file string
	size int64
}

// MaxHeld bounds what a Body holds in memory: the bytes of a piece that
// is not a regular file read at each request (standard input, a pipe, a
// form's value), so that one cannot exhaust the memory. A regular file
// sent as it is has no such bound.
const MaxHeld = 64 << 20

// BytesBody returns a body of data, sent with Content-Type contentType.
func BytesBody(contentType string, data []byte) *Body {
	b := &Body{Type: contentType}
	b.add(data)
	return b
}

// FileBody returns a body of the named file's content, sent with
// Content-Type contentType. A regular file is read at each request, and
// its size now is the body's length; anything else (a pipe, a device)
// is read now, up to MaxHeld bytes.
func FileBody(contentType, name string) (*Body, error) {
	b := &Body{Type: contentType}
	if err := b.addFile(name); err != nil {
		return nil, err
	}
	return b, nil
}

// Len is the body's length in bytes: its Content-Length.
func (b *Body) Len() int64 { return b.size }

// add appends data.
func (b *Body) add(data []byte) {
	if len(data) == 0 {
		return
	}
	b.pieces = append(b.pieces, piece{data: data, size: int64(len(data))})
	b.size += int64(len(data))
}

// addFile appends the content of the named file: a regular one by name,
// read at each request; any other read now (held).
func (b *Body) addFile(name string) error {
	fi, err := os.Stat(name)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		data, err := readHeld(name)
		if err != nil {
			return err
		}
		b.add(data)
		return nil
	}
	if fi.Size() > 0 {
		b.pieces = append(b.pieces, piece{file: name, size: fi.Size()})
		b.size += fi.Size()
	}
	return nil
}

// readHeld reads what the named file holds, which is kept in memory: at
// most MaxHeld bytes.
func readHeld(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readBounded(f, name)
}

// readBounded reads r to its end, at most MaxHeld bytes; what names r
// in the error of a longer one.
func readBounded(r io.Reader, what string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxHeld+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxHeld {
		return nil, fmt.Errorf("%s: more than %d MiB to hold in memory (a regular file sent as it is is read at each request instead)", what, MaxHeld>>20)
	}
	return data, nil
}

// reader returns the body's bytes from the start, for one request.
func (b *Body) reader() io.ReadCloser { return &bodyReader{pieces: b.pieces} }

// bodyReader reads a Body's pieces in turn, opening each file when its
// turn comes and closing it at its end.
type bodyReader struct {
	pieces []piece
	cur    io.Reader
	file   *os.File
	left   int64 // of the current file piece
	name   string
}

// Read reads the next bytes of the body. A file that cannot be opened,
// or whose size changed since the Body was made, fails the read, and so
// the request, not retryable: another try would find the same.
func (r *bodyReader) Read(p []byte) (int, error) {
	for {
		if r.cur == nil {
			if len(r.pieces) == 0 {
				return 0, io.EOF
			}
			if err := r.next(); err != nil {
				return 0, err
			}
		}
		n, err := r.cur.Read(p)
		if r.file != nil {
			r.left -= int64(n)
		}
		if err == io.EOF {
			if cerr := r.endPiece(); cerr != nil {
				return n, cerr
			}
			if n > 0 {
				return n, nil
			}
			continue
		}
		if err != nil {
			return n, bodyError(r.name, err)
		}
		return n, nil
	}
}

// next starts the next piece.
func (r *bodyReader) next() error {
	pc := r.pieces[0]
	r.pieces = r.pieces[1:]
	if pc.file == "" {
		r.cur = bytes.NewReader(pc.data)
		return nil
	}
	f, err := os.Open(pc.file)
	if err != nil {
		return bodyError(pc.file, err)
	}
	r.file, r.name, r.left = f, pc.file, pc.size
	// One byte past the size: a file that grew is told from one that
	// did not (the check at its end).
	r.cur = io.LimitReader(f, pc.size+1)
	return nil
}

// endPiece closes the current piece at its end, checking that a file
// gave exactly the bytes announced.
func (r *bodyReader) endPiece() error {
	r.cur = nil
	if r.file == nil {
		return nil
	}
	r.file.Close()
	r.file = nil
	if r.left != 0 {
		return bodyError(r.name, errChangedSize)
	}
	return nil
}

// Close closes a file being read.
func (r *bodyReader) Close() error {
	if r.file != nil {
		r.file.Close()
		r.file = nil
	}
	return nil
}

// errChangedSize is the cause of a file that no longer has the size the
// request's Content-Length announced.
var errChangedSize = errors.New("its size changed since the request body was made")

// bodyError is the error of a request whose body could not be read:
// not the server's doing, and not retried.
func bodyError(name string, err error) error {
	return &schemes.Error{Phase: "request", Kind: schemes.KindOther, Msg: "reading the request body from " + name, Err: err}
}
