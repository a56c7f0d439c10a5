package schemes

import (
	"errors"
	"io"
	"slices"
	"testing"
)

func names(es []Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Name)
	}
	return out
}

func TestListingOf(t *testing.T) {
	l := ListingOf([]Entry{{Name: "b"}, {Name: "a"}, {Name: "c"}})
	var got []string
	for {
		e, err := l.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, e.Name)
	}
	if !slices.Equal(got, []string{"b", "a", "c"}) {
		t.Errorf("entries %q: want the given order", got)
	}
	if _, err := l.Next(); err != io.EOF {
		t.Errorf("Next after the end: %v, want io.EOF again", err)
	}
	if err := l.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := l.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}

	l = ListingOf([]Entry{{Name: "x"}})
	l.Close()
	if _, err := l.Next(); err != io.EOF {
		t.Errorf("Next after Close: %v, want io.EOF", err)
	}
}

// funcSource counts the calls a ListingFunc makes.
type funcSource struct {
	entries  []Entry
	err      error // returned once the entries are out (io.EOF when nil)
	closeErr error
	nexts    int
	closes   int
}

func (s *funcSource) next() (Entry, error) {
	s.nexts++
	if len(s.entries) == 0 {
		if s.err != nil {
			return Entry{}, s.err
		}
		return Entry{}, io.EOF
	}
	e := s.entries[0]
	s.entries = s.entries[1:]
	return e, nil
}

func (s *funcSource) close() error { s.closes++; return s.closeErr }

func (s *funcSource) listing() Listing { return ListingFunc(s.next, s.close) }

func TestListingFuncCloseOnce(t *testing.T) {
	boom := errors.New("451 transfer aborted")
	src := &funcSource{entries: []Entry{{Name: "a"}}, closeErr: boom}
	l := src.listing()
	if err := l.Close(); err != boom {
		t.Errorf("Close: %v, want the close func's error", err)
	}
	if err := l.Close(); err != nil {
		t.Errorf("second Close: %v, want nil", err)
	}
	if src.closes != 1 {
		t.Errorf("close func called %d times, want once", src.closes)
	}
	if _, err := l.Next(); err != io.ErrClosedPipe {
		t.Errorf("Next after Close: %v, want io.ErrClosedPipe", err)
	}
	if src.nexts != 0 {
		t.Errorf("next func called %d times after Close", src.nexts)
	}

	// A nil close releases nothing.
	l = ListingFunc(src.next, nil)
	if err := l.Close(); err != nil {
		t.Errorf("Close with nil func: %v", err)
	}
}

func TestListingFuncStickyError(t *testing.T) {
	lost := errors.New("connection lost")
	for _, end := range []error{lost, io.EOF} {
		src := &funcSource{entries: []Entry{{Name: "a"}}, err: end}
		l := src.listing()
		if e, err := l.Next(); err != nil || e.Name != "a" {
			t.Fatalf("first Next: %v, %v", e, err)
		}
		if _, err := l.Next(); err != end {
			t.Fatalf("second Next: %v, want %v", err, end)
		}
		// The source would go on (say a reconnecting parser); the listing
		// stays ended with the same error and does not ask again.
		src.entries = []Entry{{Name: "zombie"}}
		for range 2 {
			if e, err := l.Next(); err != end || e.Name != "" {
				t.Errorf("Next after %v: %v, %v; want the same error again", end, e, err)
			}
		}
		if src.nexts != 2 {
			t.Errorf("next func called %d times, want 2", src.nexts)
		}
		l.Close()
	}
}

func TestReadAll(t *testing.T) {
	lost := errors.New("connection lost")
	closeErr := errors.New("451 aborted")
	tests := []struct {
		name      string
		src       funcSource
		wantNames []string
		wantErr   error
	}{
		{"all", funcSource{entries: []Entry{{Name: "a"}, {Name: "b"}}}, []string{"a", "b"}, nil},
		{"next fails", funcSource{entries: []Entry{{Name: "a"}}, err: lost}, []string{"a"}, lost},
		{"close fails", funcSource{entries: []Entry{{Name: "a"}}, closeErr: closeErr}, []string{"a"}, closeErr},
		{"next's error comes first", funcSource{err: lost, closeErr: closeErr}, nil, lost},
	}
	for _, tt := range tests {
		src := tt.src
		got, err := ReadAll(src.listing())
		if err != tt.wantErr {
			t.Errorf("%s: error %v, want %v", tt.name, err, tt.wantErr)
		}
		if !slices.Equal(names(got), tt.wantNames) {
			t.Errorf("%s: entries %q, want %q", tt.name, names(got), tt.wantNames)
		}
		if src.closes != 1 {
			t.Errorf("%s: closed %d times, want once", tt.name, src.closes)
		}
	}
	got, err := ReadAll(ListingOf(nil))
	if err != nil || got == nil || len(got) != 0 {
		t.Errorf("ReadAll(empty) = %#v, %v; want an empty non-nil slice", got, err)
	}
}

func TestEntries(t *testing.T) {
	// Breaking out of the loop stops reading: a listing of millions of
	// names is not drained to find the first.
	src := &funcSource{entries: []Entry{{Name: "a"}, {Name: "b"}, {Name: "c"}}}
	l := src.listing()
	var got []string
	for e, err := range Entries(l) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, e.Name)
		if e.Name == "b" {
			break
		}
	}
	if !slices.Equal(got, []string{"a", "b"}) || src.nexts != 2 {
		t.Errorf("entries %q after %d Next calls, want a, b after 2", got, src.nexts)
	}
	if src.closes != 0 {
		t.Error("Entries closed the listing")
	}
	// The rest is still there.
	if e, err := l.Next(); err != nil || e.Name != "c" {
		t.Errorf("Next after the loop: %v, %v", e, err)
	}

	// An error ends the range with one final pair; io.EOF ends it quietly.
	lost := errors.New("connection lost")
	var errs []error
	got = nil
	for e, err := range Entries(ListingFunc((&funcSource{entries: []Entry{{Name: "a"}}, err: lost}).next, nil)) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		got = append(got, e.Name)
	}
	if !slices.Equal(got, []string{"a"}) || len(errs) != 1 || errs[0] != lost {
		t.Errorf("entries %q, errors %v; want a, then the error once", got, errs)
	}
	n := 0
	for range Entries(ListingOf([]Entry{{Name: "a"}})) {
		n++
	}
	if n != 1 {
		t.Errorf("%d pairs from a one-entry listing, want 1", n)
	}
}
