package main

import (
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/urlget/urlget/mirror"
)

// boardTransfers is how many transfers under way the board shows, one a
// line, under the overall line.
const boardTransfers = 8

// mirrorBoard is a mirror's progress display: an overall line (files
// fetched, unchanged and failed, bytes, rate) and one line per transfer
// under way (its path, bytes and percentage).
type mirrorBoard struct {
	mu      sync.Mutex
	overall *meter // bytes of every transfer, for the rate
	got     int64  // bytes of the transfers that ended
	active  map[string]*boardLine
	counts  mirror.Summary
	total   int64 // the bytes planned, once the walk is over; -1 before
}

type boardLine struct {
	started     time.Time
	done, total int64
}

func newMirrorBoard(now time.Time) *mirrorBoard {
	return &mirrorBoard{overall: newMeter("", now, 0, -1), active: map[string]*boardLine{}, total: -1}
}

// progress records a transfer's bytes (mirror.Options.Progress).
func (b *mirrorBoard) progress(rel string, done, total int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	l := b.active[rel]
	if l == nil {
		l = &boardLine{started: time.Now()}
		b.active[rel] = l
	}
	l.done, l.total = done, total
	b.overall.set(b.bytesLocked(), b.total)
}

// event counts an event; a transfer that ended leaves the board.
func (b *mirrorBoard) event(ev mirror.Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch ev.Type {
	case mirror.EventGet:
		b.counts.Got++
		b.got += ev.Bytes
	case mirror.EventSkip:
		if ev.Reason == mirror.ReasonUnchanged {
			b.counts.Unchanged++
		}
	case mirror.EventError:
		b.counts.Errors++
	case mirror.EventListed:
		b.counts.Listed++
	}
	if ev.Type != mirror.EventListed {
		delete(b.active, ev.Path)
	}
	b.overall.set(b.bytesLocked(), b.total)
}

// planned takes the run's plan (mirror.Options.Planned): once the walk is
// over the total is known, and the overall line shows a percentage and
// the time left.
func (b *mirrorBoard) planned(p mirror.Plan) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if p.Walked {
		b.total = p.Bytes
	}
	b.overall.set(b.bytesLocked(), b.total)
}

// finish marks the run over: the last drawing shows the time it took
// and the average rate, not a time left.
func (b *mirrorBoard) finish() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.overall.final = true
}

// bytesLocked is every byte moved so far.
func (b *mirrorBoard) bytesLocked() int64 {
	n := b.got
	for _, l := range b.active {
		n += l.done
	}
	return n
}

// view draws the board: the overall line, then the transfers under way,
// oldest first.
func (b *mirrorBoard) view(now time.Time, width int) []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	// The counts of files come first and stay (the label goes before
	// them, the directories listed before the share of bytes moved); the
	// bytes, their total and rate give way to them.
	overall := []part{{text: "mirror: ", drop: 1}, {text: fmt.Sprintf("%d fetched", b.counts.Got)},
		{text: fmt.Sprintf(", %d unchanged", b.counts.Unchanged)}, {text: fmt.Sprintf(", %d failed", b.counts.Errors)},
		{text: fmt.Sprintf(", %d directories listed", b.counts.Listed), drop: 3}}
	lines := []string{fit(width, append(overall, behind(b.overall.parts(now), 2)...))}
	paths := make([]string, 0, len(b.active))
	for p := range b.active {
		paths = append(paths, p)
	}
	sort.Slice(paths, func(i, j int) bool {
		a, c := b.active[paths[i]], b.active[paths[j]]
		if !a.started.Equal(c.started) {
			return a.started.Before(c.started)
		}
		return paths[i] < paths[j]
	})
	for i, p := range paths {
		if i == boardTransfers {
			lines = append(lines, fmt.Sprintf("  … and %d more", len(paths)-boardTransfers))
			break
		}
		l := b.active[p]
		line := []part{{text: "  "}, {text: forPeople(p), name: true}}
		if l.total > 0 {
			line = append(line, part{text: fmt.Sprintf("  %3d%%", min(100, l.done*100/l.total))},
				part{text: " " + formatBytes(l.done)}, part{text: " / " + formatBytes(l.total), drop: dropTotal})
		} else {
			line = append(line, part{text: "  " + formatBytes(l.done)})
		}
		lines = append(lines, fit(width, line))
	}
	return lines
}
