package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// writerToBody is a body with its own WriteTo, like the ftp body's.
type writerToBody struct {
	io.Reader
	used bool
}

func (b *writerToBody) WriteTo(w io.Writer) (int64, error) {
	b.used = true
	return io.Copy(w, b.Reader)
}

func TestProgressCopyKeepsWriteToAndCounts(t *testing.T) {
	data := strings.Repeat("x", 3*copyChunk+17)
	for _, tc := range []struct {
		name string
		body io.Reader
	}{
		{"body with WriteTo", &writerToBody{Reader: strings.NewReader(data)}},
		{"plain body", struct{ io.Reader }{strings.NewReader(data)}},
	} {
		var done, total int64
		var out bytes.Buffer
		n, err := io.Copy(&out, progressReader(tc.body, int64(len(data)), func(d, t int64) { done, total = d, t }))
		if err != nil || n != int64(len(data)) || out.String() != data {
			t.Fatalf("%s: copied %d bytes (%v)", tc.name, n, err)
		}
		if done != int64(len(data)) || total != int64(len(data)) {
			t.Errorf("%s: progress %d/%d, want %d", tc.name, done, total, len(data))
		}
		if b, ok := tc.body.(*writerToBody); ok && !b.used {
			t.Errorf("%s: the body's WriteTo was bypassed", tc.name)
		}
	}
}

// readerFromBody hands its data to the destination's ReadFrom, as the ftp
// body does when it splices its data connection into a file.
type readerFromBody struct{ r io.Reader }

func (b *readerFromBody) Read(p []byte) (int, error) { return b.r.Read(p) }

func (b *readerFromBody) WriteTo(w io.Writer) (int64, error) {
	rf, ok := w.(io.ReaderFrom)
	if !ok {
		return 0, io.ErrShortWrite // the test fails: ReadFrom was hidden
	}
	return rf.ReadFrom(struct{ io.Reader }{b.r})
}

// readFromSink records whether its ReadFrom was reached.
type readFromSink struct {
	bytes.Buffer
	reached bool
}

func (s *readFromSink) ReadFrom(r io.Reader) (int64, error) {
	s.reached = true
	return s.Buffer.ReadFrom(r)
}

func TestProgressCopyReachesReadFrom(t *testing.T) {
	data := strings.Repeat("y", 2*copyChunk+5)
	withRF := &readFromSink{}
	var plain bytes.Buffer
	for _, tc := range []struct {
		name string
		sink io.Writer
		got  func() string
	}{
		{"sink with ReadFrom", withRF, withRF.String},
		{"sink without ReadFrom", struct{ io.Writer }{&plain}, plain.String},
	} {
		var done int64
		n, err := io.Copy(tc.sink, progressReader(&readerFromBody{strings.NewReader(data)}, -1,
			func(d, _ int64) { done = d }))
		if err != nil || n != int64(len(data)) || done != n || tc.got() != data {
			t.Fatalf("%s: copied %d, progress %d, err %v; want %d", tc.name, n, done, err, len(data))
		}
	}
	if !withRF.reached {
		t.Errorf("the sink's ReadFrom was not reached")
	}
}
