package main

import (
	"fmt"
	"sync"
	"time"
)

// parallelSet is the one progress line of a parallel run (-Z): files
// written out of the total, failures, the bytes all transfers received
// and their rate together. Transfers report into it through progress;
// the console draws it (a view); there is none (nil) where progress is
// not drawn: on a pipe, with -s or -v.
type parallelSet struct {
	mu     sync.Mutex
	total  int
	done   int
	failed int
	bytes  int64  // received by every transfer so far
	m      *meter // the bytes' rate, drawn with the counts as its name
}

var _ view = (*parallelSet)(nil)

func newParallelSet(total int) *parallelSet {
	return &parallelSet{total: total, m: newMeter("", time.Now(), 0, -1)}
}

// progress is the callback of one transfer: its byte counts are added to
// the set's. Without a set (no -Z) it is the transfer's own, given.
func (p *parallelSet) progress(own func(done, total int64)) func(done, total int64) {
	if p == nil {
		return own
	}
	var last int64 // this transfer's count so far
	return func(done, _ int64) {
		p.mu.Lock()
		p.bytes += done - last // less when a transfer started over
		last = done
		p.mu.Unlock()
	}
}

// listed says how many URLs the run has, once the -i list streamed by
// -Z has been read to its end (before, total is -1: not known).
func (p *parallelSet) listed(total int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total = total
}

// finished counts a URL written out, failed or not.
func (p *parallelSet) finished(failed bool) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if failed {
		p.failed++
	}
}

// view is the set's line: "12/200 files (1 failed)  3.4 MiB  1.2 MiB/s".
func (p *parallelSet) view(now time.Time, width int) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	files := "files"
	if p.total == 1 || p.total < 0 && p.done == 1 {
		files = "file"
	}
	counts := []part{{text: fmt.Sprintf("%d/%d %s", p.done, p.total, files)}}
	if p.total < 0 {
		counts[0].text = fmt.Sprintf("%d %s", p.done, files) // the list is still being read
	}
	if p.failed > 0 {
		counts = append(counts, part{text: fmt.Sprintf(" (%d failed)", p.failed)})
	}
	p.m.set(p.bytes, -1)
	p.m.final = p.done == p.total
	// The counts of URLs stay; the bytes and their rate give way.
	return []string{fit(width, append(counts, behind(p.m.parts(now), 1)...))}
}
