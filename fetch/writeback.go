package fetch

import (
	"io"
	"os"
	"sync"
)

// writebackChunk is how many new bytes of a file make the copier ask the
// kernel to start writing them to disk.
const writebackChunk = 8 << 20

// writebackAlign is what the end of a writeback request is rounded down
// to: a multiple of every page size in use.
const writebackAlign = 64 << 10

// writeback starts the disk writes of a download's file while the bytes
// still arrive, for a download that fsyncs the file before the rename
// (DownloadOptions.Sync). Left to itself the kernel writes a file out some
// 30 seconds after it was written (or when memory runs short): the fsync
// would then wait at the end for all of it. Started early, the writes
// overlap the transfer and the fsync waits for the last chunk only. A
// download without Sync does not start them: measured against curl, which
// leaves them to the kernel, starting them made it slower (the copy and the
// disk then compete while the transfer runs).
//
// The request is made from a goroutine of its own, one at a time: it
// returns at once while the disk keeps up, but may wait for the device's
// queue when it does not, and the copy must not wait with it (a TLS
// download, copied through memory, slowed down by half when it did).
type writeback struct {
	f    *os.File
	from int64 // where the bytes not yet handed to writeback begin

	mu   sync.Mutex
	busy bool           // a request is under way
	wg   sync.WaitGroup // the request under way, for wait
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

// advance starts writing what was written since the last request, once
// that is writebackChunk or more and no request is under way.
func (w *writeback) advance() {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.busy {
		return // the next call covers these bytes too
	}
	at, err := w.f.Seek(0, io.SeekCurrent)
	// Only whole blocks behind the write position: a page under
	// writeback that the next write lands in (the last, partly written
	// one) makes that write wait until the page is on disk.
	at -= at % writebackAlign
	if err != nil || at < w.from || at-w.from < writebackChunk {
		return
	}
	from := w.from
	w.from, w.busy = at, true
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		startWriteback(w.f, from, at-from)
		w.mu.Lock()
		w.busy = false
		w.mu.Unlock()
	}()
}

// wait returns when no request is under way: before the file is closed,
// whose descriptor the request uses.
func (w *writeback) wait() {
	if w != nil {
		w.wg.Wait()
	}
}
