package http

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"

	"github.com/urlget/urlget/schemes"
)

// With Handler.Decode a request offers the codings below and the body is
// decoded as it is read, so that what is written, counted, limited
// (--max-filesize) and checked is the resource itself, not its coding.
// A coded body's Content-Length and digest fields describe the coded
// bytes, so its Response has Size -1 and no SHA256.
//
// A resume asks for no coding: its Range counts bytes of what is asked
// for, and the bytes held are decoded ones, which are the bytes of the
// uncoded resource (a content coding is of the whole representation). A
// server that codes a 206 all the same is refused rather than appended.
const acceptEncoding = "gzip, deflate, br, zstd"

// zstdWindow is the largest zstd window accepted: RFC 9659 §3 has HTTP
// decoders limit it to 8 MB, so a body cannot make the decoder hold more.
const zstdWindow = 8 << 20

// contentCodings lists a response's Content-Encoding, in the order they
// were applied; "identity" is dropped.
func contentCodings(resp *http.Response) []string {
	var cs []string
	for _, v := range resp.Header.Values("Content-Encoding") {
		for c := range strings.SplitSeq(v, ",") {
			if c = strings.ToLower(strings.TrimSpace(c)); c != "" && c != "identity" {
				cs = append(cs, c)
			}
		}
	}
	return cs
}

// decoded wraps body in the decoders of codings, last applied first. A
// coding it does not know is a protocol error naming it. option is the
// Handler's Decode option in the caller's words, for the failures.
func decoded(loc *URL, body io.ReadCloser, codings []string, option string) (io.ReadCloser, error) {
	d := &decoder{body: body, loc: loc, r: body, option: option}
	for i := len(codings) - 1; i >= 0; i-- {
		switch codings[i] {
		case "gzip", "x-gzip":
			d.r = &lazy{open: func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }, from: d.r}
		case "deflate":
			d.r = &lazy{open: openDeflate, from: d.r}
		case "br":
			d.r = brotli.NewReader(d.r)
		case "zstd":
			z, err := zstd.NewReader(d.r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(zstdWindow))
			if err != nil {
				return nil, err
			}
			d.r, d.closers = z.IOReadCloser(), append(d.closers, z.IOReadCloser())
		default:
			return nil, &schemes.Error{Scheme: loc.g.Scheme, Phase: "response", Kind: schemes.KindProtocol,
				Msg: fmt.Sprintf("the body has Content-Encoding %q, which urlget cannot decode (%s decodes gzip, deflate, br and zstd)", codings[i], option)}
		}
	}
	return d, nil
}

// openDeflate reads HTTP's "deflate", which RFC 9110 §8.4.1.2 defines as
// zlib (RFC 1950) but some servers send as raw deflate (RFC 1951): the
// first two bytes tell, as they do for curl.
func openDeflate(r io.Reader) (io.Reader, error) {
	br := bufio.NewReader(r)
	h, err := br.Peek(2)
	if err != nil {
		return nil, err
	}
	if h[0]&0x0F == 8 && (uint16(h[0])<<8|uint16(h[1]))%31 == 0 {
		return zlib.NewReader(br)
	}
	return flate.NewReader(br), nil
}

// lazy opens its decoder at the first Read: gzip and zlib read a header
// as they are made, and that read belongs to the body, with its deadline
// and its errors, not to Fetch.
type lazy struct {
	open func(io.Reader) (io.Reader, error)
	from io.Reader
	r    io.Reader
	err  error
}

func (l *lazy) Read(p []byte) (int, error) {
	if l.r == nil && l.err == nil {
		l.r, l.err = l.open(l.from)
	}
	if l.err != nil {
		return 0, l.err
	}
	return l.r.Read(p)
}

// decoder is a decoded body. It has no WriteTo: the coded bytes must go
// through the decoders, never be spliced past them.
type decoder struct {
	body    io.ReadCloser // the body as served
	loc     *URL
	r       io.Reader
	closers []io.Closer
	option  string // the Decode option in the caller's words
}

// Read returns decoded bytes. The body's own errors (a broken connection)
// pass as they are; what the decoders find wrong with the bytes is a
// protocol error, not retried: the server sent the same bytes again.
func (d *decoder) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	if err == nil || err == io.EOF {
		return n, err
	}
	var se *schemes.Error
	if errors.As(err, &se) {
		return n, err
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = errors.New("the coded body ended early")
	}
	return n, &schemes.Error{Scheme: d.loc.g.Scheme, Phase: "body", Kind: schemes.KindProtocol,
		Msg: "cannot decode the body (" + d.option + ")", Err: err}
}

// Close closes the decoders and then the body.
func (d *decoder) Close() error {
	for _, c := range d.closers {
		c.Close()
	}
	return d.body.Close()
}

// ErrBodyWritten is schemes.ErrBodyWritten, the cause of the error a
// FailWithBody body ends with.
var ErrBodyWritten = schemes.ErrBodyWritten

// failBody is the error page of a status urlget fails on, for
// FailWithBody: its end is err.
type failBody struct {
	io.ReadCloser
	err error
}

func (f *failBody) Read(p []byte) (int, error) {
	n, err := f.ReadCloser.Read(p)
	if err == io.EOF {
		err = f.err
	}
	return n, err
}

// pageError is the status error a FailWithBody body ends with: never
// retried (the page is written), naming ErrBodyWritten as its cause.
func pageError(err error) error {
	var se *schemes.Error
	if !errors.As(err, &se) {
		return err
	}
	e := *se
	e.Retryable, e.RetryAfter, e.Err = false, 0, ErrBodyWritten
	return &e
}
