package schemes

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// fetcher implements Handler and Explainer only; lister and stater add
// one interface each, full both.
type (
	fetcher   struct{}
	lister    struct{ fetcher }
	stater    struct{ fetcher }
	full      struct{ fetcher }
	noExplain struct{} // a Handler that cannot explain itself
)

func (fetcher) Fetch(context.Context, *Request) (*Response, error)   { return nil, nil }
func (fetcher) Explain(*Request) ([]string, error)                   { return nil, nil }
func (lister) List(context.Context, *Request) (*Response, error)     { return nil, nil }
func (stater) Stat(context.Context, *Request) (*Response, error)     { return nil, nil }
func (full) List(context.Context, *Request) (*Response, error)       { return nil, nil }
func (full) Stat(context.Context, *Request) (*Response, error)       { return nil, nil }
func (noExplain) Fetch(context.Context, *Request) (*Response, error) { return nil, nil }

var (
	_ Lister = lister{}
	_ Stater = stater{}
	_ Lister = full{}
	_ Stater = full{}
)

func parseTest(u *URL) (Locator, error) { return testLocator{u}, nil }

func TestRegisterChecksCaps(t *testing.T) {
	tests := []struct {
		name  string
		s     Scheme
		panic string // a substring of the panic; "" wants none
	}{
		{"fetch only", Scheme{Handler: fetcher{}, Caps: Retrieves | Resumes}, ""},
		{"lister", Scheme{Handler: lister{}, Caps: Retrieves | Lists}, ""},
		{"stater", Scheme{Handler: stater{}, Caps: Retrieves | Stats}, ""},
		{"both", Scheme{Handler: full{}, Caps: Retrieves | Lists | Stats | Resumes}, ""},
		{"parse only", Scheme{}, ""},
		{"a handler may do more than it claims", Scheme{Handler: full{}, Caps: Retrieves}, ""},
		{"lists without a Lister", Scheme{Handler: stater{}, Caps: Retrieves | Lists}, "not a Lister"},
		{"stats without a Stater", Scheme{Handler: lister{}, Caps: Retrieves | Lists | Stats}, "not a Stater"},
		{"caps without a handler", Scheme{Caps: Retrieves}, "claims retrieves without a handler"},
		{"lists without any handler", Scheme{Caps: Lists}, "without a handler"},
		{"handler without Explainer", Scheme{Handler: noExplain{}}, "does not implement Explainer"},
		{"crawls", Scheme{Handler: lister{}, Caps: Retrieves | Lists | Crawls | Conditional}, ""},
		{"crawls without lists", Scheme{Handler: full{}, Caps: Retrieves | Crawls}, "claims crawls but not lists"},
		{"pages without lists", Scheme{Handler: full{}, Caps: Retrieves | Pages}, "claims pages but not lists"},
		{"conditional without retrieves", Scheme{Handler: full{}, Caps: Lists | Conditional}, "claims conditional but not retrieves"},
		{"tls", Scheme{Handler: full{}, Caps: Retrieves | TLS}, ""},
		{"tls and local", Scheme{Handler: full{}, Caps: Retrieves | Local | TLS}, "claims tls but opens no connection"},
	}
	for _, tt := range tests {
		tt.s.Name, tt.s.Parse = "x-test", parseTest
		got := catchPanic(func() { NewRegistry().Register(tt.s) })
		if tt.panic == "" && got != "" {
			t.Errorf("%s: panic %q", tt.name, got)
		}
		if tt.panic != "" && !strings.Contains(got, tt.panic) {
			t.Errorf("%s: panic %q, want one with %q", tt.name, got, tt.panic)
		}
	}
}

func TestRegistry(t *testing.T) {
	r := NewRegistry()
	r.Register(Scheme{Name: "x-b", Parse: parseTest, Handler: full{}, Caps: Retrieves | Lists | Stats})
	r.Register(Scheme{Name: "x-a", Parse: parseTest})
	if got := r.Names(); !slices.Equal(got, []string{"x-a", "x-b"}) {
		t.Errorf("Names %q", got)
	}
	if s, ok := r.Lookup("x-b"); !ok || !s.Caps.Has(Lists|Stats) {
		t.Errorf("Lookup(x-b) = %+v, %v", s, ok)
	}
	if p := catchPanic(func() { r.Register(Scheme{Name: "x-a", Parse: parseTest}) }); !strings.Contains(p, "twice") {
		t.Errorf("duplicate Register: panic %q", p)
	}
	for _, s := range []Scheme{{Parse: parseTest}, {Name: "x-c"}} {
		if p := catchPanic(func() { r.Register(s) }); !strings.Contains(p, "without name or parser") {
			t.Errorf("Register(%+v): panic %q", s, p)
		}
	}
	loc, err := r.Parse("x-b://fred:pw@h/p")
	if err != nil || loc.Generic().Host != "h" {
		t.Errorf("Parse = %v, %v", loc, err)
	}
	_, err = r.Parse("x-none://fred:s3cret@h/")
	var se *Error
	if !errors.As(err, &se) || se.Kind != KindUnsupported || se.Part != "scheme" || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("Parse of an unknown scheme: %v (%+v)", err, se)
	}
}

// catchPanic runs f and returns what it panicked with, as text; "" if it
// did not panic.
func catchPanic(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

// TestSchemeForHost: the longest declared host prefix wins, "" claims any
// host no other prefix does, and a registry where none claims a host
// names no scheme.
func TestSchemeForHost(t *testing.T) {
	decl := func(names ...Name) Declaration {
		return Declaration{Names: names, New: func(Values) ([]Scheme, error) {
			var out []Scheme
			for _, n := range names {
				out = append(out, Scheme{Name: n.Name, Parse: func(u *URL) (Locator, error) { return nil, nil }})
			}
			return out, nil
		}}
	}
	r, err := Build([]Declaration{
		decl(Name{Name: "web", HostPrefixes: []string{""}}),
		decl(Name{Name: "files", HostPrefixes: []string{"ftp."}}),
		decl(Name{Name: "deep", HostPrefixes: []string{"ftp.deep."}}),
	}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for host, want := range map[string]string{
		"example.org": "web", "ftp.example.org": "files", "ftp.deep.example.org": "deep", "": "web",
	} {
		if got := r.SchemeForHost(host); got != want {
			t.Errorf("SchemeForHost(%q) = %q, want %q", host, got, want)
		}
	}
	r, err = Build([]Declaration{decl(Name{Name: "files", HostPrefixes: []string{"ftp."}})}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.SchemeForHost("example.org"); got != "" {
		t.Errorf("no catch-all: SchemeForHost = %q, want none", got)
	}
}
