package all_test

import (
	"testing"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/schemes/all"
	"github.com/urlget/urlget/transport"
)

// TestDeclarationsBuild: every declaration builds with its defaults and
// with each option set to its declared default (so that Default is of
// its Kind's type), its names registered once and with their caps
// checked by Register.
func TestDeclarationsBuild(t *testing.T) {
	decls := all.Declarations()
	r, err := schemes.Build(decls, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	opts := schemes.Options{}
	for _, d := range decls {
		for _, n := range d.Names {
			if s, ok := r.Lookup(n.Name); !ok || s.Handler == nil {
				t.Errorf("%s: not registered with a handler", n.Name)
			}
			if n.Of != "" && !d.Has(n.Of) {
				t.Errorf("%s: a variant of %q, which its declaration lacks", n.Name, n.Of)
			}
		}
		for _, o := range d.Options {
			if o.Help == "" || len(o.Schemes) == 0 {
				t.Errorf("option %s: no help or no schemes", o.Name)
			}
			for _, s := range o.Schemes {
				if !d.Has(s) {
					t.Errorf("option %s applies to %s, not declared with it", o.Name, s)
				}
			}
			if o.Default != nil {
				opts[o.Name] = o.Default
			}
		}
	}
	if _, err := schemes.Build(decls, opts, nil); err != nil {
		t.Errorf("defaults given as values: %v", err)
	}
}

// TestPortFactsAgree: the port tables of schemes (DefaultPort) and
// transport (the restricted ports' owners, CheckPort) say what the
// declarations say, so that a declaration's ports are the facts the
// dialer and the canonical form use.
func TestPortFactsAgree(t *testing.T) {
	for _, d := range all.Declarations() {
		for _, n := range d.Names {
			if got := schemes.DefaultPort(n.Name); got != n.Port {
				t.Errorf("%s: DefaultPort %d, declared %d", n.Name, got, n.Port)
			}
			for _, p := range append([]int{n.Port}, n.OwnPorts...) {
				if p == 0 {
					continue
				}
				if err := transport.CheckPort(n.Name, p, nil); err != nil {
					t.Errorf("%s: its own port %d refused: %v", n.Name, p, err)
				}
			}
		}
	}
}
