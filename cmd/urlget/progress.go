package main

import (
	"io"
	"os"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
	"golang.org/x/term"

	"github.com/urlget/urlget/schemes"
)

// isTerminal reports whether w is a terminal; the progress bar is drawn only
// there, so logs and pipes never receive control sequences.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// bar is one transfer's progress bar; the zero value draws nothing.
type bar struct {
	p *mpb.Progress
	b *mpb.Bar
}

func (o *options) newBar(stderr io.Writer, loc schemes.Locator) *bar {
	if !o.progressBar {
		return &bar{}
	}
	p := mpb.New(mpb.WithOutput(stderr), mpb.WithWidth(32), mpb.WithAutoRefresh())
	b := p.New(0, mpb.BarStyle(),
		mpb.PrependDecorators(decor.Name(shortName(loc.Redacted()), decor.WCSyncSpaceR)),
		mpb.AppendDecorators(
			decor.Counters(decor.SizeB1024(0), "% .1f / % .1f", decor.WCSyncSpace),
			decor.AverageSpeed(decor.SizeB1024(0), " % .1f", decor.WCSyncSpace),
			decor.OnComplete(decor.AverageETA(decor.ET_STYLE_GO, decor.WCSyncSpace), ""),
		))
	return &bar{p: p, b: b}
}

func shortName(s string) string {
	if len(s) > 40 {
		return "…" + s[len(s)-39:]
	}
	return s
}

// update moves the bar; total is -1 when the size is unknown.
func (b *bar) update(done, total int64) {
	if b.b == nil {
		return
	}
	if total >= 0 {
		b.b.SetTotal(total, false)
	}
	b.b.SetCurrent(done)
}

// done completes the bar and waits for its last drawing.
func (b *bar) done() {
	if b.b == nil {
		return
	}
	b.b.SetTotal(-1, true)
	b.p.Wait()
}

// progressReader reports bytes read from r to fn.
func progressReader(r io.Reader, total int64, fn func(done, total int64)) io.Reader {
	return &countingReader{r: r, total: total, fn: fn}
}

type countingReader struct {
	r           io.Reader
	done, total int64
	fn          func(int64, int64)
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.done += int64(n)
	c.fn(c.done, c.total)
	return n, err
}

// copyChunk is the buffer of WriteTo when the body has no WriteTo of its
// own: large enough that a fast transfer costs few system calls.
const copyChunk = 256 << 10

// WriteTo lets io.Copy keep the body's own fast path: wrapping a body to
// count it must not hide its WriteTo, or every copy falls back to 32 KiB
// reads and writes.
func (c *countingReader) WriteTo(w io.Writer) (int64, error) {
	if wt, ok := c.r.(io.WriterTo); ok {
		return wt.WriteTo(&countingWriter{w: w, c: c})
	}
	return io.CopyBuffer(&countingWriter{w: w, c: c}, struct{ io.Reader }{c.r}, make([]byte, copyChunk))
}

// countingWriter reports what passes through it to its countingReader.
type countingWriter struct {
	w io.Writer
	c *countingReader
}

func (cw *countingWriter) Write(p []byte) (int, error) {
	n, err := cw.w.Write(p)
	cw.c.done += int64(n)
	cw.c.fn(cw.c.done, cw.c.total)
	return n, err
}

// ReadFrom keeps the destination's own ReadFrom reachable (a file or a
// pipe into which a body can splice its connection), counting per call.
func (cw *countingWriter) ReadFrom(r io.Reader) (int64, error) {
	rf, ok := cw.w.(io.ReaderFrom)
	if !ok {
		return io.CopyBuffer(struct{ io.Writer }{cw}, r, make([]byte, copyChunk))
	}
	n, err := rf.ReadFrom(r)
	cw.c.done += n
	cw.c.fn(cw.c.done, cw.c.total)
	return n, err
}
