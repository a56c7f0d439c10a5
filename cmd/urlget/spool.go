package main

import (
	"bytes"
	"io"
	"os"
	"sync"

	"github.com/urlget/urlget/schemes"
)

// spoolMemory is how much of one URL's stdout a parallel run holds in
// memory while URLs before it are still being written: a --json report,
// a -w line or a small body. Past it the output goes to a temporary file,
// so memory stays bounded (reorderWindow spools at most) however large
// the bodies are.
const spoolMemory = 64 << 10

// spool is one URL's stdout in a parallel run (-Z). Until release it holds
// what is written — in memory, then in an unnamed temporary file; release
// writes that to stdout and from then on passes writes straight through,
// so the URL at the head of the order streams as it would without -Z.
// Writes and release may come from different goroutines.
type spool struct {
	mu     sync.Mutex
	to     io.Writer // stdout once released
	mem    bytes.Buffer
	file   *os.File // past spoolMemory; removed from its directory at once
	failed error    // the temporary file could not be made or written
}

var _ io.Writer = (*spool)(nil)

// Write holds p, or writes it to stdout once the spool is released.
func (s *spool) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.to != nil:
		return s.to.Write(p)
	case s.failed != nil:
		return 0, s.failed
	case s.file == nil && s.mem.Len()+len(p) <= spoolMemory:
		return s.mem.Write(p)
	}
	if s.file == nil {
		f, err := os.CreateTemp("", "urlget-stdout-*")
		if err != nil {
			s.failed = spoolError(err)
			return 0, s.failed
		}
		// Unnamed from now on: nothing is left behind however urlget ends
		// (on systems that let an open file be removed).
		os.Remove(f.Name())
		s.file = f
		if _, err := s.mem.WriteTo(f); err != nil {
			s.failed = spoolError(err)
			return 0, s.failed
		}
	}
	n, err := s.file.Write(p)
	if err != nil {
		s.failed = spoolError(err)
		err = s.failed
	}
	return n, err
}

// release writes what the spool holds to w, in order, and lets later
// writes through to w.
func (s *spool) release(w io.Writer) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.to = w
	if _, err := s.mem.WriteTo(w); err != nil {
		return spoolError(err)
	}
	s.mem = bytes.Buffer{} // give its memory back: the URL may run long
	if s.file == nil {
		return nil
	}
	f := s.file
	s.file = nil
	defer func() {
		f.Close()
		os.Remove(f.Name()) // where an open file could not be removed (Windows)
	}()
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return spoolError(err)
	}
	if _, err := io.Copy(w, f); err != nil {
		return spoolError(err)
	}
	return nil
}

// spoolError is a failure to hold a URL's output for its turn, or to
// write what was held to stdout: a local write error (exit 23).
func spoolError(err error) error {
	return &schemes.Error{Phase: "output", Kind: schemes.KindLocal,
		Msg: "stdout: cannot hold the output for its turn (-Z) or write it", Err: err}
}
