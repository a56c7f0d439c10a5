package fetch

import (
	"encoding/json"
	"errors"
	"slices"
)

// span is the bytes [Start, End) of a resource.
type span struct{ Start, End int64 }

func (s span) len() int64 { return s.End - s.Start }

// MarshalJSON writes a span as [start,end], which keeps a record of
// dozens of them short.
func (s span) MarshalJSON() ([]byte, error) { return json.Marshal([2]int64{s.Start, s.End}) }

// UnmarshalJSON reads [start,end].
func (s *span) UnmarshalJSON(b []byte) error {
	var v [2]int64
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	s.Start, s.End = v[0], v[1]
	return nil
}

// spans are ranges of a resource, sorted, none empty, none touching
// another: what a segmented copy holds, or what it lacks.
type spans []span

// total is the number of bytes the spans cover.
func (ss spans) total() int64 {
	var n int64
	for _, s := range ss {
		n += s.len()
	}
	return n
}

// add marks [a, b) as covered, merging it with the spans it touches.
func (ss *spans) add(a, b int64) {
	if a >= b {
		return
	}
	s := *ss
	i, _ := slices.BinarySearchFunc(s, a, func(x span, a int64) int {
		switch {
		case x.End < a:
			return -1
		case x.Start > a:
			return 1
		}
		return 0
	})
	// i is the first span that ends at or after a: merge from there on
	// every span that starts at or before b.
	j := i
	for j < len(s) && s[j].Start <= b {
		a, b = min(a, s[j].Start), max(b, s[j].End)
		j++
	}
	*ss = slices.Replace(s, i, j, span{a, b})
}

// gaps are the ranges of [0, size) the spans do not cover.
func (ss spans) gaps(size int64) spans {
	var g spans
	at := int64(0)
	for _, s := range ss {
		if s.Start > at {
			g = append(g, span{at, s.Start})
		}
		at = max(at, s.End)
	}
	if at < size {
		g = append(g, span{at, size})
	}
	return g
}

// errBadSpans is a record whose ranges a file of its size cannot hold.
var errBadSpans = errors.New("ranges out of order or past the end")

// check says whether the spans are sorted, apart, and within [0, size).
func (ss spans) check(size int64) error {
	at := int64(-1)
	for _, s := range ss {
		if s.Start <= at || s.Start < 0 || s.End <= s.Start || s.End > size {
			return errBadSpans
		}
		at = s.End
	}
	return nil
}
