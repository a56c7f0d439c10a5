package all_test

import (
	"strconv"
	"strings"
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

// TestDeclaredPorts: a scheme's declared ports are the ones parsing and
// the port policy use, with no table besides the declaration: a URL
// without a port has the declared one, the canonical form leaves it out,
// and a Dialer with the registry's facts lets a scheme use a restricted
// port exactly when it declares it (its default or one of OwnPorts, such
// as mailto's SMTP ports and news's nntps port).
func TestDeclaredPorts(t *testing.T) {
	r, err := schemes.Build(all.Declarations(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	d := &transport.Dialer{Ports: r}
	var declared []int // every port some scheme declares
	for _, decl := range all.Declarations() {
		for _, n := range decl.Names {
			if got := r.DefaultPort(n.Name); got != n.Port {
				t.Errorf("%s: registry's default port %d, declared %d", n.Name, got, n.Port)
			}
			if n.Port != 0 && !n.Opaque {
				checkParsedPort(t, r, n)
			}
			declared = append(declared, n.OwnPorts...)
			if n.Port != 0 {
				declared = append(declared, n.Port)
			}
		}
	}
	for _, scheme := range r.Names() {
		for _, p := range declared {
			own := r.OwnsPort(scheme, p)
			if err := d.CheckPort(scheme, p); (err == nil) != (own || !restricted(p)) {
				t.Errorf("%s on port %d: %v (declared its own: %v)", scheme, p, err, own)
			}
		}
	}
}

// policyFacts are what the declarations must keep saying: each scheme's
// own restricted ports, and the refusals RFC 1738 §6 is about (an ftp
// PASV reply naming a mail server's port).
var policyFacts = []struct {
	scheme string
	port   int
	ok     bool
}{
	{"ftp", 21, true}, {"ftp", 20, true}, {"ftp", 25, false}, {"ftp", 990, false},
	{"ftps", 990, true}, {"ftps", 989, true}, {"ftps", 21, false},
	{"telnet", 23, true}, {"tn3270", 23, true}, {"rlogin", 513, true}, {"gopher", 23, false},
	{"mailto", 25, true}, {"mailto", 465, true}, {"mailto", 587, true}, {"http", 587, false},
	{"nntp", 119, true}, {"news", 119, true}, {"news", 563, true}, {"nntps", 563, true},
	{"http", 119, false}, {"http", 563, false}, {"http", 22, false},
}

// TestPolicyFacts: the port policy, with the declarations' facts, gives
// each scheme its own restricted ports and no other's.
func TestPolicyFacts(t *testing.T) {
	r, err := schemes.Build(all.Declarations(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	d := &transport.Dialer{Ports: r}
	for _, f := range policyFacts {
		if err := d.CheckPort(f.scheme, f.port); (err == nil) != f.ok {
			t.Errorf("%s on port %d: %v, want allowed %v", f.scheme, f.port, err, f.ok)
		}
	}
}

// checkParsedPort parses n's URL without a port and with its declared
// one: both have it as their effective port, and both are written
// without it.
func checkParsedPort(t *testing.T, r *schemes.Registry, n schemes.Name) {
	t.Helper()
	for _, port := range []string{"", ":" + strconv.Itoa(n.Port)} {
		raw := n.Name + "://h.example" + port + "/" + pathFor[n.Name]
		loc, err := r.Parse(raw)
		if err != nil {
			t.Errorf("%s: %v", n.Name, err)
			continue
		}
		if g := loc.Generic(); g.EffectivePort() != n.Port || g.DefaultPort != n.Port {
			t.Errorf("%s: effective port %d, default %d; declared %d", raw, g.EffectivePort(), g.DefaultPort, n.Port)
		}
		if s := loc.String(); strings.Contains(s, ":"+strconv.Itoa(n.Port)) {
			t.Errorf("%s: written %q, with its default port", raw, s)
		}
	}
}

// pathFor completes the URLs of the schemes whose parser wants more than
// a host.
var pathFor = map[string]string{"wais": "db", "prospero": "x", "z39.50r": "db?1"}

// restricted reports whether port is on the restricted list: refused to
// a scheme that declares nothing.
func restricted(port int) bool {
	return (&transport.Dialer{}).CheckPort("x-none", port) != nil
}
