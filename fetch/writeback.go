package fetch

import (
	"io"
	"os"
)

// writebackChunk is how many new bytes of a file make the copier ask the
// kernel to start writing them to disk.
const writebackChunk = 8 << 20

// writeback starts the disk writes of a download's file while the bytes
// still arrive. Left to itself the kernel writes a file out some 30
// seconds after it was written (or when memory runs short): a fsync before
// the rename (DownloadOptions.Sync) would then wait at the end for all of
// it, and without one the file would stay at risk from a crash all that
// time. Started early, the writes overlap the transfer, a fsync waits for
// the last chunk only, and little is left unwritten when Download returns.
// It never waits itself: the transfer goes at the network's pace and the
// disk catches up.
type writeback struct {
	f    *os.File
	from int64 // where the bytes not yet handed to writeback begin
}

// newWriteback returns the writeback of f, or nil where it is not needed
// (a device, a FIFO) or not available.
func newWriteback(f *os.File) *writeback {
	if !writebackWorks {
		return nil
	}
	from, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil
	}
	return &writeback{f: f, from: from}
}

// advance starts writing what was written since the last call, once that
// is writebackChunk or more.
func (w *writeback) advance() {
	if w == nil {
		return
	}
	at, err := w.f.Seek(0, io.SeekCurrent)
	if err != nil || at < w.from || at-w.from < writebackChunk {
		return
	}
	startWriteback(w.f, w.from, at-w.from)
	w.from = at
}
