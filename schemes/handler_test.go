package schemes

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// scopedTrace counts the scopes asked of it.
type scopedTrace struct {
	NopTrace
	scopes int
}

func (s *scopedTrace) Scope() Trace { s.scopes++; return &NopTrace{} }

func TestNewScope(t *testing.T) {
	if _, ok := NewScope(nil).(NopTrace); !ok {
		t.Error("NewScope(nil) is not a NopTrace")
	}
	plain := &struct{ NopTrace }{}
	if NewScope(plain) != Trace(plain) {
		t.Error("NewScope of a Trace without scopes did not return it")
	}
	s := &scopedTrace{}
	if NewScope(s) == Trace(s) || s.scopes != 1 {
		t.Errorf("NewScope of a Scoper: %d scopes asked, want 1", s.scopes)
	}
}

func TestWithTrace(t *testing.T) {
	if TraceFrom(context.Background()) != nil {
		t.Error("a bare context carries a Trace")
	}
	tr := &scopedTrace{}
	ctx := WithTrace(context.Background(), tr)
	if TraceFrom(ctx) != Trace(tr) {
		t.Error("TraceFrom did not return the Trace WithTrace stored")
	}
	inner := NopTrace{}
	if TraceFrom(WithTrace(ctx, inner)) != Trace(inner) {
		t.Error("the innermost Trace does not win")
	}
}

func TestResponseEntry(t *testing.T) {
	loc := mustLocator(t, "http://fred:pw@h/dir/a.txt")
	mod := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	r := &Response{Kind: EntryFile, Size: 10, ModTime: mod, Precision: time.Second, Name: "a.txt",
		Type: "text/plain", ETag: `"e1"`}
	e := r.Entry(loc)
	if e.Name != "a.txt" || e.Kind != EntryFile || e.Size != 10 || !e.ModTime.Equal(mod) ||
		e.Precision != time.Second || e.Locator != loc {
		t.Errorf("entry %+v", e)
	}
	if len(e.Extra) != 2 || e.Extra[0] != (Extra{"type", "text/plain"}) || e.Extra[1] != (Extra{"etag", `"e1"`}) {
		t.Errorf("extra %v, want type then etag", e.Extra)
	}

	// Unknowns: no kind is EntryUnknown, no time has no precision, an
	// unsafe name goes to the title.
	e = (&Response{Size: -1, Precision: time.Minute, Name: ".."}).Entry(loc)
	if e.Kind != EntryUnknown || e.Precision != 0 || e.Name != "" || e.Title != ".." || e.Extra != nil {
		t.Errorf("entry %+v", e)
	}
}

type closer struct {
	io.Reader
	n   int
	err error
}

func (c *closer) Close() error { c.n++; return c.err }

func TestResponseClose(t *testing.T) {
	bodyErr, listErr := errors.New("body"), errors.New("listing")
	body := &closer{Reader: strings.NewReader(""), err: bodyErr}
	lcloses := 0
	l := ListingFunc(func() (Entry, error) { return Entry{}, io.EOF }, func() error { lcloses++; return listErr })
	if err := (&Response{Body: body, Listing: l}).Close(); err != bodyErr {
		t.Errorf("Close: %v, want the body's error first", err)
	}
	if body.n != 1 || lcloses != 1 {
		t.Errorf("closed body %d and listing %d times, want both once", body.n, lcloses)
	}
	l = ListingFunc(func() (Entry, error) { return Entry{}, io.EOF }, func() error { return listErr })
	if err := (&Response{Listing: l}).Close(); err != listErr {
		t.Errorf("Close: %v, want the listing's error", err)
	}
	if err := (&Response{Redirect: "http://h/"}).Close(); err != nil {
		t.Errorf("Close of a redirect: %v", err)
	}
}
