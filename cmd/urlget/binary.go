package main

import (
	"bytes"
	"io"

	"github.com/urlget/urlget/schemes"
)

// binarySniff is how much of a body is looked at for a NUL, as curl
// does: its first 2000 bytes, whatever the writes they come in.
const binarySniff = 2000

// errBinaryToTerminal is curl's refusal, in urlget's words: a body with a
// NUL byte would go to the terminal, where its bytes can drive it.
var errBinaryToTerminal = &schemes.Error{Phase: "output", Kind: schemes.KindLocal,
	Msg: `Binary output can mess up your terminal. Use "--output -" to tell urlget to output it to your terminal anyway, or consider "--output <FILE>" to save to a file.`}

// binaryGuard passes a body through to the terminal until it sees a NUL
// in the body's first binarySniff bytes, which it refuses to write (curl's
// test, made only when stdout is a terminal and -o - was not given): text
// shows, a binary file stops before any of the write that holds the NUL.
type binaryGuard struct {
	w    io.Writer
	seen int64
}

func (g *binaryGuard) Write(p []byte) (int, error) {
	if g.seen < binarySniff {
		look := p[:min(int64(len(p)), binarySniff-g.seen)]
		if bytes.IndexByte(look, 0) >= 0 {
			return 0, errBinaryToTerminal
		}
	}
	n, err := g.w.Write(p)
	g.seen += int64(n)
	return n, err
}

// forcedStdout says the i-th URL was sent to stdout by "-o -", which
// lets a binary body go to a terminal (curl's "--output -").
func (o *options) forcedStdout(i int) bool { return i < len(o.outputs) && o.outputs[i] == "-" }
