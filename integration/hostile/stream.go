package hostile

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"strings"
)

// chunk is the size of the buffers the fakes write from.
const chunk = 64 << 10

// repeatByte writes n copies of b to w, a chunk at a time.
func repeatByte(w io.Writer, b byte, n int64) error {
	buf := bytes.Repeat([]byte{b}, chunk)
	for n > 0 {
		m := min(n, int64(len(buf)))
		if _, err := w.Write(buf[:m]); err != nil {
			return err
		}
		n -= m
	}
	return nil
}

// writeLines writes n lines to w through a chunk-sized buffer, each made
// by line from its index into a reused buffer (line ends included).
func writeLines(w io.Writer, n int, line func(b []byte, i int) []byte) error {
	bw := bufio.NewWriterSize(w, chunk)
	var b []byte
	for i := range n {
		b = line(b[:0], i)
		if _, err := bw.Write(b); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// lineReader reads a client's command lines, each at most 4 KiB: a fake
// needs the command word and its argument, nothing longer.
type lineReader struct{ br *bufio.Reader }

func newLineReader(c net.Conn) *lineReader { return &lineReader{br: bufio.NewReaderSize(c, 4096)} }

// next returns the next line without its line end.
func (r *lineReader) next() (string, error) {
	line, err := r.br.ReadSlice('\n')
	if err != nil {
		return "", err
	}
	return strings.TrimRight(string(line), "\r\n"), nil
}

// command splits a line into its upper-cased command word and argument.
func command(line string) (verb, arg string) {
	verb, arg, _ = strings.Cut(line, " ")
	return strings.ToUpper(verb), arg
}
