package ber

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"testing"
)

// hostile: what a peer may send to make a reader read without bound,
// nest without bound, or slice past the end; none is an element.
var hostile = map[string][]byte{
	"length over the max":       {0x30, 0x84, 0x7f, 0xff, 0xff, 0xff},
	"too many length octets":    {0x30, 0x85, 1, 0, 0, 0, 0},
	"reserved length octet":     {0x30, 0xff},
	"long tag":                  {0x3f, 0x81, 0x81, 0x81, 0x81, 0x01, 0x00},
	"deep":                      bytes.Repeat([]byte{0x30, 0x80}, MaxDepth+2),
	"endless indefinite":        append([]byte{0x30, 0x80}, bytes.Repeat([]byte{0x04, 0x00}, 1<<17)...),
	"length past the end":       {0x30, 0x05, 0x02, 0x01},
	"long length past the end":  {0x04, 0x82, 0x01},
	"primitive indefinite":      {0x04, 0x80, 0x00, 0x00},
	"indefinite without an end": {0x30, 0x80, 0x02, 0x01, 0x01},
	"one octet":                 {0x30},
}

func TestHostile(t *testing.T) {
	for name, b := range hostile {
		if _, err := ReadElement(bufio.NewReader(bytes.NewReader(b)), 1<<16); err == nil {
			t.Errorf("%s: ReadElement accepted it", name)
		}
		if _, _, _, err := Element(b); err == nil {
			t.Errorf("%s: Element accepted it", name)
		}
		if h, err := ParseHeader(b); err == nil && h.Length != Indefinite {
			t.Errorf("%s: ParseHeader accepted %+v", name, h)
		}
	}
}

// countingReader counts the octets read from it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// TestRefusedBeforeRead: a length over the max is refused on its header,
// not after its contents are read.
func TestRefusedBeforeRead(t *testing.T) {
	src := &countingReader{r: io.MultiReader(bytes.NewReader([]byte{0x04, 0x83, 0x10, 0x00, 0x00}), zeros{})}
	_, err := ReadElement(bufio.NewReaderSize(src, 16), 1<<20)
	if !errors.Is(err, ErrTooLong) || src.n > 16 {
		t.Errorf("%v after reading %d octets", err, src.n)
	}
}

// zeros is a stream that never ends.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// fours is a stream that never ends of empty OCTET STRINGs (04 00).
type fours struct{}

func (fours) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 0x04 &^ byte(i%2*4)
	}
	return len(p), nil
}

// TestEndlessStream: an indefinite length whose contents never end is
// cut at the max, not read forever.
func TestEndlessStream(t *testing.T) {
	src := &countingReader{r: io.MultiReader(bytes.NewReader([]byte{0x30, 0x80}), fours{})}
	_, err := ReadElement(bufio.NewReader(src), 1<<16)
	if !errors.Is(err, ErrTooLong) || src.n > 1<<16+4096 {
		t.Errorf("%v after reading %d octets", err, src.n)
	}
}

// TestTruncated: an end inside an element is an unexpected one.
func TestTruncated(t *testing.T) {
	for _, b := range [][]byte{{0x30}, {0x30, 0x03, 0x02}, {0x30, 0x80, 0x02, 0x01, 0x01}, {0x30, 0x82, 0x01}} {
		if _, err := ReadElement(bufio.NewReader(bytes.NewReader(b)), 64); !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("%x: %v", b, err)
		}
	}
}

// TestShortElementDoesNotWait: an element shorter than the longest
// header, with nothing after it yet (a peer awaiting the reply), is read
// without waiting for more octets.
func TestShortElementDoesNotWait(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	go pw.Write([]byte{0x02, 0x01, 0x07})
	b, err := ReadElement(bufio.NewReader(pr), 64)
	if err != nil || !bytes.Equal(b, []byte{0x02, 0x01, 0x07}) {
		t.Errorf("%x %v", b, err)
	}
}
