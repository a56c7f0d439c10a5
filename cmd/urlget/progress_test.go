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
